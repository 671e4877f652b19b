/* The table page's match result, at the top of the page once the match ends: won / lost /
   draw and the place (solo: 1-4, ties share; partnership: the team), the final scores, the
   payout with its reason in words (wallet/settlement.py's split_pot: bots never stake, fewer
   than two stakers or a partnership draw give every stake back, a won pot less the house fee
   is split by place, a forfeit ranks the leaver last), the rematch (rematch.js: the same
   players and bots at a new table) and "Back to the lobby". At a tournament's table the
   order is the table's, not the player's result in the event (a disqualified entrant ranks
   last wherever the bot that took the seat ended, docs/tournaments.md, Disqualification): the
   panel says so, names the seat a bot played for a disqualified entrant, and links the
   event's standings and places (#trix-event, tournaments.selectors.event_of_table). An ES
   module of the table page (no build step): main.js starts it. */

import { gettext as _, interpolate } from "../i18n.js";
import { followRematch, rematchBox } from "./rematch.js";
import { num } from "./texts.js";
import { $, T, cfg, el, isolated, nameEl, root, seatName, seatNames, st } from "./state.js";

const money = (amount) => T.formatMoney(amount);

function matchResult() {
  const v = st.view;
  const t = st.table;
  return (v && v.result) || (t && t.result) || null;
}

/* The tournament of this table (tournaments.selectors.event_of_table: name, url, round,
   replaced {seat: the disqualified entrant's name}), or null at another table. */
function tournamentEvent() {
  const node = document.getElementById("trix-event");
  const event = node ? JSON.parse(node.textContent) : null;
  return event && st.table && st.table.kind === "tournament" ? event : null;
}

function ordinal(place) {
  return [_("1st"), _("2nd"), _("3rd"), _("4th")][place - 1] || String(place);
}

/* The viewer's net at this table from the settled payout (web.selectors.table_payout's
   "nets": the ledger's sum, labelled by wallet.selectors.net_outcome), or null: not seated,
   nothing staked, or not settled yet. */
function myNet() {
  const t = st.table;
  const p = st.payout;
  const me = st.mySeat !== null && st.mySeat !== undefined ? t.seats[st.mySeat] : null;
  if (!me || !me.user_id || !t.stake || !p || !p.settled || !p.nets) return null;
  return p.nets.find((x) => x.user_id === me.user_id) || null;
}

/* A signed amount ("+0.20 USD", "−0.60 USD", "0.00 USD") isolated left to right. */
function signedMoney(net) {
  const sign = net > 0 ? "+" : net < 0 ? "\u2212" : "";
  return T.ltr(sign + money(Math.abs(net)));
}

/* The headline for the viewer: [text, tone] with tone won / lost / draw / neutral. A staker
   is told what the match came to in money (the ledger's net), whatever the place: a won or
   lost amount, or that the stake came back (a partnership draw: "Draw"); until the pot is
   settled, only that the match is over. */
function headline(r) {
  if (st.table.kind === "tournament") return [null, "neutral"]; // the event's places count
  const me = st.mySeat;
  const t = st.table;
  const staker = me !== null && me !== undefined && t.seats[me] && t.seats[me].staked > 0;
  if (staker && !(r.teams && r.draw)) {
    const net = myNet();
    if (!net) return [null, "neutral"];
    if (net.outcome === "won") return [interpolate(_("You won %s"), [money(net.net)]), "won"];
    if (net.outcome === "lost") return [interpolate(_("You lost %s"), [money(-net.net)]), "lost"];
    return [_("Your stake came back"), "draw"];
  }
  return gameHeadline(r);
}

