/* The lobby: lists open tables (GET /api/tables/?status=open) and those playing, a page at
   a time (the API's pages, newest first: "Newer" / "Older"), creates a table (POST
   /api/tables/), leaves seats, seats bots; all through the tables API. A Sit opens the table
   page at that seat (the commitment is shown and kept there first). Quick play (POST
   /api/quick-play/, sit: false) chooses a seat at an open table of the default variant at a
   stake where players wait, or starts one (free: with bots), and opens the table page, which
   sits there; at a staked table that waits for players (bots never stake) it first shows the
   answer's notice and a "Sit and wait" button, so the player knows before the stake is held;
   where no table waits at that stake the answer names none and the button makes it (POST
   /api/tables/) just before the table page sits, so no empty table waits in the list while
   the player reads; a player already seated there is told so, with their table's link. A
   table's creator gets its invite link (POST /api/tables/{id}/invite/) and may make it
   private (not listed).
   A module (lobby.html): its words come from ../i18n.js; window.Trix from api.js. */
import { gettext as _, interpolate, ngettext, pgettext } from "./i18n.js";
import { shareLink } from "./share.js";
import { botBadge } from "./table/texts.js"; // a bot's badge as the table page shows it

/* A table's status as the badge shows it. */
const STATUS = {
  open: pgettext("table status", "open"),
  playing: pgettext("table status", "playing"),
  finished: pgettext("table status", "finished"),
  cancelled: pgettext("table status", "cancelled"),
};

