/* The table page's result panel: placements, the winner, the payout.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, cfg, el, nameEl, seatName, st } from "./state.js";

/* The pot's settlement from the ledger (web's payout endpoint), once the table settled. */
function payoutLines() {
  if (!st.payout || !st.payout.payouts) return [];
  return st.payout.payouts.map((p) => {
    const seat = st.table.seats.findIndex((s) => s.user_id === p.user_id);
    return [seat >= 0 ? seatName(seat) : p.name, p.amount];
  });
}

export function renderResult() {
  const box = $("#result");
  const v = st.view;
  const t = st.table;
  const r = (v && v.result) || (t && t.result && t.result.match) || null;
  box.hidden = !r && !(t && t.status === "finished");
  box.replaceChildren();
  if (box.hidden) return;
  box.append(el("h2", { text: "Match result" }));
  if (r) {
    const ranking = [0, 1, 2, 3].sort((a, b) => r.placements[String(a)] - r.placements[String(b)]);
    const ol = el("ul", { class: "placements" });
    for (const s of ranking) {
      ol.append(el("li", {}, el("span", { class: "place", text: "#" + r.placements[String(s)] + " " }),
        nameEl(s), el("span", { class: "num", text: " " + r.scores[String(s)] })));
    }
    box.append(ol);
    if (r.teams) {
      box.append(el("p", { "data-testid": "winner", text: r.draw
        ? "Draw: " + r.teams["0+2"] + " to " + r.teams["1+3"] + "."
        : (r.winner === "0+2" ? "Team A wins, " + r.teams["0+2"] + " to " + r.teams["1+3"]
          : "Team B wins, " + r.teams["1+3"] + " to " + r.teams["0+2"]) + "." }));
    }
    if (r.forfeit !== null && r.forfeit !== undefined) {
      box.append(el("p", { text: seatName(r.forfeit) + " left the table: forfeit." }));
    }
  }
  const pay = payoutLines();
  if (t && t.stake) {
    const pot = el("div", { class: "payout", "data-testid": "payout" },
      el("h3", { text: "Payout" }));
    if (pay.length) {
      const ul = el("ul");
      for (const [who, amount] of pay) ul.append(el("li", {}, el("span", { dir: "auto", text: who }), ": " + T.formatMoney(amount)));
      pot.append(ul);
    } else {
      pot.append(el("p", { text: t.status === "finished" ? "Settling the pot…" : "Paid out when the match ends." }));
    }
    if (st.payout && st.payout.pot) {
      pot.append(el("p", { class: "help", text: "Pot " + T.formatMoney(st.payout.pot) +
        (st.payout.house_fee ? ", house fee " + T.formatMoney(st.payout.house_fee) : "") + "." }));
    }
    box.append(pot);
  } else if (t) {
    box.append(el("p", { "data-testid": "payout", text: "Casual table: no stakes, no payout." }));
  }
  box.append(el("p", {}, el("a", { href: cfg.verifyMatchUrl, "data-testid": "verify-match" },
    "Verify every shuffle of this match · ", el("span", { lang: "ar", dir: "rtl", text: "تحقق" }))));
}