/* The game's result for the viewer, by place (a free table, a spectator, a draw). */
function gameHeadline(r) {
  const me = st.mySeat;
  const seated = me !== null && me !== undefined;
  if (r.teams) {
    if (r.draw) return [_("Draw"), "draw"];
    const winners = r.winner === "0+2" ? _("Team A") : _("Team B");
    if (!seated) return [interpolate(_("%s wins"), [winners]), "neutral"];
    const mine = me % 2 === 0 ? "0+2" : "1+3";
    return r.winner === mine ? [_("Your team won"), "won"] : [_("Your team lost"), "lost"];
  }
  const places = r.placements;
  if (!seated) {
    const first = seatNames([0, 1, 2, 3].filter((s) => places[String(s)] === 1));
    return [interpolate(_("%s wins"), [first]), "neutral"];
  }
  const place = places[String(me)];
  const sharing = [0, 1, 2, 3].filter((s) => s !== me && places[String(s)] === place);
  if (place === 1) {
    return sharing.length ? [_("You tied for first place"), "draw"] : [_("You won"), "won"];
  }
  return [_("You lost"), "lost"];
}

function placeLine(r) {
  const me = st.mySeat;
  if (r.teams || me === null || me === undefined) return null;
  const place = r.placements[String(me)];
  const sharing = [0, 1, 2, 3].filter((s) => s !== me && r.placements[String(s)] === place);
  const format = st.table.kind === "tournament" ? _("Your seat's order at this table: %(place)s of 4")
    : _("You placed %(place)s of 4");
  const text = interpolate(format, { place: ordinal(place) }, true) +
    (sharing.length ? " " + interpolate(_("(tied with %s)"), [seatNames(sharing)]) : "");
  return el("p", { class: "place-line", "data-testid": "place-line", text });
}

/* At a tournament's table: the order is the table's; the seats a bot played for a
   disqualified entrant; the link to the event's standings and places. */
function eventLines() {
  const event = tournamentEvent();
  if (!event) return [];
  const out = [el("p", { class: "event-note", "data-testid": "event-note",
    text: _("This is the order at this table, not the tournament's: your place in the event is in its standings and places.") })];
  for (const [seat, name] of Object.entries(event.replaced || {})) {
    out.push(el("p", { class: "event-replaced", "data-testid": "event-replaced",
      text: interpolate(_("%(bot)s played the seat of %(name)s after the disqualification; in the tournament that seat ranks last."),
        { bot: isolated(seatName(Number(seat))), name: isolated(name) }, true) }));
  }
  out.push(el("p", {}, el("a", { href: event.url, "data-testid": "event-standings",
    text: interpolate(_("%s: standings and places"), [isolated(event.name)]) })));
  return out;
}

function scoresList(r) {
  const out = [];
  const replaced = (tournamentEvent() || {}).replaced || {};
  const forName = (s) => replaced[String(s)]
    ? [el("span", { class: "replaced", text: " (" + interpolate(_("for %s"), [isolated(replaced[String(s)])]) + ")" })] : [];
  if (r.teams) {
    // Partnership: the two teams, the winner first, each with its seats and total.
    const keys = r.winner === "1+3" ? ["1+3", "0+2"] : ["0+2", "1+3"];
    const ul = el("ul", { class: "placements", "data-testid": "final-scores" });
    for (const key of keys) {
      const [a, b] = key === "0+2" ? [0, 2] : [1, 3];
      const label = key === "0+2" ? _("Team A") : _("Team B");
      const place = r.draw ? _("Draw") : key === r.winner ? _("1st") : _("2nd");
      ul.append(el("li", { class: a === st.mySeat || b === st.mySeat ? "me" : "" },
        el("span", { class: "place", text: place + ": " }), label + " (", nameEl(a), ...forName(a), " + ", nameEl(b), ...forName(b), ") — ",
        el("strong", { class: "num", text: num(r.teams[key]) })));
    }
    out.push(ul);
  } else {
    const ranking = [0, 1, 2, 3].sort((a, b) => r.placements[String(a)] - r.placements[String(b)] || a - b);
    const ol = el("ul", { class: "placements", "data-testid": "final-scores" });
    for (const s of ranking) {
      ol.append(el("li", { class: s === st.mySeat ? "me" : "" },
        el("span", { class: "place", text: ordinal(r.placements[String(s)]) + ": " }),
        nameEl(s), ...forName(s), el("span", { class: "num", text: " — " + num(r.scores[String(s)]) })));
    }
    out.push(ol);
  }
  if (r.forfeit !== null && r.forfeit !== undefined) {
    out.push(el("p", { class: "forfeit", "data-testid": "forfeit", text: interpolate(r.teams
      ? _("%s left the table during the match: a forfeit, so that team ranks last.")
      : _("%s left the table during the match: a forfeit, so that seat ranks last."), [isolated(seatName(r.forfeit))]) }));
  }
  return out;
}

