/* The table page's header: status, stake, the contract line.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, el, nameEl, st } from "./state.js";
import { TEXTS, num, t as text } from "./texts.js";

export function renderHeader() {
  const t = st.table;
  if (!t) return;
  $("#table-status").textContent = TEXTS["table_" + t.status] || t.status;
  $("#table-status").className = "badge status-" + t.status;
  const stake = $("#table-stake");
  const tournament = t.kind === "tournament" && /^tournament:(\d+)\//.exec(t.origin || "");
  if (tournament) {
    // A tournament's table: no stake of its own; back to its tournament's live page.
    stake.replaceChildren(el("a", { href: "/tournaments/" + tournament[1] + "/live/",
      text: text("tournament_table", { round: (/round:(\d+)/.exec(t.origin) || [])[1] || "?" }) }));
  } else {
    stake.textContent = t.stake ? text("stake", { money: T.formatMoney(t.stake) }) : text("casual");
  }
  $("#spectating").hidden = st.mySeat !== null && st.mySeat !== undefined;
}

export function contractLine() {
  const v = st.view;
  const line = $("#contract-line");
  line.replaceChildren();
  if (!v) return;
  line.append(el("span", { text: text("deal_line", { deal: num(Math.max(v.deal_number, 1)),
    deals: num(v.deals_per_match), kingdom: num(v.kingdom) }) + " " }),
    v.owner !== null ? nameEl(v.owner) : "—");
  if (v.contract) {
    line.append(el("span", { text: " · " }), el("strong", { "data-testid": "contract" }, T.bilingual("contracts", v.contract)));
  }
}
