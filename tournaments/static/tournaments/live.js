/* The live bracket/standings page: ONE live stream for the whole tournament,
   GET /api/tournaments/<id>/stream/ (Server-Sent Events, ../web/live.js), each message the
   answer of GET /api/tournaments/<id>/live/ at a new version (a registration, a round, a
   table's result, an admin action), sent as a patch of the previous one after the first;
   where streams fail, that one long poll,
   .../live/?since=<version>&wait=<s>, held by the server for a few seconds. Renders rounds, tables (linked to their table pages),
   scores, who advanced, standings, final places and prizes, entrants and admin actions.
   A module (live.html): its words come from the site's i18n.js; window.Trix from api.js. */
import { gettext as _, interpolate, ngettext, pgettext } from "../web/i18n.js";
import { follow, streamRetryAt } from "../web/live.js";

/* Statuses and kinds as the badges show them (the API sends codes). */
const STATUS = {
  open: pgettext("table status", "open"),
  playing: pgettext("table status", "playing"),
  finished: pgettext("table status", "finished"),
  cancelled: pgettext("table status", "cancelled"),
  opening: pgettext("round status", "opening"),
  running: pgettext("round status", "running"),
  paused: pgettext("round status", "paused"),
  registered: pgettext("entry status", "registered"),
  disqualified: pgettext("entry status", "disqualified"),
  withdrawn: pgettext("entry status", "withdrawn"),
  refunded: pgettext("entry status", "refunded"),
  pending: pgettext("entry status", "pending"),
};
const KIND = { swiss: _("Swiss"), knockout: _("knockout"), final: _("final table") };
const said = (code) => STATUS[code] || code;
/* The admin actions the services record (tournaments/templatetags/tournament_names.py). */
const ACTIONS = {
  create: pgettext("admin action", "created"),
  open_registration: pgettext("admin action", "registration opened"),
  close_registration: pgettext("admin action", "registration closed"),
  start: pgettext("admin action", "started"),
  pause: pgettext("admin action", "paused"),
  resume: pgettext("admin action", "resumed"),
  cancel: pgettext("admin action", "cancelled"),
  disqualify: pgettext("admin action", "disqualified"),
};