/* Why the pot went where it went, in words, from the settlement and the seats' stakes. */
export function payoutReason(r) {
  const t = st.table;
  const p = st.payout;
  const stakers = t.seats.filter((s) => s.staked > 0);
  const me = st.mySeat !== null && st.mySeat !== undefined ? t.seats[st.mySeat] : null;
  const myStake = me ? me.staked : 0;
  const mine = me && p.payouts.find((x) => x.user_id === me.user_id);
  const got = mine ? mine.amount : 0;
  const refunded = !p.house_fee && p.payouts.length > 0 && p.payouts.every((x) => {
    const seat = t.seats.find((s) => s.user_id === x.user_id);
    return seat && x.amount === seat.staked;
  });
  const lines = [];
  if (r && r.forfeit !== null && r.forfeit !== undefined) {
    lines.push(interpolate(_("A forfeit: %s left during the match and ranks last."), [isolated(seatName(r.forfeit))]));
  }
  if (stakers.length < 2) {
    const bots = t.seats.some((s) => s.kind === "bot");
    lines.push(myStake
      ? interpolate(bots ? _("Bots never stake, so there was no pot to win: your stake of %s came back.")
        : _("No other seat staked, so there was no pot to win: your stake of %s came back."), [money(myStake)])
      : _("Fewer than two seats staked: every stake came back."));
  } else if (refunded) {
    lines.push(r && r.draw ? _("A draw: every stake came back, no house fee.")
      : _("The winning team had no staker (bots never stake): every stake came back, no house fee."));
  } else {
    const pot = p.house_fee
      ? interpolate(_("the pot of %(pot)s less the house fee of %(fee)s"), { pot: money(p.pot), fee: money(p.house_fee) }, true)
      : interpolate(_("the pot of %(pot)s"), { pot: money(p.pot) }, true);
    if (!me || !myStake) lines.push(interpolate(_("Paid out by place: %s."), [pot]));
    else if (got > 0) lines.push(interpolate(_("Your share of %(pot)s: %(amount)s, for your stake of %(stake)s."), { amount: money(got), pot, stake: money(myStake) }, true));
    else lines.push(interpolate(_("You lost your stake of %(stake)s: %(pot)s went to the better placed."), { stake: money(myStake), pot }, true));
  }
  return lines;
}

function payoutBox(r) {
  const t = st.table;
  if (t.kind === "tournament") return null;
  if (!t.stake) {
    return el("p", { class: "payout", "data-testid": "payout", text: _("A free table: no stakes, no payout.") });
  }
  const box = el("div", { class: "payout", "data-testid": "payout" }, el("h3", { text: _("Payout") }));
  const p = st.payout;
  if (!p || !p.settled) {
    box.append(el("p", { text: t.status === "finished" ? _("Settling the pot…") : _("Paid out when the match ends.") }));
    return box;
  }
  for (const line of payoutReason(r)) box.append(el("p", { class: "payout-reason", "data-testid": "payout-reason", text: line }));
  const mine = myNet();
  if (mine) {
    box.append(el("p", { class: "my-net " + mine.outcome, "data-testid": "my-net",
      text: interpolate(_("Your net: %s"), [signedMoney(mine.net)]) }));
  }
  // Every staker: what came back and the net (a staker paid nothing is listed too).
  const ul = el("ul", { class: "payouts" });
  const rows = p.nets || p.payouts.map((x) => ({ user_id: x.user_id, name: x.name, net: null }));
  for (const x of rows) {
    const seat = t.seats.findIndex((s) => s.user_id === x.user_id);
    const paid = p.payouts.find((y) => y.user_id === x.user_id);
    const li = el("li", { class: x.outcome || "" }, el("span", { dir: "auto", text: seat >= 0 ? seatName(seat) : x.name }),
      ": " + money(paid ? paid.amount : 0));
    if (x.net !== null) li.append(" ", el("span", { class: "net", "data-testid": "net", text: interpolate(_("(net %s)"), [signedMoney(x.net)]) }));
    ul.append(li);
  }
  box.append(ul);
  return box;
}

