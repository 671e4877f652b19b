/* The table page's seating panel before the match: sit, leave, seat a bot.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { forgetSit, saveBeforeSit, saved, shown, storageAvailable } from "./fairness.js";
import { linkEl, shareLink } from "../share.js";
import { clock } from "./rematch.js";
import { $, T, cfg, el, isolated, nameEl, notice, partnership, personName, ratingEl, redraw, st, unchanged } from "./state.js";
import { tableCall } from "./server.js";
import { num, t as text } from "./texts.js";
import { clientSeedProblem } from "./verify.js";

/* The match's commitment, its deal count and algorithm, with one line on what it is for:
   shown before anyone sits, beside the Sit buttons. */
export function commitmentBox() {
  const info = shown();
  return [
    el("p", { class: "commitment-title", text: text("commitment_title") }),
    el("p", { class: "help", text: text("commitment_help") }),
    el("p", { class: "commitment-line" }, el("span", { class: "label", text: text("commitment_label") + " " }),
      el("code", { dir: "ltr", "data-testid": "commitment", text: info.commitment })),
    el("p", { class: "commitment-meta", "data-testid": "commitment-meta",
      text: text("commitment_meta", { deals: info.deals, algorithm: info.algorithm, match: info.match_id }) }),
    el("p", { id: "commitment-status", class: "commitment-status", "data-testid": "commitment-status",
      hidden: true }),
  ];
}

/* Under the commitment: whether this browser kept it (after Sit), or cannot keep anything. */
function commitmentStatus(mine) {
  const line = $("#commitment-status");
  const keeps = storageAvailable();
  const entry = mine && keeps ? saved() : null;
  const key = !keeps ? "storage_missing" : !mine ? null
    : entry && entry.commitment === shown().commitment ? "commitment_saved" : "commitment_not_saved";
  if (unchanged(line, key)) return;
  line.textContent = key ? text(key) : "";
  line.className = "commitment-status" + (key && key !== "commitment_saved" ? " notice error" : " ok");
  line.hidden = !key;
}

let focused = false;
let quickDone = false; // the lobby's quick play sat once (#quick-seat-N)

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
      el("span", { class: "seat-no", text: partnership()
        ? text("seat_team", { n: num(i + 1), team: text(i % 2 ? "team_b" : "team_a") })
        : text("seat_n", { n: num(i + 1) }) }));
    if (s.kind) {
      li.append(nameEl(i));
      const rating = ratingEl(i);
      if (rating) li.append(" ", rating);
      if (s.staked) li.append(el("span", { class: "staked", text: text("staked", { money: T.formatMoney(s.staked) }) }));
      if (s.is_me) {
        li.append(el("button", { type: "button", class: "secondary", "data-testid": "leave",
          text: text("leave"), onclick: () => tableCall(cfg.leaveUrl, {}) }));
      }
    } else {
      const held = heldFor(s);
      const forMe = held && String(held.id) === cfg.userId;
      li.append(held
        ? el("span", { class: "empty held", "data-testid": "held-" + i },
          text("held_for", { name: isolated(personName(held.name, held.id, held.account_closed)), time: clock(t.holds_until) }))
        : el("span", { class: "empty", text: text("empty") }));
      if (!mine && (!held || forMe)) {
        li.append(el("button", { type: "button", class: "primary", "data-testid": "sit-" + i,
          text: t.stake ? text("sit_stake", { money: T.formatMoney(t.stake) }) : text("sit"),
          onclick: () => sit(i) }));
      }
      if (forMe && t.rematch_of) {
        li.append(el("button", { type: "button", class: "secondary", "data-testid": "decline-" + i,
          text: text("decline_rematch"), onclick: () => declineRematch() }));
      }
      if (isCreator && !held) {
        li.append(el("button", { type: "button", class: "secondary", "data-testid": "bot-" + i,
          text: text("seat_bot"), onclick: () => tableCall(cfg.botsUrl, { seat: i, bot: "rules" }) }));
      }
    }
    list.append(li);
  });
  const asked = /^#seat-([0-3])$/.exec(location.hash); // the lobby's Sit: that seat's button
  if (asked && !focused) {
    const button = $("[data-testid=sit-" + asked[1] + "]");
    if (button) button.focus({ preventScroll: true });
    focused = true;
  }
  const quick = /^#quick-seat-([0-3])$/.exec(location.hash); // the lobby's quick play: sit now
  if (quick && !quickDone) {
    quickDone = true;
    history.replaceState(null, "", location.pathname + location.search); // a reload does not sit again
    const seat = Number(quick[1]);
    if (!mine && cfg.authenticated === "1" && !t.seats[seat].kind) queueMicrotask(() => sit(seat));
  }
  redrawAtLapse(t);
  shareBox(t, mine || t.seats.some((s) => heldFor(s) && String(heldFor(s).id) === cfg.userId) || isCreator);
  const shownBox = $("#commitment-box");
  if (!shownBox.childElementCount) shownBox.replaceChildren(...commitmentBox());
  commitmentStatus(mine);
  $("#seed-box").hidden = mine || cfg.authenticated !== "1";
  $("#login-to-sit").hidden = cfg.authenticated === "1";
}

