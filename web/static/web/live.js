/* A page's live stream: Server-Sent Events (games/stream.py), one long-lived response that
   the server writes each new version to, `id: <version>`, `event: state`, `data: <the state
   poll's JSON>`. The browser's EventSource reconnects by itself with Last-Event-ID (the last
   version it got), so a dropped connection loses nothing; `event: end` says nothing will
   change any more. Pages fall back to their long poll where EventSource is missing, refused
   (an HTTP error, too many streams: 429), or failing over and over (a proxy that buffers).
   An ES module (no build step): table/server.js and tournaments/live.js import it. */

const FAILURES = 3; // errors within WINDOW_MS: give up the stream for the long poll
const WINDOW_MS = 15000;

/* Follow `url` from `since` (null: from nothing). `onState(answer)` for each message,
   `onEnd()` after the last, `onFail()` when the page should long-poll instead. Returns the
   EventSource (close() it to stop), or null when there is none. */
export function follow(url, since, { onState, onEnd, onFail }) {
  if (!window.EventSource) {
    onFail();
    return null;
  }
  const source = new EventSource(url + (since === null || since === undefined ? "" : "?since=" + since));
  let errors = [];
  let done = false;
  const finish = (callback) => {
    if (done) return;
    done = true;
    source.close();
    callback();
  };
  source.addEventListener("state", (e) => {
    errors = [];
    onState(JSON.parse(e.data));
  });
  source.addEventListener("end", () => finish(onEnd));
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      finish(onFail); // refused: the browser will not reconnect
      return;
    }
    const now = Date.now();
    errors = errors.filter((t) => now - t < WINDOW_MS).concat([now]);
    if (errors.length >= FAILURES) finish(onFail);
  });
  return source;
}
