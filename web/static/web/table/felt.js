/* The table page's felt: the four seats around the trick (by position from the viewer,
   state.js's position), the trick or the Trix layout, the last trick; the moves' animations
   (a card into the trick, a taken trick to its taker; CSS, none with prefers-reduced-motion)
   and my own card shown in the trick before the server has it (st.pending, server.js).
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { formatNumber, interpolate, ngettext } from "../i18n.js";
import { $, T, cfg, el, nameEl, partnership, position, ratingEl, st } from "./state.js";
import { num, signedNum, t, tn } from "./texts.js";

export function renderSeats() {
  const v = st.view;
  const toAct = v ? v.to_act || [] : [];
  for (let seat = 0; seat < 4; seat++) {
    const box = $(".seat-box.pos-" + position(seat));
    box.dataset.seat = String(seat);
    box.classList.toggle("to-act", toAct.includes(seat));
    box.classList.toggle("me", seat === st.mySeat);
    box.classList.toggle("owner", v && v.owner === seat);
    const head = el("div", { class: "seat-head" }, nameEl(seat), ratingEl(seat));
    if (v && v.owner === seat) head.append(el("span", { class: "badge owner", text: t("owner") }));
    if (partnership()) head.append(el("span", { class: "badge team", text: t(seat % 2 ? "team_b" : "team_a") }));
    const facts = el("div", { class: "seat-facts" });
    if (v) {
      const key = String(seat);
      facts.append(el("span", { class: "total", title: t("match_total"), "data-testid": "total-" + seat,
        text: num(v.totals[key]) }));
      if (v.deal_scores) facts.append(el("span", { class: "deal-score", title: t("this_deal_title"),
        text: t("deal_score", { score: signedNum(v.deal_scores[key]) }) }));
      if (v.tricks_taken) facts.append(el("span", { class: "tricks", title: t("tricks_taken"),
        text: tn("tricks", v.tricks_taken[key]) }));
      if (v.hand_counts && seat !== st.mySeat) facts.append(el("span", { class: "count",
        title: t("cards_in_hand"), text: tn("cards", v.hand_counts[key]) }));
      if (v.out && v.out.includes(seat)) facts.append(el("span", { class: "badge out",
        text: t("out_place", { place: num(v.out.indexOf(seat) + 1) }) }));
      if (toAct.includes(seat)) facts.append(el("span", { class: "clock", "data-clock": "1" }));
    }
    const shownRow = el("div", { class: "shown" });
    const shown = (v && v.shown && v.shown[String(seat)]) || [];
    const doubled = new Set((v && v.doubles && v.doubles[String(seat)]) || []);
    for (const code of T.sortHand(shown)) {
      const c = T.cardEl(code, { small: true });
      if (doubled.has(code)) {
        c.classList.add("doubled");
        c.title = t("doubled");
      }
      shownRow.append(c);
    }
    if (doubled.size) {
      shownRow.append(el("span", { class: "badge double" }, T.bilingual("terms", "double"),
        " " + Array.from(doubled).map((code) => T.ltr(T.cardLabel(code))).join(" ")));
    }
    box.replaceChildren(head, facts, shownRow);
  }
}

/* What the felt showed last, so that only a change animates (nothing on the first render). */
const seen = { ready: false, trick: new Set(), lastTrick: null };

function trickKey(trick) {
  return trick ? trick.cards.map((c) => c.seat + c.card).join(",") : "";
}

function trickCard({ seat, card }, cls) {
  const c = T.cardEl(card);
  c.classList.add("at-" + position(seat));
  c.dataset.seat = String(seat);
  if (cls) c.classList.add(...cls.split(" "));
  return c;
}

/* The cards on the table now: the server's trick, plus my pending card (faded until the
   server's next version has it). A card not shown before slides in from its seat. */
function currentTrick(v) {
  const wrap = el("div", { class: "trick", "data-testid": "trick", role: "group", "aria-label": t("trick_label") });
  const cards = ((v.trick && v.trick.cards) || []).slice();
  const p = st.pending;
  const pendingHere = p && !cards.some((c) => c.card === p.card);
  if (pendingHere) cards.push({ seat: p.seat, card: p.card });
  const now = new Set();
  for (const played of cards) {
    const id = played.seat + played.card;
    now.add(id);
    const fresh = seen.ready && !seen.trick.has(id);
    const pending = pendingHere && played.card === p.card;
    const c = trickCard(played, (fresh ? "enter" : "") + (pending ? " pending" : ""));
    if (pending) c.dataset.testid = "pending-card";
    wrap.append(c);
  }
  seen.trick = now;
  return wrap;
}