(function () {
  "use strict";
  const T = window.Trix;
  const el = T.el;
  const root = document.getElementById("live-app");
  if (!root) return;
  const $ = (sel) => root.querySelector(sel);
  const WAIT = 25; // seconds asked; the server holds at most TRIX_STATE_WAIT_MAX
  const DONE = ["finished", "cancelled"];
  let version = null;

  function notice(text) {
    const box = $("#live-notice");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function fill(node, children) {
    node.replaceChildren(...children);
  }

  /* "2026-12-02 20:53 UTC", isolated left to right in Arabic (its parts kept in order) and
     kept on one line (word joiners at its hyphens, no-break spaces: a phone broke it after
     "2026-"). */
  function when(iso) {
    if (!iso) return "";
    const d = new Date(iso);
    const text = interpolate(_("%s UTC"), [d.toISOString().slice(0, 16).replace("T", " ")]);
    return T.ltr(text.replace(/-/g, "\u2060-\u2060").replace(/ /g, "\u00a0"));
  }

  /* A score (negative ones too) isolated left to right in Arabic: "-385", not "385-". */
  function signed(score) {
    return T.ltr(String(score));
  }

  /* One seat (solo), or one side of partners (seats 1 & 3 or 2 & 4: a team's unit sits at
     both, so the side is shown once, with the team's score from the recorded result). */
  function seatRow(table, seat, resultByUnit, teamMode) {
    const unit = seat.unit;
    const label = teamMode ? (seat.seat + 1) + " & " + (seat.seat + 3) : String(seat.seat + 1);
    const row = el("li", { class: "seat-row", dataset: { seat: String(seat.seat) } },
      el("span", { class: "seat-no", text: label }),
      el("span", { class: unit ? "name" : "empty", dir: "auto", text: seat.name }));
    const res = unit && resultByUnit[unit];
    const running = runningScore(table.scores, seat.seat, teamMode);
    if (res) row.append(el("span", { class: "num", text: interpolate(_("score %s"), [signed(res.score)]) }));
    else if (running !== null) {
      row.append(el("span", { class: "num", dataset: { testid: "running-score" }, text: interpolate(_("score %s"), [signed(running)]) }));
    }
    if (res) row.append(el("span", { class: "badge", text: interpolate(_("place %s"), [res.place]) }));
    if (unit && table.advanced.includes(unit)) {
      row.append(el("span", { class: "badge status-open", text: _("advanced") }));
    }
    if (unit && table.no_show.includes(unit)) row.append(el("span", { class: "badge double", text: _("no-show") }));
    if (unit && table.disqualified.includes(unit)) {
      // While the table plays too: a bot holds the seat from the disqualification on.
      row.classList.add("out");
      row.append(el("span", { class: "badge double", dataset: { testid: "seat-disqualified" }, text: said("disqualified") }));
    }
    return row;
  }

  /* The match total of a seat (solo) or of a side of partners (seats s and s + 2) after the
     table's finished deals, or null before the first deal ends. */
  function runningScore(scores, seat, teamMode) {
    if (!scores || scores[String(seat)] === undefined) return null;
    return teamMode ? scores[String(seat)] + scores[String(seat + 2)] : scores[String(seat)];
  }

  function tableCard(table, teamMode) {
    const resultByUnit = {};
    for (const r of table.result || []) if (r.unit) resultByUnit[r.unit] = r;
    return el("article", { class: "table-card", dataset: { testid: "live-table", tableId: String(table.table_id) } },
      el("h3", {},
        el("a", { href: "/tables/" + table.table_id + "/", text: interpolate(_("Table %s"), [table.index + 1]) }),
        el("span", { class: "badge status-" + table.table_status, text: said(table.table_status) })),
      el("ul", { class: "seat-list" }, ...(teamMode ? table.seats.slice(0, 2) : table.seats)
        .map((s) => seatRow(table, s, resultByUnit, teamMode))),
      table.table_status === "playing" && table.deals_played ? el("p", { class: "help", dataset: { testid: "deals-played" },
        text: interpolate(ngettext("Scores after %s deal", "Scores after %s deals", table.deals_played), [table.deals_played]) }) : null,
      el("p", { class: "card-actions" },
        el("a", { href: "/tables/" + table.table_id + "/", text: table.table_status === "playing" ? _("Watch") : _("Open the table") }),
        " · ",
        el("a", { href: "/verify/matches/" + table.table_id + "/", text: _("verify the shuffles") })));
  }

  function renderRounds(rounds, teamMode, paused) {
    if (!rounds.length) {
      fill($("#rounds"), [el("p", { class: "empty", text: _("No round yet: round 1 opens at the start.") })]);
      return;
    }
    const out = [];
    for (const r of rounds.slice().reverse()) {
      const kind = KIND[r.kind] || r.kind;
      const shown = paused && r.status === "running" ? "paused" : r.status;
      const head = el("h3", { text: interpolate(_("Round %s"), [r.number]) + " · " + kind + " " },
        el("span", { class: "badge status-" + (shown === "running" ? "playing" : shown), dataset: { testid: "round-status" }, text: said(shown) }));
      const meta = el("p", { class: "help", text: interpolate(_("Opened %s"), [when(r.opened_at)]) + " · " +
        interpolate(_("show up by %s"), [when(r.show_up_deadline)]) +
        (r.byes.length ? " · " + interpolate(_("byes: %s"), [(r.bye_names || r.byes).join(_(", "))]) : "") });
      out.push(el("section", { class: "round", dataset: { round: String(r.number) } }, head, meta,
        el("div", { class: "table-list" }, ...r.tables.map((x) => tableCard(x, teamMode)))));
    }
    fill($("#rounds"), out);
  }

  /* What is happening now, in words: the start, a pause, when the prizes are paid. */
  function phaseLine(d) {
    const started = d.started_at ? interpolate(_("Started %s"), [when(d.started_at)]) : "";
    if (d.status === "paused") {
      return [started, _("Paused: no new round opens until the event resumes; tables already playing go on.")]
        .filter(Boolean).join(" · ");
    }
    if (d.status === "review") {
      return interpolate(_("Finished; the review window ends and the prizes are paid at %s."), [when(d.review_ends_at)]);
    }
    if (d.status === "finished" && d.prizes_paid_at) {
      return interpolate(_("Prizes paid %s."), [when(d.prizes_paid_at)]);
    }
    return started;
  }

  function rows(body, items, cells) {
    fill(body, items.map((item) => el("tr", {},
      ...cells(item).map(({ children, ...cell }) => el("td", cell, ...(children || []))))));
  }

  function render(d) {
    version = d.version;
    root.dataset.version = String(d.version);
    root.dataset.status = d.status;
    const badge = $("#live-status");
    // A label, as the page's first render ("Registration"; capfirst): the API sends the word.
    badge.textContent = d.status_name.charAt(0).toUpperCase() + d.status_name.slice(1);
    badge.className = "badge status-" + d.status;
    $("#live-line").textContent = interpolate(d.team_mode ? ngettext("%s team", "%s teams", d.registered)
      : ngettext("%s entrant", "%s entrants", d.registered), [d.registered]) + " · " +
      (DONE.includes(d.status) ? _("final") : _("updates by itself")) + " · " + interpolate(_("version %s"), [d.version]);
    renderRounds(d.rounds, d.team_mode, d.status === "paused");
    const phase = phaseLine(d);
    $("#live-phase").textContent = phase;
    $("#live-phase").hidden = !phase;
    $("#standings-panel").hidden = !d.standings.length;
    rows($("#standings-body"), d.standings, (s) => [
      { class: "num", text: String(s.rank) }, { class: "name", dir: "auto", text: s.name },
      { class: "num", text: String(s.points) }, { class: "num", text: signed(s.score) },
      { class: "num", text: String(s.opponents_points) }]);
    $("#final-panel").hidden = !d.final.length;
    rows($("#final-body"), d.final, (f) => [
      { class: "num", text: String(f.place) }, { class: "name", children: [
        el("span", { dir: "auto", text: f.name }),
        // Marked as in the entrant list, with who and why (listed last, it said nothing).
        f.disqualified ? el("span", { class: "badge", dataset: { testid: "final-disqualified" }, text: said("disqualified") }) : null,
        f.disqualified ? el("span", { class: "help" }, " " + interpolate(_("by %s"), [f.disqualified.by || _("the site")]) + ": ",
          el("bdi", { dir: "auto", text: f.disqualified.reason })) : null] },
      { class: "num", dir: "ltr", text: f.prize_text }]);
    $("#entrant-count").textContent = String(d.entrants.filter((e) => e.status === "registered" || e.status === "disqualified").length);
    fill($("#entrants"), d.entrants.map((e) => el("li", { dataset: { testid: "live-entrant" } },
      el("span", { class: "name", dir: "auto", text: e.name }),
      e.team ? el("span", { class: "badge", dir: "auto", dataset: { testid: "entrant-team" }, text: e.team_name || e.team }) : null,
      e.status !== "registered" ? el("span", { class: "badge", text: said(e.status) }) : null,
      e.place ? el("span", { class: "badge owner", text: interpolate(_("place %s"), [e.place]) }) : null)));
    rows($("#prize-body"), d.prize_table, (p) => [{ text: String(p.place) }, { class: "num", dir: "ltr", text: p.text }]);
    fill($("#admin-actions"), d.admin_actions.map((a) => el("li", {},
      el("strong", { text: ACTIONS[a.action] || a.action }), " " + interpolate(_("by %s"), [a.by || _("the site")]) + " · " + when(a.at),
      a.reason ? ": " : null, a.reason ? el("span", { dir: "auto", text: a.reason }) : null)));
    if (d.draw.record_available && !root.querySelector("[data-testid=draw-record]")) {
      const pending = root.querySelector("[data-testid=draw-pending]");
      if (pending) pending.remove();
      $("#draw").append(
        el("p", {}, _("Revealed seed:") + " ", el("code", { text: d.draw.seed })),
        el("p", {}, el("a", { href: "/api/tournaments/" + d.id + "/draw.json",
          "data-testid": "draw-record", text: _("Download the draw record (trix-draw/1)") }),
          " " + _("and check it with trix verify; reload the page for the site's own check.")));
    }
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /* Resolves true once the page will not change any more, false to long-poll instead. */
  function streamed() {
    return new Promise((resolve) => {
      follow(root.dataset.streamUrl, version, {
        onState: (d) => {
          if (version === null || d.version > version) render(d);
          notice("");
        },
        onEnd: () => resolve(true),
        onFail: () => resolve(false),
        patches: true, // after the first whole answer, only what changed (a few hundred bytes)
      });
    });
  }

  /* The page's stream, or where it fails the long poll, which tries the stream again a
     minute later (streamRetryAt). */
  async function loop() {
    for (let fallbacks = 1; ; fallbacks++) {
      if (root.dataset.streamUrl && (await streamed())) return;
      const until = root.dataset.streamUrl ? streamRetryAt(fallbacks) : Infinity;
      if (await longPoll(until)) return;
    }
  }

  /* The long poll until `until` (a Date.now() value); true once the page will not change
     any more. */
  async function longPoll(until) {
    let backoff = 0;
    while (Date.now() < until) {
      const url = root.dataset.url + (version === null ? "" : "?since=" + version + "&wait=" + WAIT);
      try {
        const before = version;
        let comeBack = null; // the server's Retry-After: above our share of long polls
        const d = await T.api("GET", url, undefined, { onRetryAfter: (ms) => { comeBack = ms; } });
        // An answer at the version shown changes nothing: redrawing it would only replace
        // the nodes a reader (or a test) holds, and scroll.
        if (version === null || d.version > version) render(d);
        notice("");
        backoff = 0;
        if (DONE.includes(root.dataset.status)) return true;
        // Answered without holding (the server caps each client's waits,
        // TRIX_WAITS_PER_CLIENT): come back when it says; nothing new: do not spin.
        if (comeBack !== null) await sleep(comeBack);
        else if (before !== null && version === before) await sleep(400);
      } catch (err) {
        if (err.retryAfter) {
          // Too many reads (429) or a backing service down (503): come back when it says.
          await sleep(err.retryAfter);
          continue;
        }
        notice(err.message + " " + _("Retrying…"));
        backoff = Math.min(backoff ? backoff * 2 : 1000, 15000);
        await sleep(backoff);
      }
    }
  }

  loop();
})();
