/* The table page's deal summary: when a deal ends, who took what (the scoring cards and
   tricks of each seat, or the layout's finishing order), the deal's points and the running
   totals of each seat and team, the contract and its owner, the verify link and this
   browser's own check. From the view's deal_summary (games.engine.observation.deal_summary);
   the page keeps the newest one shown until the next deal's contract is announced, and at
   least SUMMARY_MIN_MS (the next deal is dealt about 2 s after the last one ends, too soon to
   read it) unless the seat must act in that deal, or until the player closes it. An ES module of the table page (no build step): main.js starts it. */

import { gettext as _, formatNumber, interpolate, ngettext } from "../i18n.js";
import { verifyDealUrl } from "./scores.js";
import { num } from "./texts.js";
import { $, T, el, nameEl, partnership, st } from "./state.js";

/* The cards that score in each contract (docs/rules.md): the K♥, the queens, the diamonds. */
function scoring(contract, code) {
  const king = code === "KH";
  const queen = code[0] === "Q";
  const diamond = code[1] === "D";
  if (contract === "king") return king;
  if (contract === "queens") return queen;
  if (contract === "diamonds") return diamond;
  if (contract === "complex") return king || queen || diamond;
  return false;
}

/* The trick contracts whose tricks themselves score (ltoosh; complex counts them too). */
const TRICKS_SCORE = new Set(["ltoosh", "complex"]);

/* A deal's points with their sign ("+330", "-330"), isolated left to right on a right-to-left
   page: in Arabic the sign read after the number ("330-"). */
function signed(n) {
  return T.ltr((n > 0 ? "+" : "") + formatNumber(n));
}

/* "1st", "2nd" … of the layout's finishing order, in words of the page's language. */
function finishWord(i) {
  return [_("first out"), _("second out"), _("third out"), _("last")][i];
}

/* The shortest time a summary stays on screen, ms: the next deal follows the last one after
   about 2 s (TRIX_DEAL_PAUSE) and its contract may be announced at once (the kingdom's last). */
export const SUMMARY_MIN_MS = 15000;
let later = null;

/* Remember the newest finished deal; forget it once the next deal's contract is announced
   and it was shown SUMMARY_MIN_MS. */
export function noteSummary() {
  const v = st.view;
  if (v && v.deal_summary) {
    if (!st.summary || st.summary.deal_number !== v.deal_summary.deal_number) {
      st.summaryClosed = false;
      st.summaryAt = Date.now();
    }
    st.summary = v.deal_summary;
  } else if (st.summary && v && v.deal_number > st.summary.deal_number) {
    // Gone at once when the seat must act in the next deal, choosing its contract included:
    // the controls and the hand come first (on a phone the summary would push them down).
    const mine = st.mySeat !== null && st.mySeat !== undefined && (v.to_act || []).includes(st.mySeat);
    const left = st.summaryAt + SUMMARY_MIN_MS - Date.now();
    if (mine || (v.contract && left <= 0)) st.summary = null;
    else if (v.contract && !later) later = setTimeout(() => { later = null; renderDealSummary(); }, left + 50);
  }
}

function takenCell(s, seat) {
  const cell = el("div", { class: "taken" });
  const td = el("td", {}, cell);
  if (s.out) {
    const i = s.out.indexOf(seat);
    cell.append(i >= 0 ? finishWord(i) : "—");
    return td;
  }
  const cards = ((s.captured && s.captured[String(seat)]) || []).filter((c) => scoring(s.contract, c));
  for (const code of T.sortHand(cards)) {
    const c = T.cardEl(code, { small: true });
    const doubler = Object.keys(s.doubles || {}).find((k) => (s.doubles[k] || []).includes(code));
    if (doubler !== undefined) {
      c.classList.add("doubled");
      c.title = _("doubled");
    }
    cell.append(c);
  }
  const tricks = s.tricks ? s.tricks[String(seat)] : 0;
  if (TRICKS_SCORE.has(s.contract) || !cards.length) {
    cell.append(el("span", { class: "tricks", text: interpolate(
      ngettext("%s trick", "%s tricks", tricks), [formatNumber(tricks)]) }));
  }
  return td;
}