/* A trick just taken: its four cards where they lay for GATHER_PAUSE s, then gathered towards
   the taker (site.css's .trick.collect, .25 s). The felt is drawn again on every change (a bot
   leads the next trick ~0.6 s later): the gathering is then drawn again where it had got to
   (a negative animation-delay), not started over. */
const GATHER_PAUSE = 0.3;
const GATHER_END = GATHER_PAUSE + 0.25;
let gather = null; // {key, last, before: the cards on the table before it was taken, start}

function collecting(v) {
  const last = v.last_trick;
  const key = last ? (v.deal_number || 0) + ":" + trickKey(last) : null;
  if (seen.ready && key && key !== seen.lastTrick) {
    gather = { key, last, before: seen.trick, start: performance.now() };
  }
  seen.lastTrick = key;
  if (!gather || gather.key !== key) return null;
  const elapsed = (performance.now() - gather.start) / 1000;
  if (elapsed >= GATHER_END) {
    gather = null;
    return null;
  }
  const wrap = el("div", { class: "trick collect to-" + position(last.taker), "aria-hidden": "true" });
  wrap.style.animationDelay = (GATHER_PAUSE - elapsed).toFixed(3) + "s";
  for (const played of gather.last.cards) {
    // the card that completed the trick was not on the table yet: it slides in first
    const c = trickCard(played, gather.before.has(played.seat + played.card) ? "" : "enter");
    c.style.animationDelay = (-elapsed).toFixed(3) + "s";
    wrap.append(c);
  }
  wrap.addEventListener("animationend", (e) => {
    if (e.target === wrap) {
      wrap.remove();
      gather = null;
    }
  });
  return wrap;
}

/* The Trix layout: one row a suit, one column a rank (2 to A), so every card's rank shows
   and the jacks line up. */
function layout(v) {
  const ranks = T.ranks();
  const rows = el("div", { class: "layout", "data-testid": "layout", role: "group", "aria-label": t("layout_label") });
  for (const suit of ["S", "H", "C", "D"]) {
    const row = v.layout[suit];
    const line = el("div", { class: "row", dataset: { suit } },
      el("span", { class: "row-suit" + (suit === "H" || suit === "D" ? " red" : ""), text: T.SUIT_SYMBOL[suit] }));
    if (!row) {
      line.append(el("span", { class: "closed", text: t("needs_jack") }));
    } else {
      const lo = ranks.indexOf(row.low[0]);
      const hi = ranks.indexOf(row.high[0]);
      for (let r = lo; r <= hi; r++) {
        const c = T.cardEl(ranks[r] + suit, { small: true });
        c.style.gridColumn = String(r + 2); // column 1 is the suit
        line.append(c);
      }
    }
    rows.append(line);
  }
  return rows;
}

/* The felt's words before a deal: an open table waits for its free seats (a seat without a
   kind: no one sits there); a cancelled one waits for nothing, it says so and why (the
   page's reason, table.html's data-cancel-reason, when it has one). */
function waitingText() {
  const status = st.table && st.table.status;
  if (status === "open") return tn("waiting_players", st.table.seats.filter((s) => !s.kind).length);
  if (status === "cancelled") {
    return cfg.cancelReason ? t("cancelled_because", { reason: cfg.cancelReason }) : t("status_cancelled");
  }
  return t("waiting_deal");
}

export function renderCenter() {
  const v = st.view;
  const center = $("#center");
  const felt = center.parentElement;
  felt.classList.toggle("has-layout", Boolean(v && v.layout));
  center.replaceChildren();
  if (!v) {
    center.append(el("p", { class: "waiting", text: waitingText() }));
    seen.ready = false;
    return;
  }
  if (v.layout) {
    center.append(layout(v));
  } else {
    const area = el("div", { class: "trick-area" });
    const gather = collecting(v);
    area.append(currentTrick(v));
    if (gather) area.append(gather);
    center.append(area);
  }
  if (v.last_trick && !v.layout) {
    const last = el("div", { class: "last-trick" },
      el("span", { class: "label", text: t("last_trick") + " " }), nameEl(v.last_trick.taker));
    const cards = el("div", { class: "mini" });
    for (const { card } of v.last_trick.cards) cards.append(T.cardEl(card, { small: true }));
    last.append(cards);
    center.append(last);
  }
  seen.ready = true;
}

/* My pending card is out of my hand (controls.js draws the hand; this only hides that card,
   so a refused card comes back as it was). Called after the hand is drawn (render.js). */
export function markPendingInHand() {
  const code = st.pending && st.pending.card;
  for (const c of $("#hand").querySelectorAll(".card[data-card]")) {
    c.classList.toggle("played-out", c.dataset.card === code);
  }
}
