/* The rematch on a finished table's page (GET/POST /api/tables/{id}/rematch/,
   games.services.rematch): a player proposes it (one table for the match, whoever asks
   first; the bots re-seated, each person's seat held for them until holds_until), every
   player's page shows it with each seat's answer, Take your seat (the new table's page sits
   there: the commitment is shown and kept before the seed goes), Decline, and Share: the
   invite link (../share.js: shared or copied, shown left to right).
   An ES module of the table page (no build step): result.js shows it, main.js starts it. */

import { gettext as _, formatNumber, interpolate, language, pgettext } from "../i18n.js";
import { linkEl, shareLink } from "../share.js";
import { T, cfg, el, redraw, st } from "./state.js";

const POLL_MS = 3000;

/* A time (ISO 8601) as a time of day for the page's language, e.g. "03:45". */
export function clock(iso) {
  return new Date(iso).toLocaleTimeString(language + "-u-nu-latn", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

const now = () => Date.now() + (st.clockSkew || 0);

/* Whether the page should ask again: a rematch may still be proposed, or its seats are
   still waiting for their people. */
function pending(r) {
  if (!r) return false;
  if (!r.rematch) return r.can_propose && r.open_until && now() < Date.parse(r.open_until);
  return r.rematch.status === "open" && r.rematch.seats.some((s) => s.answer === "waiting");
}

let following = false;

/* Follow the finished table's rematch while something may change (every 3 s). */
export async function followRematch() {
  if (following || !cfg.rematchUrl) return;
  following = true;
  try {
    do {
      try {
        st.rematch = await T.api("GET", cfg.rematchUrl);
      } catch (err) {
        return;
      }
      redraw.result();
      if (!pending(st.rematch)) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    } while (!st.stopped);
  } finally {
    following = false;
  }
}

/* The rematch status line on the page now: ``status`` unless the result box was drawn
   again meanwhile (its nodes are new then; result.js moves the old line's words over). */
function live(status) {
  return status.isConnected ? status : document.querySelector("#result [data-testid=rematch-status]") || status;
}

async function propose(button, status) {
  button.disabled = true;
  status.textContent = _("Creating the table…");
  try {
    st.rematch = await T.api("POST", cfg.rematchUrl, {});
    live(status).textContent = "";
    redraw.result();
    followRematch();
  } catch (err) {
    button.disabled = false;
    // "/wallet/" in a refusal as a link saying "your wallet" (Trix.messageNodes)
    live(status).replaceChildren(...T.messageNodes(err.status === 401 ? _("Log in to play again.") : err.message));
  }
}

async function decline(button, status) {
  button.disabled = true;
  try {
    st.rematch = await T.api("POST", cfg.rematchUrl + "decline/", {});
    redraw.result();
  } catch (err) {
    button.disabled = false;
    live(status).replaceChildren(...T.messageNodes(err.message));
  }
}

const ANSWERS = {
  accepted: () => _("sits"),
  waiting: () => _("waiting"),
  declined: () => _("declined"),
  lapsed: () => _("did not answer"),
  bot: () => _("Bot"),
  open: () => pgettext("seat", "free"),
};

/* The rematch region of the result box (null when there is nothing to show). */
export function rematchBox() {
  const r = st.rematch;
  const box = el("div", { class: "rematch", "data-testid": "rematch" });
  const status = el("p", { class: "help", "aria-live": "polite", "data-testid": "rematch-status" });
  if (!r) return null;
  if (!r.rematch) {
    if (!r.can_propose) return null;
    box.append(el("p", { class: "result-actions" }, el("button", { type: "button", class: "primary",
      "data-testid": "rematch-propose", text: _("Rematch"), onclick: (e) => propose(e.currentTarget, status) })),
    el("p", { class: "help", text: _("The same players and bots at a new table; it starts when everyone sits.") }),
    status);
    return box;
  }
  const m = r.rematch;
  const mine = m.seats.find((s) => s.is_me);
  const url = new URL(m.url, location.href).href;
  box.append(el("h3", { text: interpolate(_("Rematch: table %s"), [formatNumber(m.table_id)]) }));
  if (m.status === "open" && m.holds_until && now() < Date.parse(m.holds_until)) {
    box.append(el("p", { class: "help", text: interpolate(_("%(name)s asked for a rematch. Seats are held until %(time)s."),
      { name: m.proposed_by.name, time: clock(m.holds_until) }, true) }));
  } else if (m.status === "playing" || m.status === "finished") {
    box.append(el("p", { class: "help", text: _("The rematch has started.") }));
  } else if (m.status === "cancelled") {
    box.append(el("p", { class: "help", text: _("The rematch was cancelled.") }));
  }
  const ul = el("ul", { class: "rematch-seats" });
  for (const s of m.seats) {
    const li = el("li", { class: s.is_me ? "me" : "", "data-testid": "rematch-seat-" + s.seat });
    if (s.player) {
      li.append(el("span", { class: "name", dir: "auto", text: s.player.name }), ": ",
        el("span", { class: "answer answer-" + s.answer, text: (ANSWERS[s.answer] || (() => s.answer))() }));
    } else {
      li.append(el("span", { class: "name", text: ANSWERS[s.answer]() }));
    }
    ul.append(li);
  }
  box.append(ul);
  const actions = el("p", { class: "result-actions" });
  if (mine && m.status === "open" && mine.answer === "waiting") {
    actions.append(el("a", { class: "button primary", href: url + "#quick-seat-" + mine.seat,
      "data-testid": "rematch-accept", text: _("Take your seat") }), " ",
    el("button", { type: "button", class: "secondary", "data-testid": "rematch-decline",
      text: _("Decline"), onclick: (e) => decline(e.currentTarget, status) }), " ");
  } else if (m.status !== "cancelled") {
    actions.append(el("a", { class: "button secondary", href: url, "data-testid": "rematch-open",
      text: _("Open the rematch table") }), " ");
  }
  if (m.invite_url && m.status === "open") {
    const invite = new URL(m.invite_url, location.href).href;
    actions.append(el("button", { type: "button", class: "secondary", "data-testid": "rematch-share",
      text: _("Share the link"), onclick: () => shareLink(invite, status, _("A rematch of our Trix match")) }));
    box.append(actions, el("p", { class: "help invite-line" }, _("Invite link:") + " ", linkEl(invite, "rematch-link")));
  } else {
    box.append(actions);
  }
  box.append(status);
  return box;
}