function checkLine(deal) {
  const c = st.checks[deal];
  if (!c) return null;
  const words = {
    verified: _("Your browser verified this deal against the commitment you saw before sitting."),
    checking: _("Your browser is checking this deal…"),
    mismatch: _("This deal does NOT match what your browser saved: see the checks below."),
    "seen-no-hand": _("The seed matches, but this browser did not see your cards of this deal."),
    unavailable: _("This browser cannot check deals here (no Web Crypto on plain http)."),
    failed: _("Your browser could not load this deal's record to check it."),
    "log-failed": _("Your browser could not check the site's log for this deal, so it is not verified: see the checks below."),
  };
  return el("p", { class: "summary-check " + c.status, "data-testid": "summary-check",
    text: words[c.status] || c.status });
}

export function renderDealSummary() {
  noteSummary();
  const box = $("#deal-summary");
  const s = st.summary;
  const key = s ? JSON.stringify([s, st.checks[s.deal_number], st.dealIds[s.deal_number], st.summaryClosed,
    st.table && st.table.seats.map((x) => x.name)]) : "";
  if (box.dataset.sig === key) return;
  box.dataset.sig = key;
  box.replaceChildren();
  box.hidden = !s || st.summaryClosed;
  if (box.hidden) return;
  const contract = T.bilingual("contracts", s.contract);
  box.append(el("div", { class: "summary-head" },
    el("h2", {}, interpolate(_("Deal %s is over"), [formatNumber(s.deal_number)]), " · ", contract),
    el("button", { type: "button", class: "secondary close", "data-testid": "summary-close",
      "aria-label": _("Close the deal summary"), text: "×",
      onclick: () => { st.summaryClosed = true; renderDealSummary(); } })));
  box.append(el("p", { class: "summary-owner" }, _("Contract chosen by") + " ", nameEl(s.owner)));
  const table = el("table", { class: "summary-table", "data-testid": "summary-table" });
  table.append(el("thead", {}, el("tr", {},
    el("th", { text: _("Seat") }),
    el("th", { text: s.out ? _("Finished") : _("Took") }),
    el("th", { class: "num", text: _("This deal") }),
    el("th", { class: "num", text: _("Total") }))));
  const body = el("tbody");
  for (let seat = 0; seat < 4; seat++) {
    body.append(el("tr", { class: seat === st.mySeat ? "me" : "", "data-testid": "summary-seat-" + seat },
      el("td", {}, nameEl(seat)),
      takenCell(s, seat),
      el("td", { class: "num points", text: signed(s.scores[String(seat)]) }),
      el("td", { class: "num", text: num(s.totals[String(seat)]) })));
  }
  table.append(body);
  box.append(table);
  if (partnership()) {
    const team = (a, b) => s.scores[String(a)] + s.scores[String(b)];
    const total = (a, b) => s.totals[String(a)] + s.totals[String(b)];
    box.append(el("p", { class: "summary-teams", "data-testid": "summary-teams" },
      interpolate(_("Team A (seats 1 + 3): %(deal)s this deal, %(total)s in all"),
        { deal: signed(team(0, 2)), total: num(total(0, 2)) }, true),
      el("br"),
      interpolate(_("Team B (seats 2 + 4): %(deal)s this deal, %(total)s in all"),
        { deal: signed(team(1, 3)), total: num(total(1, 3)) }, true)));
  }
  const link = el("a", { href: verifyDealUrl({ deal: s.deal_number, deal_id: st.dealIds[s.deal_number] }),
    "data-testid": "summary-verify", text: _("Verify this deal's shuffle") });
  box.append(el("p", { class: "summary-verify" }, link));
  const check = checkLine(s.deal_number);
  if (check) box.append(check);
}
