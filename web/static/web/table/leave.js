/* The table page's Leave during the match, with its consequence in words and a confirmation
   (games/services/tables.py leave(): at a staked or tournament table a leaver forfeits: the
   match ends, the leaver ranks last, with the partner in partnership; at a free table a rules
   bot takes the seat over for the rest of the match), and what came of it: a 409 (another
   seat's forfeit already ends the match, or it is over) means the leave did not count.
   An ES module of the table page (no build step): main.js starts it. */

import { gettext as _, interpolate } from "../i18n.js";
import { $, T, cfg, el, notice, redraw, st, unchanged } from "./state.js";
import { refreshBalance } from "./server.js";

let asking = false;
let outcome = null; // {text, kind} after the answer

/* What leaving now does, in words: [consequence, button label]. */
export function consequence() {
  const t = st.table;
  const partner = t.partnership;
  if (t.kind === "casual") {
    return [_("Leaving now hands your seat to a bot, which plays the rest of the match for you. You cannot take the seat back."),
      _("Leave: a bot takes my seat")];
  }
  const rank = partner ? _("you and your partner rank last") : _("you rank last");
  if (t.kind === "tournament") {
    return [interpolate(_("Leaving now is a forfeit: the match ends and %s in this tournament round."), [rank]),
      _("Leave and forfeit")];
  }
  const stake = T.formatMoney(t.stake);
  const stakers = t.seats.filter((s) => s.staked > 0).length;
  if (stakers < 2) {
    return [interpolate(_("Leaving now is a forfeit: the match ends and %(rank)s. No other seat staked (bots never stake), so your stake of %(stake)s comes back."),
      { rank, stake }, true), _("Leave and forfeit")];
  }
  return [interpolate(_("Leaving now is a forfeit: the match ends, %(rank)s and you lose your stake of %(stake)s."),
    { rank, stake }, true), interpolate(_("Leave and forfeit %s"), [stake])];
}

let leaving = false; // a second click while the first is on its way is not sent

async function leave() {
  if (leaving) return;
  leaving = true;
  const forfeit = st.table.kind !== "casual";
  try {
    await T.api("POST", cfg.leaveUrl, {});
    outcome = { kind: "ok", text: forfeit ? _("You left: the match ends with your forfeit.")
      : _("You left: a bot plays your seat now.") };
    refreshBalance();
  } catch (err) {
    outcome = { kind: "error", text: err.status === 409
      ? interpolate(_("Your leave did not count: %s"), [err.message]) : err.message };
  }
  asking = false;
  leaving = false;
  notice(outcome.text, outcome.kind === "ok" ? "info" : "error");
  redraw.all();
}

export function renderLeave() {
  const box = $("#play-leave");
  const t = st.table;
  const seated = st.mySeat !== null && st.mySeat !== undefined;
  const show = Boolean(t && seated && t.status === "playing" && st.view && st.view.phase !== "over");
  if (unchanged(box, [show, asking, t && t.kind, t && t.stake, outcome && outcome.text])) return;
  box.replaceChildren();
  box.hidden = !show;
  if (!show) return;
  if (!asking) {
    box.append(el("button", { type: "button", class: "secondary leave", "data-testid": "leave-match",
      text: _("Leave the table…"), onclick: () => { asking = true; renderLeave(); $("[data-testid=leave-confirm]").focus(); } }));
    return;
  }
  const [words, label] = consequence();
  box.append(el("div", { class: "leave-confirm", role: "alertdialog", "aria-labelledby": "leave-words",
    "data-testid": "leave-dialog" },
    el("p", { id: "leave-words", "data-testid": "leave-consequence", text: words }),
    el("button", { type: "button", class: "danger", "data-testid": "leave-confirm", text: label, onclick: leave }),
    " ",
    el("button", { type: "button", class: "secondary", "data-testid": "leave-cancel", text: _("Stay"),
      onclick: () => { asking = false; renderLeave(); } })));
}
