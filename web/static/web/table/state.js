/* The table page's one state object, its root element and helpers that read the state.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { botBadge, num, t } from "./texts.js";

export const T = window.Trix; // web/static/web/api.js (a classic script loaded before)
export const el = T.el;
export const root = document.getElementById("table-app");
export const cfg = root ? root.dataset : {};
export const $ = (sel) => root.querySelector(sel);

/* Everything the page knows; the regions render from it and nothing else. */
export const st = {
  version: 0,
  table: null,
  view: null,
  mySeat: null,
  deadline: null,
  clockSkew: 0, // server_time - local time, ms
  deals: [], // deal_ended events: {deal, contract, scores, totals, deal_id}
  dealIds: {}, // deal number -> deal id (from seed_revealed events)
  dealNow: 0, // the deal of the latest deal_started event (the hand events belong to it)
  checks: {}, // deal number -> this browser's check of it: {status, problems, deal_id} (fairness.js)
  notSaved: false, // seated, but this browser kept no commitment for this match
  settled: false,
  payout: null, // {"pot", "payouts": [{"user_id", "name", "amount"}]} once settled
  ratings: null, // {"rated", "changes": [{"seat", "before", "after", "delta", ...}]} (/api/ratings/tables/<id>/)
  rematch: null, // the finished table's rematch (GET /api/tables/<id>/rematch/; rematch.js)
  log: [],
  selected: new Set(), // cards selected for doubling
  doublingKey: null,
  serverPick: null, // the seat's pick as the server last showed it (view.doubling.selected), JSON
  summary: null, // the newest finished deal's deal_summary (summary.js), kept into the next deal
  summaryClosed: false,
  summaryAt: 0, // when this browser first showed it (Date.now())
  sending: false,
  awaiting: null, // the version my last applied action made: taps wait until the page has it (server.js)
  actions: 0, // the actions this page has sent for its seat (server.js): the player is playing
  pending: null, // {seat, card, version}: my card shown in the trick before the server has it (server.js)
  stopped: false,
};

/* What to draw again when the state changed: set by main.js (render.js's render and
   result.js's renderResult), so the server calls need not import the regions (no import
   cycle: collectstatic's hashing of module imports cannot resolve one). */
export const redraw = { all: () => {}, result: () => {} };

/* A person's name as this page shows it: a closed account's ("account_closed": its answer's
   `name` is in the language of whoever the live stream answered first) in the page's
   language, by the account's id; anyone else's as the server sent it. */
export function personName(name, id, closed) {
  return closed ? t("closed_account", { n: String(id) }) : name;
}

export function seatName(seat) {
  const s = st.table && st.table.seats[seat];
  if (!s || !s.kind || (s.kind !== "bot" && !s.name)) return t("seat_n", { n: num(seat + 1) });
  if (s.kind === "bot") return t("bot_n", { n: num(seat + 1) });
  return personName(s.name, s.user_id, s.account_closed);
}

/* A name set apart from the text around it (U+2068 FIRST STRONG ISOLATE ... U+2069): a
   Latin, Arabic or mixed name ("Sami سامي") keeps its own order and its place in a sentence
   or a list, in either direction. An element shows a name isolated by itself (nameEl). */
export function isolated(name) {
  return "\u2068" + name + "\u2069";
}

/* The seats' names as one list in the page's language ("Sara، Omar Ali"), each isolated:
   the one way a sentence names several seats. */
export function seatNames(seats) {
  return seats.map((seat) => isolated(seatName(seat))).join(t("list_sep"));
}

export function nameEl(seat, extra) {
  const s = st.table && st.table.seats[seat];
  return el("span", { class: "name", dir: "auto", text: seatName(seat) },
    s && s.kind === "bot" ? botBadge(s.bot) : null, extra || null);
}

/* A seat's rating (the table's family; a bot's fixed one: the ratings app), or null. */
export function ratingEl(seat) {
  const s = st.table && st.table.seats[seat];
  if (!s || s.rating === null || s.rating === undefined) return null;
  return el("span", { class: "rating", dir: "ltr", title: t("rating_title"), "data-testid": "rating-" + seat,
    text: String(s.rating) });
}

/* Where a seat sits on the felt, seen from the viewer's seat (a spectator sees from seat 0):
   own seat at the bottom, partner across at the top, the next seat in play order on the right
   (play goes to the right: docs/rules.md, Clarifications, "Play direction"), the previous on the left.
   The felt is a picture of a table, so it is not mirrored in right-to-left languages. */
export function position(seat) {
  const me = st.mySeat === null || st.mySeat === undefined ? 0 : st.mySeat;
  return ["bottom", "right", "top", "left"][(seat - me + 4) % 4];
}

export function partnership() {
  return Boolean(st.table && st.table.partnership);  /* the server's (Options.partnership) */
}

export function notice(text, kind) {
  const box = $("#notice");
  box.replaceChildren(...T.messageNodes(text || "")); // "/wallet/" in a message as a link
  box.className = "notice" + (text ? " " + (kind || "error") : "");
  box.hidden = !text;
}

export function legal() {
  return (st.view && st.view.legal) || [];
}

/* True when `box` already shows what `key` describes: then it is left alone, so a button
   is not rebuilt under the player's finger by an unrelated update. */
export function unchanged(box, key) {
  const sig = JSON.stringify(key);
  if (box.dataset.sig === sig) return true;
  box.dataset.sig = sig;
  return false;
}
