/* The table page's presence marks: a seat whose player missed two turns in a row is "away"
   (the seat's public info in the table state, "away": true; the server then plays its
   default action at once); the returning player is told what happened while they were away,
   until their next action (st.actions: they are playing again) or for 20 s at most.
   Drawn on the seat boxes that felt.js renders (after it). An ES module of the table page
   (no build step): main.js starts it. */

import { gettext as _ } from "../i18n.js";
import { $, T, el, notice, root, st } from "./state.js";

let wasAway = false;
let welcome = null; // the welcome back shown: {actions: st.actions then, timer}; null: not shown

const WELCOME_MS = 20000;

function endWelcome(line) {
  if (!welcome) return;
  clearTimeout(welcome.timer);
  welcome = null;
  if (line.classList.contains("info")) line.hidden = true;
}

export function renderAway() {
  const t = st.table;
  if (!t) return;
  // Away matters while the match is played: once it ends, no mark and no notice (the seats
  // keep their last mark in the state).
  const playing = t.status === "playing";
  for (let seat = 0; seat < 4; seat++) {
    const box = root.querySelector(".seat-box[data-seat='" + seat + "']");
    if (!box) continue;
    const away = playing && Boolean(t.seats[seat] && t.seats[seat].away);
    box.classList.toggle("away", away);
    const head = box.querySelector(".seat-head");
    const mark = box.querySelector(".away-mark");
    if (away && !mark && head) {
      head.append(el("span", { class: "badge away-mark", "data-testid": "away-" + seat,
        title: _("Missed two turns in a row: their turns are played at once by default"), text: _("away") }));
    } else if (!away && mark) {
      mark.remove();
    }
  }
  const me = st.mySeat;
  const mine = playing && me !== null && me !== undefined && Boolean(t.seats[me] && t.seats[me].away);
  const line = $("#away-notice");
  if (!playing) {
    endWelcome(line);
    line.hidden = true;
    wasAway = false;
    return;
  }
  if (mine) {
    endWelcome(line);
    if (!line.querySelector("[data-testid=come-back]")) {
      // POST /api/tables/{id}/back/ (games.services.presence.come_back): the mark goes at once.
      const back = el("button", { type: "button", class: "primary", "data-testid": "come-back",
        text: _("I'm back") });
      back.addEventListener("click", async () => {
        back.disabled = true;
        try {
          await T.api("POST", "/api/tables/" + t.id + "/back/", {});
        } catch (err) {
          back.disabled = false;
          notice(err.message);
        }
      });
      line.replaceChildren(_("You missed two turns in a row, so you are marked away: your turns are played at once with the default move. Make your next move yourself, or press the button, to come back.") + " ", back);
    }
    line.className = "notice error away-notice";
    line.hidden = false;
  } else if (wasAway) {
    line.textContent = _("Welcome back: while you were away your turns were played with the default move.");
    line.className = "notice info away-notice";
    line.hidden = false;
    welcome = { actions: st.actions, timer: setTimeout(() => endWelcome(line), WELCOME_MS) };
  } else if (welcome && st.actions > welcome.actions) {
    endWelcome(line); // back and playing: the news is old
  }
  wasAway = mine;
  if (!mine && line.hidden === false && !line.classList.contains("info")) line.hidden = true;
}
