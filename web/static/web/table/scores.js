/* The table page's scores panel: totals, teams, the kingdom's contracts, the deals.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { $, T, cfg, el, nameEl, seatName, st } from "./state.js";
import { TEXTS, num, t as text } from "./texts.js";

export function verifyDealUrl(d) {
  if (d.deal_id) return cfg.verifyDealUrl.replace(/0\/$/, d.deal_id + "/");
  return cfg.verifyMatchUrl + "#deal-" + d.deal;
}

export function renderScores() {
  const v = st.view;
  const box = $("#scores");
  box.replaceChildren();
  box.hidden = !v; // before the start there is nothing to show: no empty "Scores" box
  if (!v) return;
  const table = el("table", { class: "scores", "data-testid": "scores" });
  const head = el("tr", {}, el("th", { text: text("seat_col") }), el("th", { class: "num", text: text("total_col") }));
  if (v.deal_scores) head.append(el("th", { class: "num", text: text("this_deal_col") }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (let s = 0; s < 4; s++) {
    const row = el("tr", { class: s === st.mySeat ? "me" : "" }, el("td", {}, nameEl(s)),
      el("td", { class: "num", text: num(v.totals[String(s)]) }));
    if (v.deal_scores) row.append(el("td", { class: "num", text: num(v.deal_scores[String(s)]) }));
    body.append(row);
  }
  table.append(body);
  box.append(el("h2", { text: text("scores") }), table);
  if (v.teams) {
    const team = (label, a, b, key) => el("li", {}, label + " (",
      nameEl(a), " + ", nameEl(b), "): ", el("strong", { text: num(v.teams[key]) }));
    box.append(el("ul", { class: "teams", "data-testid": "teams" },
      team(text("team_line_a"), 0, 2, "0+2"), team(text("team_line_b"), 1, 3, "1+3")));
  }
  const kingdom = el("div", { class: "kingdom" });
  kingdom.append(el("h3", {}, text("kingdom_of", { n: num(v.kingdom) }) + (v.owner !== null ? " · " : ""),
    v.owner !== null ? nameEl(v.owner) : ""));
  const ul = el("ul", { class: "contracts" });
  const played = new Set(v.played || []);
  const all = (v.played || []).concat((v.remaining || []).filter((c) => !played.has(c)));
  for (const c of all) {
    const now = c === v.contract && v.phase !== "over" && v.phase !== "deal";
    const state = now ? "now" : played.has(c) ? "played" : "to-play";
    ul.append(el("li", { class: state, title: text("contract_" + state.replace("-", "_")) },
      now ? "▶ " : played.has(c) ? "✓ " : "○ ", T.bilingual("contracts", c)));
  }
  kingdom.append(ul);
  box.append(kingdom);
  if (st.deals.length) {
    // Phone first: short name headers (the full name in the title), the verify link under
    // the contract, so seven narrow columns fit 390 px; the box scrolls if they do not.
    const list = el("table", { class: "deals", "data-testid": "deals" });
    list.append(el("thead", {}, el("tr", {}, el("th", { text: text("deal_col") }),
      el("th", { text: text("contract_col") }),
      ...[0, 1, 2, 3].map((s) => el("th", { class: "num", scope: "col", title: seatName(s) },
        el("span", { class: "name short", dir: "auto", text: seatName(s) }))))));
    const tb = el("tbody");
    for (const d of st.deals) {
      tb.append(el("tr", {}, el("td", { text: num(d.deal) }),
        el("td", { class: "contract" }, T.bilingual("contracts", d.contract),
          el("span", { class: "verify-line" }, el("a", { href: verifyDealUrl(d), class: "verify",
            "data-testid": "verify-deal", title: text("verify_deal_title", { deal: num(d.deal) }) },
          text("verify")), checkMark(d.deal))),
        ...[0, 1, 2, 3].map((s) => el("td", { class: "num", text: num(d.scores[String(s)]) }))));
    }
    list.append(tb);
    box.append(el("h3", { text: text("deals") }), el("div", { class: "deals-box" }, list));
  }
  const checks = browserChecks();
  if (checks) box.append(checks);
}

const MARK = { verified: "✓", mismatch: "✗", checking: "…", "log-failed": "!" };

function checkMark(deal) {
  const c = st.checks[deal];
  if (!c) return null;
  return el("span", { class: "check-mark " + c.status, "data-testid": "deal-mark-" + deal,
    title: TEXTS["check_" + c.status + "_short"] || c.status, text: " " + (MARK[c.status] || "?") });
}

/* This browser's own check of each finished deal (fairness.js, verify.js), one line each. */
function browserChecks() {
  const deals = Object.keys(st.checks).map(Number).sort((a, b) => a - b);
  if (!deals.length && !st.notSaved) return null;
  const wrap = el("div", { class: "browser-checks", "data-testid": "browser-checks" },
    el("h3", { text: text("checks_title") }), el("p", { class: "help", text: text("checks_help") }));
  if (st.notSaved) wrap.append(el("p", { class: "notice error", text: text("commitment_not_saved") }));
  if (st.logNotKept) {
    wrap.append(el("p", { class: "notice error", "data-testid": "log-not-kept", text: text("log_not_kept") }));
  }
  const ul = el("ul", { class: "deal-checks" });
  for (const deal of deals) {
    const c = st.checks[deal];
    const key = { verified: "check_verified", mismatch: "check_mismatch", checking: "check_checking",
      unavailable: "check_unavailable", failed: "check_failed", "seen-no-hand": "check_seen_no_hand",
      "log-failed": c.not_kept ? "check_log_not_kept" : "check_log_failed" }[c.status];
    const li = el("li", { class: "deal-check " + c.status, "data-testid": "deal-check-" + deal },
      el("span", { class: "mark", "aria-hidden": "true", text: (MARK[c.status] || "!") + " " }),
      text(key, { deal, error: c.error }));
    if (c.problems && c.problems.length) {
      const why = el("ul", { class: "problems" });
      for (const p of c.problems) why.append(el("li", { dir: "auto", text: text("problem_" + p.key, p) }));
      li.append(why);
    }
    if (c.deal_id) {
      li.append(" ", el("a", { href: verifyDealUrl({ deal, deal_id: c.deal_id }), "data-testid": "deal-check-link",
        text: text("verify_page") }));
    }
    ul.append(li);
  }
  wrap.append(ul);
  // Said only while no deal's check found a mismatch: a later deal may fail on this point.
  const signed = deals.some((d) => st.checks[d].status === "verified" && st.checks[d].signature === "valid");
  if (signed && !deals.some((d) => st.checks[d].status === "mismatch")) {
    wrap.append(el("p", { class: "help", "data-testid": "checks-signed", text: text("check_signed") }));
  }
  const logged = deals.filter((d) => st.checks[d].status !== "checking");
  if (logged.length && logged.every((d) => st.checks[d].log === "valid")) {
    wrap.append(el("p", { class: "help", "data-testid": "checks-logged", text: text("check_logged") }));
  }
  return wrap;
}