let lapseAt = null; // the holds_until a redraw is set for (the holds lapse with no new version)

/* Draw the seats again when the rematch's holds lapse: the held seats become free ones. */
function redrawAtLapse(t) {
  if (!t.holds_until || lapseAt === t.holds_until) return;
  lapseAt = t.holds_until;
  const wait = Date.parse(t.holds_until) - (Date.now() + (st.clockSkew || 0));
  if (wait > 0) setTimeout(() => redraw.all(), wait + 250);
}

/* The person a rematch's empty seat is held for while the hold lasts ({id, name}), or null. */
function heldFor(seat) {
  const t = st.table;
  if (!seat.held_for || !t.holds_until) return null;
  return Date.now() + (st.clockSkew || 0) < Date.parse(t.holds_until) ? seat.held_for : null;
}

/* Decline the rematch this table is: the seat held for me goes to anyone. */
async function declineRematch() {
  try {
    await T.api("POST", "/api/tables/" + st.table.rematch_of + "/rematch/decline/", {});
    notice("");
  } catch (err) {
    notice(err.message);
  }
}

/* At a rematch, for its players: Share (the invite link, from the finished table's rematch). */
function shareBox(t, player) {
  const box = $("#share-box");
  const show = Boolean(t.rematch_of && player);
  if (unchanged(box, show)) return;
  box.hidden = !show;
  box.replaceChildren();
  if (!show) return;
  const status = el("span", { class: "help", "aria-live": "polite" });
  const line = el("span", {});
  box.append(el("button", { type: "button", class: "secondary", "data-testid": "share-link",
    text: text("share_link"), onclick: async () => {
      try {
        const r = await T.api("GET", "/api/tables/" + t.rematch_of + "/rematch/");
        if (!r.rematch || !r.rematch.invite_url) return;
        const url = new URL(r.rematch.invite_url, location.href).href;
        line.replaceChildren(linkEl(url));
        await shareLink(url, status);
      } catch (err) {
        status.textContent = err.message;
      }
    } }), " ", line, " ", status);
}

/* The seed as typed (outer spaces dropped), or null after showing why it cannot be sent. */
export function seedToSend() {
  const input = $("#client-seed");
  const seed = input.value.trim();
  const problem = clientSeedProblem(seed);
  const box = $("#seed-error");
  box.textContent = problem ? text(problem.key, problem) : "";
  box.hidden = !problem;
  input.setAttribute("aria-invalid", problem ? "true" : "false");
  if (problem) {
    input.focus();
    return null;
  }
  input.value = seed;
  return seed;
}

let sitting = false; // a Sit on its way: the browser's saved seed is that seat's

async function sit(seat) {
  // One Sit at a time: a second seat clicked before the first answer overwrote the saved
  // seed, and its refusal (one seat per player) then forgot the seed of the seat taken.
  if (sitting) return;
  const seed = seedToSend();
  if (seed === null) return;
  sitting = true;
  try {
    $("#seed-used").textContent = seed;
    saveBeforeSit(seat, seed);
    // The commitment kept above goes with the seed: the server refuses the seat if the
    // table's commitment is not the one this page showed and kept.
    const body = { seat, client_seed: seed };
    if (shown().commitment) body.commitment = shown().commitment;
    const ok = await tableCall(cfg.seatsUrl, body);
    if (ok === false) forgetSit();
  } finally {
    sitting = false;
  }
}