(function () {
  "use strict";
  const T = window.Trix;
  const el = T.el;
  const root = document.getElementById("lobby-app");
  if (!root) return;
  const cfg = root.dataset;
  const $ = (sel) => root.querySelector(sel);
  const specs = T.names().options || [];
  const maxStake = parseInt(cfg.maxStake, 10) || undefined; // TRIX_MAX_STAKE, minor units

  function notice(box, text) {
    T.showMessage(box, text); // "/wallet/" in a message as a link
  }

  function optionsList(options) {
    const dl = el("dl", { class: "options-list" });
    for (const spec of specs) {
      if (spec.name === "variant") continue;
      const value = options[spec.name] === undefined ? spec.default : options[spec.name];
      let text;
      if (spec.kind === "choice") {
        const hit = spec.values.find((pair) => pair[0] === value);
        text = hit ? hit[1] : String(value);
      } else if (spec.kind === "bool") text = value ? _("yes") : _("no");
      else text = value ? interpolate(_("%s s"), [value]) : _("no timer");
      const dd = el("dd", { text });
      if (value !== spec.default) dd.classList.add("changed");
      dl.append(el("dt", { text: spec.label }), dd);
    }
    return dl;
  }

  /* One line: the timers and every option that differs from the default. */
  function summary(options) {
    const o = (name) => (options[name] === undefined ? specs.find((x) => x.name === name).default : options[name]);
    const timers = ["choose_timer", "double_timer", "play_timer"].map(o);
    const parts = [timers.every((x) => !x) ? _("No timers")
      : interpolate(_("Timers %s"), [timers.map((x) => (x ? interpolate(_("%s s"), [x]) : "—")).join(" / ")])];
    for (const spec of specs) {
      if (spec.name === "variant" || spec.kind === "seconds") continue;
      if (o(spec.name) === spec.default) continue;
      const value = o(spec.name);
      const hit = spec.kind === "choice" ? spec.values.find((pair) => pair[0] === value) : null;
      parts.push(spec.label + ": " + (hit ? hit[1] : spec.kind === "bool" ? (value ? _("yes") : _("no")) : value));
    }
    if (parts.length === 1) parts.push(_("default rules"));
    return parts.join(" · ");
  }

  async function call(url, body, where) {
    try {
      await T.api("POST", url, body);
      notice($("#lobby-notice"), "");
      await load();
      return true;
    } catch (err) {
      if (err.status === 401) {
        window.location = cfg.loginUrl + "?next=" + encodeURIComponent(location.pathname);
        return false;
      }
      notice(where || $("#lobby-notice"), err.message);
      return false;
    }
  }

  /* A tournament's table: "Tournament table (round 2)", a link to its tournament's live page
     (as the table page's header says it), in place of a stake and a creator. */
  function tournamentLink(t) {
    const origin = t.kind === "tournament" && /^tournament:(\d+)\/round:(\d+)/.exec(t.origin || "");
    if (!origin) return null;
    return el("a", { class: "stake", href: "/tournaments/" + origin[1] + "/live/", "data-testid": "tournament-of-" + t.id,
      text: _("Tournament table (round {round})").replace("{round}", origin[2]) });
  }

  function tableCard(t) {
    const mine = t.seats.some((s) => s.is_me);
    const isCreator = cfg.userId && t.created_by && String(t.created_by.id) === cfg.userId;
    const free = t.seats.filter((s) => !s.kind).length;
    const card = el("article", { class: "table-card", "data-table": String(t.id), "data-testid": "table-" + t.id });
    card.append(el("header", {},
      el("h3", {}, el("a", { href: "/tables/" + t.id + "/" }, interpolate(_("Table %s"), [t.id])), " ", T.bilingual("variants", t.variant)),
      el("p", { class: "meta" },
        tournamentLink(t) || el("span", { class: "stake", text: t.stake ? interpolate(_("Stake %s"), [T.formatMoney(t.stake)]) : _("Casual") }),
        el("span", { class: "badge status-" + t.status, text: STATUS[t.status] || t.status }),
        t.status === "open" ? el("span", { class: "free",
          text: interpolate(ngettext("%s free seat", "%s free seats", free), [free]) }) : null,
        t.private ? el("span", { class: "badge private", text: _("Private") }) : null,
        t.created_by && t.kind !== "tournament" ? el("span", { class: "creator" }, _("by") + " ", el("span", { dir: "auto", text: t.created_by.name })) : null)));
    const seats = el("ol", { class: "seat-list compact" });
    t.seats.forEach((s, i) => {
      const li = el("li", { class: "seat-row" }, el("span", { class: "seat-no", text: String(i + 1) }));
      if (s.kind) {
        li.append(s.kind === "bot"
          ? el("span", { class: "name", text: interpolate(_("Bot %s"), [i + 1]) }, botBadge(s.bot))
          : el("span", { class: "name", dir: "auto", text: s.name }));
        if (s.rating !== null && s.rating !== undefined) {
          li.append(el("span", { class: "rating", dir: "ltr", title: _("Rating"), "data-testid": "lobby-rating",
            text: String(s.rating) }));
        }
        if (s.is_me && t.status === "open") {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "leave-" + t.id,
            text: _("Leave"), onclick: () => call("/api/tables/" + t.id + "/leave/", {}, card.querySelector(".notice")) }));
        }
      } else if (t.status === "open") {
        li.append(el("span", { class: "empty", text: pgettext("seat", "free") }));
        if (!mine && cfg.authenticated === "1") {
          // Sitting happens on the table page: it shows the match's commitment first, makes the
          // client seed and keeps both in this browser to check the deals.
          li.append(el("a", { class: "button primary", "data-testid": "sit-" + t.id + "-" + i,
            href: "/tables/" + t.id + "/#seat-" + i, text: _("Sit…") }));
        }
        if (isCreator) {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "bot-" + t.id + "-" + i,
            text: _("Bot"), onclick: () => call("/api/tables/" + t.id + "/bots/", { seat: i, bot: "rules" },
              card.querySelector(".notice")) }));
        }
      }
      seats.append(li);
    });
    card.append(seats);
    if (mine && t.status === "open") {
      card.append(el("p", { class: "waiting-mine", "data-testid": "waiting-" + t.id,
        text: interpolate(ngettext("You sit here: the table waits for %s more player.",
          "You sit here: the table waits for %s more players.", free), [free]) }));
    }
    card.append(el("p", { class: "notice", role: "alert", hidden: true }));
    if (isCreator && t.status === "open") card.append(inviteBox(t, card));
    card.append(el("p", { class: "options-summary", "data-testid": "options-summary", text: summary(t.options || {}) }));
    card.append(el("details", {}, el("summary", { text: _("All table options") }), optionsList(t.options || {})));
    card.append(el("p", { class: "card-actions" }, el("a", { class: "button " + (mine ? "primary" : "secondary"),
      href: "/tables/" + t.id + "/", text: mine ? _("Go to your table") : t.status === "open" ? pgettext("verb", "Open") : _("Watch") })));
    return card;
  }

  /* The creator's invite link: asked for on a click (the token is made then), shown to copy. */
  function inviteBox(t, card) {
    const box = el("div", { class: "invite-box", "data-testid": "invite-" + t.id });
    const show = el("button", { type: "button", class: "secondary", text: _("Invite link"),
      "data-testid": "invite-link-" + t.id });
    show.addEventListener("click", async () => {
      try {
        const answer = await T.api("POST", "/api/tables/" + t.id + "/invite/", { private: !!t.private });
        const url = new URL(answer.invite_url, location.href).href;
        const input = el("input", { type: "text", readonly: true, value: url, dir: "ltr", "aria-label": _("Invite link"),
          "data-testid": "invite-url-" + t.id });
        const status = el("span", { class: "help", "aria-live": "polite" });
        const share = el("button", { type: "button", class: "secondary", text: _("Share the link"),
          "data-testid": "invite-share-" + t.id });
        share.addEventListener("click", () => {
          input.select();
          shareLink(url, status);
        });
        box.replaceChildren(input, share, status,
          el("span", { class: "help", text: _("Anyone with this link can open the table at a free seat.") }));
        input.focus();
        input.select();
      } catch (err) {
        notice(card.querySelector(".notice"), err.message);
      }
    });
    box.append(show);
    return box;
  }

  /* The page of each list the lobby shows (1: the newest tables). */
  const pages = { open: 1, playing: 1 };

  /* One page of ?status=<status>; a page that no longer exists (tables started or went
     away meanwhile) falls back to the first. */
  async function fetchPage(status) {
    try {
      return await T.api("GET", cfg.tablesUrl + "?status=" + status + "&page=" + pages[status]);
    } catch (err) {
      if (err.status !== 404 || pages[status] === 1) throw err;
      pages[status] = 1;
      return T.api("GET", cfg.tablesUrl + "?status=" + status + "&page=1");
    }
  }

  /* "Newer · Page 2 of 5 · Older" under a list longer than a page. */
  function pager(status, data) {
    const size = Math.max(parseInt(cfg.pageSize, 10) || 1, 1);
    const total = Math.max(1, Math.ceil((data.count || 0) / size));
    if (!data.next && !data.previous) return null;
    const go = (delta) => () => {
      pages[status] += delta;
      load();
    };
    return el("nav", { class: "pager", "aria-label": status === "open" ? _("Pages of open tables") : _("Pages of tables playing"), "data-testid": "pager-" + status },
      el("button", { type: "button", class: "secondary", text: _("‹ Newer"), disabled: !data.previous,
        "data-testid": "newer-" + status, onclick: go(-1) }),
      el("span", { class: "page-no", "data-testid": "page-" + status, text: interpolate(_("Page %s of %s"), [pages[status], total]) }),
      el("button", { type: "button", class: "secondary", text: _("Older ›"), disabled: !data.next,
        "data-testid": "older-" + status, onclick: go(1) }));
  }

  async function load() {
    const box = $("#table-list");
    try {
      const [open, playing] = await Promise.all([fetchPage("open"), fetchPage("playing")]);
      box.replaceChildren();
      const openList = open.results || [];
      if (!openList.length) box.append(el("p", { class: "empty", text: _("No open tables. Create one below.") }));
      openList.forEach((t) => box.append(tableCard(t)));
      const openPager = pager("open", open);
      if (openPager) box.append(openPager);
      const playingList = playing.results || [];
      if (playingList.length) {
        box.append(el("h2", { text: _("Playing now") }));
        playingList.forEach((t) => box.append(tableCard(t)));
        const playingPager = pager("playing", playing);
        if (playingPager) box.append(playingPager);
      }
    } catch (err) {
      notice($("#lobby-notice"), err.message);
    }
  }

  const form = document.getElementById("create-form");
  if (form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const box = $("#create-notice");
      const say = (text) => {
        notice(box, text);
        box.scrollIntoView({ block: "nearest" }); // below the button: in view after the tap
      };
      const read = T.readMoney(form.stake.value, maxStake);
      if (read.error) {
        say(read.message);
        return;
      }
      const stake = read.amount;
      const options = {};
      for (const input of form.querySelectorAll("[data-option]")) {
        const kind = input.dataset.kind;
        if (kind === "bool") options[input.name] = input.checked;
        else if (kind === "seconds") {
          const n = Number(input.value);
          if (!Number.isInteger(n) || n < 0) {
            // The server's words for the same refusal (games/options_text.py), one style for both.
            say(interpolate(_("“%s” is a whole number of seconds, 0 or more."), [input.labels[0].textContent]));
            return;
          }
          options[input.name] = n;
        } else options[input.name] = input.value;
      }
      const isPrivate = form.private && form.private.checked;
      const body = { variant: options.variant, stake, options };
      // One table per press: a second click (or Enter) while the first is on its way made a
      // second table (and, staked, a second stake in escrow).
      const button = form.querySelector("button[type=submit]");
      if (form.dataset.busy) return;
      form.dataset.busy = "1";
      button.disabled = true;
      try {
        const table = await T.api("POST", cfg.tablesUrl, body);
        if (isPrivate) await T.api("POST", "/api/tables/" + table.id + "/invite/", { private: true });
        window.location = "/tables/" + table.id + "/";
      } catch (err) {
        say(err.message);
        delete form.dataset.busy;
        button.disabled = false;
      }
    });
  }

  /* Quick play: a seat now; a staked table needs this browser's client seed (made here). */
  const quick = document.getElementById("quick-form");
  if (quick) {
    /* The "Sit and wait" offer is for the amount it names: it goes as soon as the box changes
       (a tap must never stake an amount the box no longer shows), and with any error. */
    const dropOffer = () => {
      const wait = $("#quick-wait");
      wait.hidden = true;
      wait.replaceChildren();
    };
    quick.stake.addEventListener("input", dropOffer);
    quick.addEventListener("submit", async (e) => {
      e.preventDefault();
      const box = $("#quick-notice");
      dropOffer();
      const typed = quick.stake.value;
      const read = T.readMoney(typed || "0", maxStake);
      if (read.error) {
        notice(box, read.message);
        return;
      }
      const stake = read.amount;
      // The seat is chosen here but taken on the table page (#quick-seat-N): its Sit keeps the
      // match's commitment and the client seed in this browser first.
      const body = { stake, sit: false };
      const button = quick.querySelector("button[type=submit]");
      const wait = $("#quick-wait");
      button.disabled = true;
      notice(box, _("Finding a seat…"));
      try {
        const answer = await T.api("POST", "/api/quick-play/", body);
        if (stake && answer.waiting_for) {
          if (quick.stake.value !== typed) {
            // The box changed while the answer was on its way: no offer for an amount it no
            // longer shows.
            notice(box, "");
            button.disabled = false;
            return;
          }
          // A staked table waiting for players: the table page's Sit holds the stake, so the
          // player reads what happens first and sits with the button (or, seated there
          // already, is told so and goes to their table).
          notice(box, "");
          const seated = answer.table && answer.table.seats[answer.seat].is_me;
          const action = seated
            ? el("a", { class: "button primary", href: answer.url, "data-testid": "quick-your-table",
              text: _("Go to your table") })
            : el("button", { type: "button", class: "primary", "data-testid": "quick-sit-and-wait",
              text: interpolate(_("Sit and wait · stake %s"), [T.formatMoney(stake)]),
              onclick: (event) => sitAndWait(event.currentTarget, stake, answer, wait) });
          wait.replaceChildren(el("p", { dir: "auto", text: answer.notice }), el("p", {}, action));
          wait.hidden = false;
          button.disabled = false;
          if (answer.table) load(); // the list shows the table the answer names, as it is
          return;
        }
        window.location = answer.url + "#quick-seat-" + answer.seat;
      } catch (err) {
        if (err.status === 401) {
          window.location = cfg.loginUrl + "?next=" + encodeURIComponent(location.pathname);
          return;
        }
        notice(box, err.message);
        button.disabled = false;
      }
    });
  }

  /* "Sit and wait": the table page sits at the answer's seat; where the answer named no table
     (none waits at that stake), quick play is asked again (someone may wait now) and else the
     table is made here, the default variant at that stake, just before the page sits. */
  async function sitAndWait(sit, stake, answer, box) {
    if (sit.disabled) return;
    sit.disabled = true;
    try {
      let found = answer;
      if (!found.table) found = await T.api("POST", "/api/quick-play/", { stake, sit: false });
      if (!found.table) {
        const variant = specs.find((x) => x.name === "variant").default;
        const table = await T.api("POST", cfg.tablesUrl, { variant, stake, options: {} });
        found = { url: "/tables/" + table.id + "/", seat: 0 };
      }
      window.location = found.url + "#quick-seat-" + found.seat;
    } catch (err) {
      if (err.status === 401) {
        window.location = cfg.loginUrl + "?next=" + encodeURIComponent(location.pathname);
        return;
      }
      box.append(el("p", { class: "notice error", role: "alert", dir: "auto" }, ...T.messageNodes(err.message)));
      sit.disabled = false;
    }
  }

  /* Back from the table a press opened: the browser may show this page as it was left, its
     buttons still waiting for an answer that came (the back/forward cache). */
  window.addEventListener("pageshow", () => {
    for (const f of [form, quick]) {
      if (!f) continue;
      delete f.dataset.busy;
      f.querySelector("button[type=submit]").disabled = false;
    }
  });

  $("#refresh").addEventListener("click", load);
  load();
  setInterval(() => { if (!document.hidden) load(); }, 5000);
})();
