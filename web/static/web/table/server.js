/* The table page's calls to the server: the live stream (its long poll as the fallback),
   actions, seats, the payout.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { follow, streamRetryAt } from "../live.js";
import { noteEvent } from "./fairness.js";
import { $, T, cfg, notice, legal, redraw, root, st } from "./state.js";
import { t as text } from "./texts.js";

/* The top bar's balance: api.js's one refresher (Trix.refreshBalance, GET /api/wallet/),
   which T.api also calls by itself after a stake, a refund or the payout's fetch. */
export const refreshBalance = () => T.refreshBalance();

/* The poll's last error shown in the notice: hidden again by the next good answer. */
let pollError = null;

function pollRecovered() {
  if (pollError !== null && $("#notice") && $("#notice").textContent === pollError) notice("");
  pollError = null;
}

export function stillLegal(action) {
  return legal().some((a) => a.type === action.type &&
    (a.card === undefined || a.card === action.card) &&
    (a.contract === undefined || a.contract === action.contract) &&
    (a.cards === undefined || JSON.stringify(a.cards.slice().sort()) === JSON.stringify((action.cards || []).slice().sort())));
}

export async function send(action) {
  if (st.sending) return;
  // My last action is applied (its answer said so) and the page has not yet shown the
  // version it made: what the page offers is from before it, so a tap now is not sent.
  if (st.awaiting !== null && st.version < st.awaiting) return;
  st.sending = true;
  st.actions += 1;
  root.classList.add("sending");
  if (action.type === "play" && st.mySeat !== null) {
    // Instant: the card leaves the hand for the trick now, faded until the server has it.
    st.pending = { seat: st.mySeat, card: action.card, version: st.version };
    redraw.all();
  }
  try {
    let answer;
    try {
      answer = await T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action });
    } catch (err) {
      if (err.status !== 409) throw err;
      // The table moved on since our last state (a bot, a Ready, a pick): catch up, and
      // send again only if the move is still legal; if not, the page now shows why.
      absorb(await T.api("GET", cfg.stateUrl + "?since=" + st.version + "&wait=0"));
      if (!stillLegal(action)) {
        if (st.pending) {
          st.pending = null;
          redraw.all();
        }
        return;
      }
      answer = await T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action });
    }
    if (answer && answer.applied_version > st.version) {
      st.awaiting = answer.applied_version;
      root.dataset.awaiting = String(answer.applied_version);
    }
    notice("");
  } catch (err) {
    if (st.pending && action.type === "play") {
      // Refused: the card goes back to the hand, with the reason.
      st.pending = null;
      notice(text("card_refused", { card: T.cardLabel(action.card), reason: err.message }));
      redraw.all();
    } else {
      notice(err.message);
    }
  } finally {
    st.sending = false;
    root.classList.remove("sending");
  }
}

/* Simultaneous doubling: tell the server the current pick, so a timeout commits it (000).
   Ready still sends the pick itself; a failed select only loses that timeout fallback. */
export function selectDoubles() {
  const d = st.view && st.view.doubling;
  if (!d || d.mode !== "simultaneous") return;
  st.actions += 1;
  const cards = Array.from(st.selected);
  T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action: { type: "select", cards } })
    .catch((err) => console.warn("select not sent:", err.message));
}

const calling = new Set(); // the tableCall()s on their way (url and body)

/* POST `body` to one of the table's actions (sit, leave, seat a bot) and show the table it
   answers: true when the server took it, false when refused (the page shows why), null when
   the same call was already on its way (dropped: a double-click left, then showed the second
   leave's refusal). */
export async function tableCall(url, body) {
  const key = url + " " + JSON.stringify(body);
  if (calling.has(key)) return null;
  calling.add(key);
  try {
    const table = await T.api("POST", url, body);
    notice("");
    if (table && table.seats) {
      st.table = table;
      redraw.all();
    }
    refreshBalance(); // a seat taken or left moves a stake
    return true;
  } catch (err) {
    if (err.status === 401) {
      window.location = cfg.loginUrl + "?next=" + encodeURIComponent(location.pathname);
      return false;
    }
    notice(err.message);
    return false;
  } finally {
    calling.delete(key);
  }
}

export async function loadPayout() {
  if (!cfg.payoutUrl) return;
  try {
    st.payout = await T.api("GET", cfg.payoutUrl);
    redraw.result();
    if (st.payout && st.payout.settled) refreshBalance();
  } catch (err) {
    notice(err.message);
  }
}

/* The match's rating changes (the ratings app rates a finished match in a task, so the
   first answers may come before it: asked again every 1.5 s, at most 20 times). */
export async function loadRatings() {
  if (!cfg.ratingsUrl) return;
  for (let i = 0; i < 20 && !st.stopped; i++) {
    try {
      st.ratings = await T.api("GET", cfg.ratingsUrl);
    } catch (err) {
      return;
    }
    redraw.result();
    if (st.ratings && st.ratings.rated) return;
    await new Promise((r) => setTimeout(r, 1500));
  }
}

/* My pending card after a new version: gone from my hand (played: confirmed), or, with it
   still in my hand, no longer my turn (a timeout played another first): back to the hand.
   Otherwise it stays pending (its POST is not answered yet). */
