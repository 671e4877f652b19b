/* A page's live stream: Server-Sent Events (games/stream.py), one long-lived response that
   the server writes each new version to, `id: <version>`, `event: state`, `data: <the state
   poll's JSON>`. The browser's EventSource reconnects by itself with Last-Event-ID (the last
   version it got), so a dropped connection loses nothing; `event: end` says nothing will
   change any more. Pages fall back to their long poll where EventSource is missing, refused
   (an HTTP error, too many streams: 429), or failing over and over (a proxy that buffers).
   A page that takes patches (`patches: true`, ?patches=1: the tournament's page) gets, after
   the stream's first whole answer, `event: patch` messages: {version, since, patch}, RFC 6902
   operations turning the answer at `since` (the one it holds) into the answer at `version`,
   applied here with fast-json-patch (vendor/), or a whole answer (`event: state`) where the
   patch would be no smaller; one that does not fit what the page holds (never, unless the
   server errs) reopens the stream from nothing, a whole answer first, and the third within
   WINDOW_MS sends the page to its long poll, which tries the stream again after
   STREAM_RETRY_MS (streamRetryAt).
   An ES module (no build step): table/server.js and tournaments/live.js import it. */
import { applyPatch, deepClone } from "./vendor/fast-json-patch/core.js";

const FAILURES = 3; // errors within WINDOW_MS: give up the stream for the long poll
const WINDOW_MS = 15000;
/* A page following its long poll tries its stream again after this long (the streams'
   processes restarted together, a proxy that was away): back on the stream within about a
   minute, not only after a reload. */
export const STREAM_RETRY_MS = 60000;

/* When a page on its long poll tries its stream again: STREAM_RETRY_MS after the first
   fallback, twice as long after each later one (at most 8 times), each ±10 % so the pages
   of one restart do not all come back at once; Infinity where there is no EventSource. */
export function streamRetryAt(fallbacks) {
  if (!window.EventSource) return Infinity;
  const factor = 2 ** Math.min(Math.max(fallbacks - 1, 0), 3) * (0.9 + 0.2 * Math.random());
  return Date.now() + STREAM_RETRY_MS * factor;
}

/* `times` (Date.now() values) still within WINDOW_MS, and now. */
const withNow = (times) => {
  const now = Date.now();
  return times.filter((t) => now - t < WINDOW_MS).concat([now]);
};

/* The answer `message` ({version, since, patch}) makes of `held` (the last whole answer),
   or null when it does not apply to it. `held` is left as it was. */
export function patched(held, message) {
  if (!held || held.version !== message.since) return null;
  try {
    return applyPatch(deepClone(held), message.patch, true).newDocument;
  } catch (err) {
    return null;
  }
}

/* Follow `url` from `since` (null: from nothing). `onState(answer)` for each message (a
   whole answer, a patch's result included), `onEnd()` after the last, `onFail()` when the
   page should long-poll instead. `patches`: ask for patch messages. Returns a handle whose
   close() stops it, or null when there is no EventSource. */
export function follow(url, since, { onState, onEnd, onFail, patches = false }) {
  if (!window.EventSource) {
    onFail();
    return null;
  }
  let source = null;
  let held = null; // the last whole answer (patches only)
  let errors = [];
  let badPatches = []; // times of patches that did not fit (not cleared by a good message)
  let done = false;
  const finish = (callback) => {
    if (done) return;
    done = true;
    source.close();
    callback();
  };
  const open = (from) => {
    const query = [];
    if (from !== null && from !== undefined) query.push("since=" + from);
    if (patches) query.push("patches=1");
    source = new EventSource(url + (query.length ? "?" + query.join("&") : ""));
    source.addEventListener("state", (e) => {
      errors = [];
      const answer = JSON.parse(e.data);
      if (patches) held = answer;
      onState(answer);
    });
    source.addEventListener("patch", (e) => {
      const answer = patched(held, JSON.parse(e.data));
      if (answer === null) { // (never, unless the server errs) start again from a whole answer
        badPatches = withNow(badPatches);
        if (badPatches.length >= FAILURES) {
          finish(onFail);
          return;
        }
        source.close();
        held = null;
        open(null);
        return;
      }
      errors = [];
      held = answer;
      onState(answer);
    });
    source.addEventListener("end", () => finish(onEnd));
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        finish(onFail); // refused: the browser will not reconnect
        return;
      }
      errors = withNow(errors);
      if (errors.length >= FAILURES) finish(onFail);
    });
  };
  open(since);
  return { close: () => { done = true; source.close(); } };
}
