/* The table page's felt: the four seats, the trick or the layout, the last trick.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { formatNumber, interpolate, ngettext } from "../i18n.js";
import { $, T, el, nameEl, partnership, position, st } from "./state.js";

export function renderSeats() {
  const v = st.view;
  const toAct = v ? v.to_act || [] : [];
  for (let seat = 0; seat < 4; seat++) {
    const box = $(".seat-box.pos-" + position(seat));
    box.dataset.seat = String(seat);
    box.classList.toggle("to-act", toAct.includes(seat));
    box.classList.toggle("me", seat === st.mySeat);
    box.classList.toggle("owner", v && v.owner === seat);
    const head = el("div", { class: "seat-head" }, nameEl(seat));
    if (v && v.owner === seat) head.append(el("span", { class: "badge owner", text: "owner" }));
    if (partnership()) head.append(el("span", { class: "badge team", text: seat % 2 ? "B" : "A" }));
    const facts = el("div", { class: "seat-facts" });
    if (v) {
      facts.append(el("span", { class: "total", title: "match total", "data-testid": "total-" + seat,
        text: String(v.totals[String(seat)]) }));
      if (v.deal_scores) facts.append(el("span", { class: "deal-score", title: "this deal",
        text: "deal " + v.deal_scores[String(seat)] }));
      if (v.tricks_taken) facts.append(el("span", { title: "tricks taken",
        text: interpolate(ngettext("%s trick", "%s tricks", v.tricks_taken[String(seat)]),
          [formatNumber(v.tricks_taken[String(seat)])]) }));
      if (v.hand_counts && seat !== st.mySeat) facts.append(el("span", { class: "count",
        title: "cards in hand", text: interpolate(ngettext("%s card", "%s cards", v.hand_counts[String(seat)]),
          [formatNumber(v.hand_counts[String(seat)])]) }));
      if (v.out && v.out.includes(seat)) facts.append(el("span", { class: "badge out",
        text: "out #" + (v.out.indexOf(seat) + 1) }));
      if (toAct.includes(seat)) facts.append(el("span", { class: "clock", "data-clock": "1" }));
    }
    const shownRow = el("div", { class: "shown" });
    const shown = (v && v.shown && v.shown[String(seat)]) || [];
    const doubled = new Set((v && v.doubles && v.doubles[String(seat)]) || []);
    for (const code of T.sortHand(shown)) {
      const c = T.cardEl(code, { small: true });
      if (doubled.has(code)) {
        c.classList.add("doubled");
        c.title = "doubled";
      }
      shownRow.append(c);
    }
    if (doubled.size) {
      shownRow.append(el("span", { class: "badge double" }, T.bilingual("terms", "double"),
        " " + Array.from(doubled).map(T.cardLabel).join(" ")));
    }
    box.replaceChildren(head, facts, shownRow);
  }
}

function trickCards(trick, cls) {
  const wrap = el("div", { class: cls });
  if (!trick) return wrap;
  for (const { seat, card } of trick.cards) {
    const c = T.cardEl(card);
    c.classList.add("at-" + position(seat));
    if (trick.taker === seat) c.classList.add("taker");
    wrap.append(c);
  }
  return wrap;
}

export function renderCenter() {
  const v = st.view;
  const center = $("#center");
  center.replaceChildren();
  if (!v) {
    center.append(el("p", { class: "waiting", text: st.table && st.table.status === "open"
      ? "Waiting for four players." : "Waiting for the deal." }));
    return;
  }
  if (v.layout) {
    const rows = el("div", { class: "layout", "data-testid": "layout" });
    for (const suit of ["S", "H", "C", "D"]) {
      const row = v.layout[suit];
      const line = el("div", { class: "row", dataset: { suit } },
        el("span", { class: "row-suit" + (suit === "H" || suit === "D" ? " red" : ""), text: T.SUIT_SYMBOL[suit] }));
      if (!row) {
        line.append(el("span", { class: "closed", text: "needs the jack" }));
      } else {
        const ranks = T.ranks();
        const lo = ranks.indexOf(row.low[0]);
        const hi = ranks.indexOf(row.high[0]);
        const cards = el("span", { class: "row-cards" });
        for (let r = lo; r <= hi; r++) cards.append(T.cardEl(ranks[r] + suit, { small: true }));
        line.append(cards);
      }
      rows.append(line);
    }
    center.append(rows);
  } else {
    const trick = trickCards(v.trick, "trick");
    trick.dataset.testid = "trick";
    center.append(trick);
  }
  if (v.last_trick && !v.layout) {
    const last = el("div", { class: "last-trick" },
      el("span", { class: "label", text: "Last trick → " }), nameEl(v.last_trick.taker));
    const cards = el("div", { class: "mini" });
    for (const { card } of v.last_trick.cards) cards.append(T.cardEl(card, { small: true }));
    last.append(cards);
    center.append(last);
  }
}