function settlePending() {
  const p = st.pending;
  if (!p) return;
  const v = st.view;
  const inHand = Boolean(v && (v.hand || []).includes(p.card));
  const myTurn = Boolean(v && (v.to_act || []).includes(p.seat));
  if (!inHand || !myTurn || st.mySeat !== p.seat) st.pending = null;
}

export function absorb(data) {
  if (data.server_time) st.clockSkew = Date.parse(data.server_time) - Date.now();
  if (st.table && data.version === st.version && !(data.events || []).length) {
    // Nothing new (a long poll that timed out): keep the page as it is, under the cursor,
    // but for this seat's doubling pick, which moves no version (made in another tab).
    st.deadline = data.deadline ? Date.parse(data.deadline) : null;
    const pick = (v) => JSON.stringify(v && v.doubling ? v.doubling.selected || null : null);
    if (data.view && pick(data.view) !== pick(st.view)) {
      st.view = data.view;
      redraw.all();
    }
    return;
  }
  st.version = data.version;
  if (st.awaiting !== null && st.version >= st.awaiting) {
    st.awaiting = null;
    delete root.dataset.awaiting;
  }
  st.table = data.table || st.table;
  st.view = data.view;
  st.mySeat = data.my_seat === undefined ? null : data.my_seat;
  if (data.server_time) st.clockSkew = Date.parse(data.server_time) - Date.now();
  st.deadline = data.deadline ? Date.parse(data.deadline) : null;
  for (const ev of data.events || []) {
    noteEvent(ev);
    if (ev.type === "deal_ended" && !st.deals.some((d) => d.deal === ev.deal)) {
      st.deals.push(Object.assign({ deal_id: st.dealIds[ev.deal] || null }, ev));
    } else if (ev.type === "seed_revealed" && ev.deal_id) {
      // The deal's seed is public now: its verification page exists.
      st.dealIds[ev.deal] = ev.deal_id;
      const d = st.deals.find((x) => x.deal === ev.deal);
      if (d) d.deal_id = ev.deal_id;
    } else if (ev.type === "settled") {
      st.settled = true;
      loadPayout();
    }
  }
  settlePending();
  if (st.table && st.table.status === "finished" && st.table.stake && !st.payout && !st.payoutAsked) {
    // Opened after the end (the settled event may be older than this page): ask once.
    st.payoutAsked = true;
    loadPayout();
  }
  if (st.table && st.table.status === "finished" && !st.ratingsAsked) {
    st.ratingsAsked = true;
    loadRatings();
  }
  root.dataset.version = String(st.version);
  root.dataset.phase = (st.view && st.view.phase) || (st.table && st.table.status) || "";
  redraw.all();
}

/* The live stream (GET /api/tables/{id}/stream/): each message is the state poll's answer
   after the version before it. Resolves true once the table will not change any more, false
   when the page should long-poll instead (no EventSource, refused, failing). */
function streamed() {
  return new Promise((resolve) => {
    follow(cfg.streamUrl, st.version, {
      onState: (data) => {
        pollRecovered();
        // An answer already absorbed (a 409's catch-up in send()) is not taken back.
        if (!st.table || data.version > st.version) absorb(data);
      },
      onEnd: () => resolve(true),
      onFail: () => resolve(false),
    });
  });
}

/* Follow the table: by its stream, or by the long poll where the stream fails, trying the
   stream again a minute later (streamRetryAt) while the table still plays or is open. */
export async function poll() {
  let fallbacks = 0;
  while (!st.stopped && !over()) {
    if (cfg.streamUrl && (await streamed())) return;
    fallbacks += 1;
    await longPoll(cfg.streamUrl ? streamRetryAt(fallbacks) : Infinity);
  }
}

/* Whether the table has ended (finished or cancelled): its stream would only say so. */
const ended = () => !!st.table && ["finished", "cancelled"].includes(st.table.status);

/* Whether nothing more will come: cancelled, or finished with no pot left to pay (free, or
   its settled event seen). The server ends a stream there too (games.selectors.table_over). */
const over = () =>
  ended() && (st.table.status === "cancelled" || !st.table.stake || st.settled ||
              Boolean(st.payout && st.payout.settled));

/* The state's long poll until `until` (a Date.now() value), the table is over or the page
   stops. */
async function longPoll(until) {
  let delay = 0;
  while (!st.stopped && !over() && (Date.now() < until || ended())) {
    try {
      const before = st.version;
      let comeBack = null; // the server's Retry-After: above our share of long polls
      const data = await T.api("GET", cfg.stateUrl + "?since=" + st.version, undefined,
        { onRetryAfter: (ms) => { comeBack = ms; } });
      pollRecovered();
      if (data) absorb(data);
      delay = 0;
      if (comeBack !== null) {
        await new Promise((r) => setTimeout(r, comeBack));
      } else if (!data || data.version === before) {
        // Nothing new (the server answered without holding): do not spin.
        await new Promise((r) => setTimeout(r, 400));
      }
      if (st.table && (st.table.status === "finished" || st.table.status === "cancelled") &&
          st.view && st.view.phase === "over") {
        // One more slow poll in case the payout lands after the match ends.
        await new Promise((r) => setTimeout(r, 2000));
      }
    } catch (err) {
      if (err.retryAfter) {
        // Too many reads (429) or a backing service down (503): come back when it says.
        await new Promise((r) => setTimeout(r, err.retryAfter));
        continue;
      }
      notice(err.message);
      pollError = err.message;
      delay = Math.min(delay ? delay * 2 : 500, 5000);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