/* "+16" / "−4" / "±0", isolated left to right (a sign reads wrongly in right-to-left text). */
function signed(delta) {
  return delta > 0 ? "+" + delta : delta < 0 ? "\u2212" + -delta : "\u00b10";
}

/* The match's rating changes: the viewer's own line first, then every other person's. */
function ratingsBox() {
  const t = st.table;
  if (t.status !== "finished") return null;
  const data = st.ratings;
  const box = el("div", { class: "rating-changes", "data-testid": "rating-changes" },
    el("h3", { text: _("Ratings") }));
  if (!data || !data.rated) {
    box.append(el("p", { class: "help", text: data && !data.rated && !t.seats.some((s) => s.kind === "human")
      ? _("No player's rating changes.") : _("Updating the ratings…") }));
    return box;
  }
  const line = (c) => interpolate(_("Rating %(before)s → %(after)s (%(delta)s)"),
    { before: c.before, after: c.after, delta: "\u2066" + signed(c.delta) + "\u2069" }, true);
  const mine = data.changes.find((c) => c.seat === st.mySeat);
  if (mine) {
    box.append(el("p", { class: "my-rating " + (mine.delta >= 0 ? "up" : "down"), "data-testid": "my-rating-change",
      text: line(mine) }));
  }
  // Everyone else's (the viewer's own line is the one above: each line once).
  const others = data.changes.filter((c) => c !== mine);
  if (others.length) {
    const ul = el("ul", { class: "rating-list" });
    for (const c of others) ul.append(el("li", {}, nameEl(c.seat), ": ", line(c)));
    box.append(ul);
  }
  return box;
}

let shownOnce = false;

export function renderResult() {
  const box = $("#result");
  const t = st.table;
  const r = matchResult();
  const over = Boolean(t && (r || t.status === "finished"));
  const key = over ? JSON.stringify([r, st.payout, st.ratings, st.mySeat, t.status, t.seats, st.rematch]) : "";
  if (box.dataset.sig === key) return;
  box.dataset.sig = key;
  if (over && t.status === "finished") followRematch();
  const keep = $("[data-testid=rematch-status]");
  box.replaceChildren();
  box.hidden = !over;
  box.className = "panel result";
  if (!over) return;
  if (r) {
    const [text, tone] = headline(r);
    box.classList.add("tone-" + tone);
    box.append(el("h2", { "data-testid": "match-headline", text: text ? _("Match over") + " — " + text : _("Match over") }));
    const place = placeLine(r);
    if (place) box.append(place);
    if (tournamentEvent()) box.append(el("h3", { text: _("Order at this table") }));
    box.append(...scoresList(r));
    box.append(...eventLines());
  } else {
    box.append(el("h2", { "data-testid": "match-headline", text: _("Match over") }));
  }
  const pay = payoutBox(r);
  if (pay) box.append(pay);
  const rated = ratingsBox();
  if (rated) box.append(rated);
  const again = rematchBox();
  if (again) {
    const status = again.querySelector("[data-testid=rematch-status]");
    // What the line said stays, its links too ("Link copied.", a refusal naming the wallet).
    if (keep && status) status.replaceChildren(...keep.childNodes);
    box.append(again);
  }
  box.append(el("p", { class: "result-actions" }, el("a", { class: "button secondary", href: cfg.lobbyUrl || "/",
    "data-testid": "back-to-lobby", text: _("Back to the lobby") })));
  box.append(el("p", {}, el("a", { href: cfg.verifyMatchUrl, "data-testid": "verify-match" },
    _("Verify every shuffle of this match"))));
  if (!shownOnce) {
    shownOnce = true;
    // The result sits under the page's header: bring the top of the table page into view.
    if (box.getBoundingClientRect().top < 0 || box.getBoundingClientRect().top > window.innerHeight / 2) {
      root.scrollIntoView({ block: "start" });
    }
  }
}
