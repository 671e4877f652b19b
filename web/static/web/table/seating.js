/* The table page's seating panel before the match: sit, leave, seat a bot.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, cfg, el, nameEl, partnership, st } from "./state.js";
import { tableCall } from "./server.js";

export function renderSeating() {
  const box = $("#seating");
  const t = st.table;
  box.hidden = !t || t.status !== "open";
  if (box.hidden) return;
  const list = $("#seat-list");
  list.replaceChildren();
  const mine = t.seats.some((s) => s.is_me);
  const isCreator = cfg.userId && t.created_by && String(t.created_by.id) === cfg.userId;
  t.seats.forEach((s, i) => {
    const li = el("li", { class: "seat-row", dataset: { seat: String(i) } },
      el("span", { class: "seat-no", text: "Seat " + (i + 1) + (partnership() ? (i % 2 ? " · team B" : " · team A") : "") }));
    if (s.kind) {
      li.append(nameEl(i));
      if (s.staked) li.append(el("span", { class: "staked", text: "staked " + T.formatMoney(s.staked) }));
      if (s.is_me) {
        li.append(el("button", { type: "button", class: "secondary", "data-testid": "leave",
          text: "Leave", onclick: () => tableCall(cfg.leaveUrl, {}) }));
      }
    } else {
      li.append(el("span", { class: "empty", text: "empty" }));
      if (!mine) {
        li.append(el("button", { type: "button", class: "primary", "data-testid": "sit-" + i,
          text: t.stake ? "Sit · stake " + T.formatMoney(t.stake) : "Sit",
          onclick: () => sit(i) }));
      }
      if (isCreator) {
        li.append(el("button", { type: "button", class: "secondary", "data-testid": "bot-" + i,
          text: "Seat a bot", onclick: () => tableCall(cfg.botsUrl, { seat: i, bot: "rules" }) }));
      }
    }
    list.append(li);
  });
  $("#seed-box").hidden = mine || cfg.authenticated !== "1";
  $("#login-to-sit").hidden = cfg.authenticated === "1";
}

function sit(seat) {
  const input = $("#client-seed");
  let seed = input.value.trim();
  if (!seed) {
    seed = T.randomHex(16);
    input.value = seed;
  }
  const shown = $("#seed-used");
  shown.textContent = seed;
  tableCall(cfg.seatsUrl, { seat, client_seed: seed });
}
