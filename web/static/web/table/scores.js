/* The table page's scores panel: totals, teams, the kingdom's contracts, the deals.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, cfg, el, nameEl, seatName, st } from "./state.js";

function verifyDealUrl(d) {
  if (d.deal_id) return cfg.verifyDealUrl.replace(/0\/$/, d.deal_id + "/");
  return cfg.verifyMatchUrl + "#deal-" + d.deal;
}

export function renderScores() {
  const v = st.view;
  const box = $("#scores");
  box.replaceChildren();
  if (!v) return;
  const table = el("table", { class: "scores", "data-testid": "scores" });
  const head = el("tr", {}, el("th", { text: "Seat" }), el("th", { text: "Total" }));
  if (v.deal_scores) head.append(el("th", { text: "This deal" }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (let s = 0; s < 4; s++) {
    const row = el("tr", { class: s === st.mySeat ? "me" : "" }, el("td", {}, nameEl(s)),
      el("td", { class: "num", text: String(v.totals[String(s)]) }));
    if (v.deal_scores) row.append(el("td", { class: "num", text: String(v.deal_scores[String(s)]) }));
    body.append(row);
  }
  table.append(body);
  box.append(el("h2", { text: "Scores" }), table);
  if (v.teams) {
    const team = (label, a, b, key) => el("li", {}, label + " (",
      nameEl(a), " + ", nameEl(b), "): ", el("strong", { text: String(v.teams[key]) }));
    box.append(el("ul", { class: "teams", "data-testid": "teams" },
      team("Team A", 0, 2, "0+2"), team("Team B", 1, 3, "1+3")));
  }
  const kingdom = el("div", { class: "kingdom" });
  kingdom.append(el("h3", {}, "Kingdom " + v.kingdom + " of 4" + (v.owner !== null ? " · " : ""),
    v.owner !== null ? nameEl(v.owner) : ""));
  const ul = el("ul", { class: "contracts" });
  const played = new Set(v.played || []);
  const all = (v.played || []).concat((v.remaining || []).filter((c) => !played.has(c)));
  for (const c of all) {
    const now = c === v.contract && v.phase !== "over" && v.phase !== "deal";
    const state = now ? "now" : played.has(c) ? "played" : "to play";
    ul.append(el("li", { class: state.replace(" ", "-"), title: state },
      now ? "▶ " : played.has(c) ? "✓ " : "○ ", T.bilingual("contracts", c)));
  }
  kingdom.append(ul);
  box.append(kingdom);
  if (st.deals.length) {
    const list = el("table", { class: "deals", "data-testid": "deals" });
    list.append(el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: "Contract" }),
      ...[0, 1, 2, 3].map((s) => el("th", { class: "num" }, el("span", { class: "name", dir: "auto", text: seatName(s) }))),
      el("th", { text: "" }))));
    const tb = el("tbody");
    for (const d of st.deals) {
      tb.append(el("tr", {}, el("td", { text: String(d.deal) }),
        el("td", {}, T.bilingual("contracts", d.contract)),
        ...[0, 1, 2, 3].map((s) => el("td", { class: "num", text: String(d.scores[String(s)]) })),
        el("td", {}, el("a", { href: verifyDealUrl(d), class: "verify", "data-testid": "verify-deal" },
          T.bilingual("terms", "verify")))));
    }
    list.append(tb);
    box.append(el("h3", { text: "Deals" }), list);
  }
}
