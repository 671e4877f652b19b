/* The table page's controls: the status line, the action buttons, the hand and the clock.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, el, isolated, legal, root, seatName, seatNames, st, unchanged } from "./state.js";
import { selectDoubles, send } from "./server.js";
import { num, t as text } from "./texts.js";

function statusText() {
  const v = st.view;
  const t = st.table;
  if (!t) return text("status_loading");
  if (t.status === "open") return text("status_open");
  if (t.status === "cancelled") return text("status_cancelled");
  if (!v) return text("status_dealing");
  if (v.phase === "over") return text("status_over");
  const toAct = v.to_act || [];
  const mine = st.mySeat !== null && toAct.includes(st.mySeat);
  if (v.phase === "choose") {
    return mine ? text("status_choose_mine") : text("status_choose", { name: isolated(seatName(v.owner)) });
  }
  if (v.phase === "double") {
    if (mine) return text("status_double_mine");
    // Only holders asked: nobody is told who they are (view.doubling names no other seat).
    if (v.doubling && v.doubling.asked === "holders") return text("status_double_holders");
    return text("status_double", { names: seatNames(toAct) });
  }
  if (v.phase === "play") {
    if (mine) {
      return legal().some((a) => a.type === "pass") ? text("status_pass_mine") : text("status_play_mine");
    }
    return toAct.length ? text("status_play", { name: isolated(seatName(toAct[0])) }) : "";
  }
  return "";
}

/* The doubling pick shown: reset for a new doubling, and taken from the server when it shows
   another pick of this seat's (view.doubling.selected: made in another tab or device). */
function syncPick() {
  const v = st.view;
  const d = v && v.phase === "double" && v.doubling;
  if (!d) return;
  const key = v.deal_number + ":" + v.contract;
  const pick = JSON.stringify((d.selected || []).slice().sort());
  if (st.doublingKey !== key || (d.selected && st.serverPick !== pick)) {
    st.doublingKey = key;
    st.serverPick = pick;
    st.selected = new Set(d.selected || []);
  }
}

export function renderActions() {
  const v = st.view;
  const panel = $("#actions");
  syncPick();
  $("#status").textContent = statusText();
  if (unchanged(panel, [st.mySeat, v && v.phase, legal(), Array.from(st.selected),
    v && v.doubling && v.doubling.mine, v && v.deal_number])) return;
  panel.replaceChildren();
  if (!v || st.mySeat === null) return;
  const acts = legal();
  const contracts = acts.filter((a) => a.type === "contract");
  if (contracts.length) {
    const group = el("div", { class: "choices", role: "group", "aria-label": text("choose_contract") });
    for (const a of contracts) {
      group.append(el("button", { type: "button", class: "primary contract-choice",
        "data-contract": a.contract, onclick: () => send({ type: "contract", contract: a.contract }) },
        T.bilingual("contracts", a.contract)));
    }
    panel.append(group);
  }
  if (v.phase === "double" && v.doubling) {
    const d = v.doubling;
    if (acts.some((a) => a.type === "double")) {
      const doublable = d.doublable || [];
      const chosen = Array.from(st.selected).filter((c) => doublable.includes(c));
      panel.append(el("div", { class: "doubling" },
        el("p", { text: doublable.length
          ? text("double_hint", { cards: doublable.map(T.cardLabel).join(text("list_sep")) })
          : text("double_nothing") }),
        el("button", { type: "button", class: "primary", "data-testid": "ready",
          text: chosen.length ? text("ready_double", { cards: chosen.map(T.cardLabel).join(" ") }) : text("ready"),
          onclick: () => send({ type: "double", cards: chosen }) })));
    } else if (d.asked === "holders" && !(d.doublable || []).length) {
      panel.append(el("p", { text: text("double_nothing") }));
    } else if (d.mine) {
      panel.append(el("p", { text: d.mine.length
        ? text("you_doubled", { cards: d.mine.map(T.cardLabel).join(text("list_sep")) }) : text("you_ready") }));
    }
  }
  if (acts.some((a) => a.type === "pass")) {
    panel.append(el("button", { type: "button", class: "primary", "data-testid": "pass", text: text("pass"),
      onclick: () => send({ type: "pass" }) }));
  }
}

export function renderHand() {
  const v = st.view;
  const box = $("#hand");
  if (unchanged(box, [st.mySeat, v && v.hand, v && v.hand_face_down, v && v.hand_counts, legal(),
    v && v.phase, Array.from(st.selected), v && v.shown, v && v.doubles])) return;
  box.replaceChildren();
  box.hidden = st.mySeat === null || st.mySeat === undefined || !v ||
    (!v.hand_face_down && !(v.hand || []).length);
  if (box.hidden) return;
  if (v.hand_face_down) {
    const n = (v.hand_counts && v.hand_counts[String(st.mySeat)]) || 13;
    for (let i = 0; i < n; i++) box.append(T.backEl());
    box.append(el("p", { class: "hint", text: text("face_down") }));
    return;
  }
  const hand = v.hand || [];
  const acts = legal();
  const playable = new Set(acts.filter((a) => a.type === "play").map((a) => a.card));
  const doubling = v.phase === "double" && acts.some((a) => a.type === "double");
  const doublable = new Set(doubling && v.doubling ? v.doubling.doublable || [] : []);
  const shownMine = new Set((v.shown && v.shown[String(st.mySeat)]) || []);
  const doubledMine = new Set((v.doubles && v.doubles[String(st.mySeat)]) || []);
  // My turn to play: the cards the rules do not allow now are dimmed (and not buttons).
  const playing = acts.some((a) => a.type === "play");
  let lastSuit = null;
  for (const code of T.sortHand(hand)) {
    const clickable = playable.has(code) || doublable.has(code);
    const c = T.cardEl(code, { button: clickable });
    if (lastSuit && lastSuit !== code[1]) c.classList.add("suit-break");
    lastSuit = code[1];
    if (playable.has(code)) {
      c.classList.add("playable");
      c.addEventListener("click", () => send({ type: "play", card: code }));
    } else if (playing) {
      c.classList.add("unplayable");
      c.setAttribute("aria-disabled", "true");
    }
    if (doublable.has(code)) {
      c.classList.add("doublable");
      c.setAttribute("aria-pressed", st.selected.has(code) ? "true" : "false");
      if (st.selected.has(code)) c.classList.add("selected");
      c.addEventListener("click", () => {
        if (st.selected.has(code)) st.selected.delete(code);
        else st.selected.add(code);
        renderHand();
        renderActions();
        selectDoubles();
      });
    }
    if (shownMine.has(code)) c.classList.add("face-up");
    if (doubledMine.has(code)) c.classList.add("doubled");
    box.append(c);
  }
}

export function tick() {
  const clocks = root.querySelectorAll("[data-clock]");
  let left = null;
  if (st.deadline) left = Math.max(0, Math.ceil((st.deadline - (Date.now() + st.clockSkew)) / 1000));
  const shown = left === null ? "" : text("seconds", { s: num(left) });
  clocks.forEach((c) => (c.textContent = shown));
  const mine = $("#my-clock");
  const myTurn = st.view && st.mySeat !== null && (st.view.to_act || []).includes(st.mySeat);
  mine.textContent = myTurn && left !== null ? text("seconds_left", { s: num(left) }) : "";
}
