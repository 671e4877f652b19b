/* The lobby: lists open tables (GET /api/tables/?status=open) and those playing, a page at
   a time (the API's pages, newest first: "Newer" / "Older"), creates a table (POST
   /api/tables/), leaves seats, seats bots; all through the tables API. A Sit opens the table
   page at that seat (the commitment is shown and kept there first). */
(function () {
  "use strict";
  const T = window.Trix;
  const el = T.el;
  const root = document.getElementById("lobby-app");
  if (!root) return;
  const cfg = root.dataset;
  const $ = (sel) => root.querySelector(sel);
  const specs = T.names().options || [];

  function notice(box, text) {
    box.textContent = text || "";
    box.hidden = !text;
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
      } else if (spec.kind === "bool") text = value ? "yes" : "no";
      else text = value ? value + " s" : "no timer";
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
    const parts = [timers.every((x) => !x) ? "No timers" : "Timers " + timers.map((x) => (x ? x + "s" : "—")).join(" / ")];
    for (const spec of specs) {
      if (spec.name === "variant" || spec.kind === "seconds") continue;
      if (o(spec.name) === spec.default) continue;
      const value = o(spec.name);
      const hit = spec.kind === "choice" ? spec.values.find((pair) => pair[0] === value) : null;
      parts.push(spec.label + ": " + (hit ? hit[1] : spec.kind === "bool" ? (value ? "yes" : "no") : value));
    }
    if (parts.length === 1) parts.push("default rules");
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

  function tableCard(t) {
    const mine = t.seats.some((s) => s.is_me);
    const isCreator = cfg.userId && t.created_by && String(t.created_by.id) === cfg.userId;
    const free = t.seats.filter((s) => !s.kind).length;
    const card = el("article", { class: "table-card", "data-table": String(t.id), "data-testid": "table-" + t.id });
    card.append(el("header", {},
      el("h3", {}, el("a", { href: "/tables/" + t.id + "/" }, "Table " + t.id), " ", T.bilingual("variants", t.variant)),
      el("p", { class: "meta" },
        el("span", { class: "stake", text: t.stake ? "Stake " + T.formatMoney(t.stake) : "Casual" }),
        el("span", { class: "badge status-" + t.status, text: t.status }),
        t.status === "open" ? el("span", { class: "free", text: free + " free seat" + (free === 1 ? "" : "s") }) : null,
        t.created_by ? el("span", { class: "creator" }, "by ", el("span", { dir: "auto", text: t.created_by.name })) : null)));
    const seats = el("ol", { class: "seat-list compact" });
    t.seats.forEach((s, i) => {
      const li = el("li", { class: "seat-row" }, el("span", { class: "seat-no", text: String(i + 1) }));
      if (s.kind) {
        li.append(s.kind === "bot"
          ? el("span", { class: "name", text: "Bot " + (i + 1) }, el("span", { class: "badge", text: s.bot || "bot" }))
          : el("span", { class: "name", dir: "auto", text: s.name }));
        if (s.is_me && t.status === "open") {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "leave-" + t.id,
            text: "Leave", onclick: () => call("/api/tables/" + t.id + "/leave/", {}, card.querySelector(".notice")) }));
        }
      } else if (t.status === "open") {
        li.append(el("span", { class: "empty", text: "free" }));
        if (!mine && cfg.authenticated === "1") {
          // Sitting happens on the table page: it shows the match's commitment first, makes the
          // client seed and keeps both in this browser to check the deals (issue 12).
          li.append(el("a", { class: "button primary", "data-testid": "sit-" + t.id + "-" + i,
            href: "/tables/" + t.id + "/#seat-" + i, text: "Sit…" }));
        }
        if (isCreator) {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "bot-" + t.id + "-" + i,
            text: "Bot", onclick: () => call("/api/tables/" + t.id + "/bots/", { seat: i, bot: "rules" },
              card.querySelector(".notice")) }));
        }
      }
      seats.append(li);
    });
    card.append(seats, el("p", { class: "notice", role: "alert", hidden: true }));
    card.append(el("p", { class: "options-summary", "data-testid": "options-summary", text: summary(t.options || {}) }));
    card.append(el("details", {}, el("summary", { text: "All table options" }), optionsList(t.options || {})));
    card.append(el("p", { class: "card-actions" }, el("a", { class: "button " + (mine ? "primary" : "secondary"),
      href: "/tables/" + t.id + "/", text: mine ? "Go to your table" : t.status === "open" ? "Open" : "Watch" })));
    return card;
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
    return el("nav", { class: "pager", "aria-label": status + " tables pages", "data-testid": "pager-" + status },
      el("button", { type: "button", class: "secondary", text: "‹ Newer", disabled: !data.previous,
        "data-testid": "newer-" + status, onclick: go(-1) }),
      el("span", { class: "page-no", "data-testid": "page-" + status, text: "Page " + pages[status] + " of " + total }),
      el("button", { type: "button", class: "secondary", text: "Older ›", disabled: !data.next,
        "data-testid": "older-" + status, onclick: go(1) }));
  }

  async function load() {
    const box = $("#table-list");
    try {
      const [open, playing] = await Promise.all([fetchPage("open"), fetchPage("playing")]);
      box.replaceChildren();
      const openList = open.results || [];
      if (!openList.length) box.append(el("p", { class: "empty", text: "No open tables. Create one below." }));
      openList.forEach((t) => box.append(tableCard(t)));
      const openPager = pager("open", open);
      if (openPager) box.append(openPager);
      const playingList = playing.results || [];
      if (playingList.length) {
        box.append(el("h2", { text: "Playing now" }));
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
      const stake = T.parseMoney(form.stake.value);
      if (stake === null) {
        say("Stake must be 0 or a positive amount, like 5 or 2.50.");
        return;
      }
      const options = {};
      for (const input of form.querySelectorAll("[data-option]")) {
        const kind = input.dataset.kind;
        if (kind === "bool") options[input.name] = input.checked;
        else if (kind === "seconds") {
          const n = Number(input.value);
          if (!Number.isInteger(n) || n < 0) {
            say(input.labels[0].textContent + " must be a whole number of seconds, 0 or more.");
            return;
          }
          options[input.name] = n;
        } else options[input.name] = input.value;
      }
      const body = { variant: options.variant, stake, options };
      try {
        const table = await T.api("POST", cfg.tablesUrl, body);
        window.location = "/tables/" + table.id + "/";
      } catch (err) {
        say(err.message);
      }
    });
  }

  $("#refresh").addEventListener("click", load);
  load();
  setInterval(() => { if (!document.hidden) load(); }, 5000);
})();
