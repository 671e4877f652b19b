/* The table page: long-polls GET /api/tables/{id}/state/?since=V and renders the seat's
   view (games.engine.views.view); posts actions to /api/tables/{id}/actions/.
   The shapes are in notes' API contract and games/engine/views.py. */
(function () {
  "use strict";
  const T = window.Trix;
  const el = T.el;
  const root = document.getElementById("table-app");
  if (!root) return;
  const cfg = root.dataset;
  const $ = (sel) => root.querySelector(sel);

  const st = {
    version: 0,
    table: null,
    view: null,
    mySeat: null,
    deadline: null,
    clockSkew: 0, // server_time - local time, ms
    deals: [], // deal_ended events: {deal, contract, scores, totals, deal_id}
    dealIds: {}, // deal number -> deal id (from seed_revealed events)
    settled: false,
    payout: null, // {"pot", "payouts": [{"user_id", "name", "amount"}]} once settled
    log: [],
    selected: new Set(), // cards selected for doubling
    doublingKey: null,
    sending: false,
    stopped: false,
  };

  /* ---------------------------------------------------------------- helpers */

  function seatName(seat) {
    const s = st.table && st.table.seats[seat];
    if (!s || !s.kind) return "Seat " + (seat + 1);
    if (s.kind === "bot") return "Bot " + (seat + 1);
    return s.name || "Seat " + (seat + 1);
  }

  function nameEl(seat, extra) {
    const s = st.table && st.table.seats[seat];
    return el("span", { class: "name", dir: "auto", text: seatName(seat) },
      s && s.kind === "bot" ? el("span", { class: "badge", text: s.bot || "bot" }) : null, extra || null);
  }

  function position(seat) {
    const me = st.mySeat === null || st.mySeat === undefined ? 0 : st.mySeat;
    return ["bottom", "right", "top", "left"][(seat - me + 4) % 4];
  }

  function partnership() {
    return Boolean(st.table && st.table.partnership);  /* the server's (Options.partnership) */
  }

  function notice(text, kind) {
    const box = $("#notice");
    box.textContent = text || "";
    box.className = "notice" + (text ? " " + (kind || "error") : "");
    box.hidden = !text;
  }

  function legal() {
    return (st.view && st.view.legal) || [];
  }

  /* ---------------------------------------------------------------- actions */

  function stillLegal(action) {
    return legal().some((a) => a.type === action.type &&
      (a.card === undefined || a.card === action.card) &&
      (a.contract === undefined || a.contract === action.contract) &&
      (a.cards === undefined || JSON.stringify(a.cards.slice().sort()) === JSON.stringify((action.cards || []).slice().sort())));
  }

  async function send(action) {
    if (st.sending) return;
    st.sending = true;
    root.classList.add("sending");
    try {
      try {
        await T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action });
      } catch (err) {
        if (err.status !== 409) throw err;
        // The table moved on since our last state (a bot, a Ready, a pick): catch up, and
        // send again only if the move is still legal.
        absorb(await T.api("GET", cfg.stateUrl + "?since=" + st.version + "&wait=0"));
        if (!stillLegal(action)) throw err;
        await T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action });
      }
      notice("");
    } catch (err) {
      notice(err.message);
    } finally {
      st.sending = false;
      root.classList.remove("sending");
    }
  }

  /* Simultaneous doubling: tell the server the current pick, so a timeout commits it (000).
     Ready still sends the pick itself; a failed select only loses that timeout fallback. */
  function selectDoubles() {
    const d = st.view && st.view.doubling;
    if (!d || d.mode !== "simultaneous") return;
    const cards = Array.from(st.selected);
    T.api("POST", cfg.actionsUrl, { id: T.uuid(), version: st.version, action: { type: "select", cards } })
      .catch((err) => console.warn("select not sent:", err.message));
  }

  async function tableCall(url, body) {
    try {
      const table = await T.api("POST", url, body);
      notice("");
      if (table && table.seats) {
        st.table = table;
        render();
      }
    } catch (err) {
      if (err.status === 401) {
        window.location = cfg.loginUrl + "?next=" + encodeURIComponent(location.pathname);
        return;
      }
      notice(err.message);
    }
  }

  /* ---------------------------------------------------------------- pre-start */

  function renderSeating() {
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
        el("span", { class: "seat-no", text: "Seat " + (i + 1) + (partnership() ? (i % 2 ? " · team B" : " · team A") : "") }));
      if (s.kind) {
        li.append(nameEl(i));
        if (s.staked) li.append(el("span", { class: "staked", text: "staked " + T.formatMoney(s.staked) }));
        if (s.is_me) {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "leave",
            text: "Leave", onclick: () => tableCall(cfg.leaveUrl, {}) }));
        }
      } else {
        li.append(el("span", { class: "empty", text: "empty" }));
        if (!mine) {
          li.append(el("button", { type: "button", class: "primary", "data-testid": "sit-" + i,
            text: t.stake ? "Sit · stake " + T.formatMoney(t.stake) : "Sit",
            onclick: () => sit(i) }));
        }
        if (isCreator) {
          li.append(el("button", { type: "button", class: "secondary", "data-testid": "bot-" + i,
            text: "Seat a bot", onclick: () => tableCall(cfg.botsUrl, { seat: i, bot: "rules" }) }));
        }
      }
      list.append(li);
    });
    $("#seed-box").hidden = mine || cfg.authenticated !== "1";
    $("#login-to-sit").hidden = cfg.authenticated === "1";
  }

  function sit(seat) {
    const input = $("#client-seed");
    let seed = input.value.trim();
    if (!seed) {
      seed = T.randomHex(16);
      input.value = seed;
    }
    const shown = $("#seed-used");
    shown.textContent = seed;
    tableCall(cfg.seatsUrl, { seat, client_seed: seed });
  }

  /* ---------------------------------------------------------------- the felt */

  function renderSeats() {
    const v = st.view;
    const toAct = v ? v.to_act || [] : [];
    for (let seat = 0; seat < 4; seat++) {
      const box = $(".seat-box.pos-" + position(seat));
      box.dataset.seat = String(seat);
      box.classList.toggle("to-act", toAct.includes(seat));
      box.classList.toggle("me", seat === st.mySeat);
      box.classList.toggle("owner", v && v.owner === seat);
      const head = el("div", { class: "seat-head" }, nameEl(seat));
      if (v && v.owner === seat) head.append(el("span", { class: "badge owner", text: "owner" }));
      if (partnership()) head.append(el("span", { class: "badge team", text: seat % 2 ? "B" : "A" }));
      const facts = el("div", { class: "seat-facts" });
      if (v) {
        facts.append(el("span", { class: "total", title: "match total", "data-testid": "total-" + seat,
          text: String(v.totals[String(seat)]) }));
        if (v.deal_scores) facts.append(el("span", { class: "deal-score", title: "this deal",
          text: "deal " + v.deal_scores[String(seat)] }));
        if (v.tricks_taken) facts.append(el("span", { title: "tricks taken",
          text: v.tricks_taken[String(seat)] + (v.tricks_taken[String(seat)] === 1 ? " trick" : " tricks") }));
        if (v.hand_counts && seat !== st.mySeat) facts.append(el("span", { class: "count",
          title: "cards in hand", text: v.hand_counts[String(seat)] + " cards" }));
        if (v.out && v.out.includes(seat)) facts.append(el("span", { class: "badge out",
          text: "out #" + (v.out.indexOf(seat) + 1) }));
        if (toAct.includes(seat)) facts.append(el("span", { class: "clock", "data-clock": "1" }));
      }
      const shownRow = el("div", { class: "shown" });
      const shown = (v && v.shown && v.shown[String(seat)]) || [];
      const doubled = new Set((v && v.doubles && v.doubles[String(seat)]) || []);
      for (const code of T.sortHand(shown)) {
        const c = T.cardEl(code, { small: true });
        if (doubled.has(code)) {
          c.classList.add("doubled");
          c.title = "doubled";
        }
        shownRow.append(c);
      }
      if (doubled.size) {
        shownRow.append(el("span", { class: "badge double" }, T.bilingual("terms", "double"),
          " " + Array.from(doubled).map(T.cardLabel).join(" ")));
      }
      box.replaceChildren(head, facts, shownRow);
    }
  }

  function trickCards(trick, cls) {
    const wrap = el("div", { class: cls });
    if (!trick) return wrap;
    for (const { seat, card } of trick.cards) {
      const c = T.cardEl(card);
      c.classList.add("at-" + position(seat));
      if (trick.taker === seat) c.classList.add("taker");
      wrap.append(c);
    }
    return wrap;
  }

  function renderCenter() {
    const v = st.view;
    const center = $("#center");
    center.replaceChildren();
    if (!v) {
      center.append(el("p", { class: "waiting", text: st.table && st.table.status === "open"
        ? "Waiting for four players." : "Waiting for the deal." }));
      return;
    }
    if (v.layout) {
      const rows = el("div", { class: "layout", "data-testid": "layout" });
      for (const suit of ["S", "H", "C", "D"]) {
        const row = v.layout[suit];
        const line = el("div", { class: "row", dataset: { suit } },
          el("span", { class: "row-suit" + (suit === "H" || suit === "D" ? " red" : ""), text: T.SUIT_SYMBOL[suit] }));
        if (!row) {
          line.append(el("span", { class: "closed", text: "needs the jack" }));
        } else {
          const ranks = T.ranks();
          const lo = ranks.indexOf(row.low[0]);
          const hi = ranks.indexOf(row.high[0]);
          const cards = el("span", { class: "row-cards" });
          for (let r = lo; r <= hi; r++) cards.append(T.cardEl(ranks[r] + suit, { small: true }));
          line.append(cards);
        }
        rows.append(line);
      }
      center.append(rows);
    } else {
      const trick = trickCards(v.trick, "trick");
      trick.dataset.testid = "trick";
      center.append(trick);
    }
    if (v.last_trick && !v.layout) {
      const last = el("div", { class: "last-trick" },
        el("span", { class: "label", text: "Last trick → " }), nameEl(v.last_trick.taker));
      const cards = el("div", { class: "mini" });
      for (const { card } of v.last_trick.cards) cards.append(T.cardEl(card, { small: true }));
      last.append(cards);
      center.append(last);
    }
  }

  /* ---------------------------------------------------------------- status and actions */

  function contractLine() {
    const v = st.view;
    const line = $("#contract-line");
    line.replaceChildren();
    if (!v) return;
    line.append(el("span", { text: "Deal " + Math.max(v.deal_number, 1) + "/" + v.deals_per_match + " · kingdom " + v.kingdom + " of " }),
      v.owner !== null ? nameEl(v.owner) : "—");
    if (v.contract) {
      line.append(el("span", { text: " · " }), el("strong", { "data-testid": "contract" }, T.bilingual("contracts", v.contract)));
    }
  }

  function statusText() {
    const v = st.view;
    const t = st.table;
    if (!t) return "Loading…";
    if (t.status === "open") return "The match starts when all four seats are taken.";
    if (t.status === "cancelled") return "This table was cancelled.";
    if (!v) return "Dealing…";
    if (v.phase === "over") return "The match is over.";
    const toAct = v.to_act || [];
    const mine = st.mySeat !== null && toAct.includes(st.mySeat);
    if (v.phase === "choose") {
      return mine ? "Your kingdom: choose a contract." : seatName(v.owner) + " is choosing a contract.";
    }
    if (v.phase === "double") {
      if (mine) return "Double a card or say Ready.";
      return "Doubling: waiting for " + toAct.map(seatName).join(", ") + ".";
    }
    if (v.phase === "play") {
      if (mine) {
        return legal().some((a) => a.type === "pass") ? "No card fits: pass." : "Your turn: play a card.";
      }
      return toAct.length ? seatName(toAct[0]) + " to play." : "";
    }
    return "";
  }

  /* True when `box` already shows what `key` describes: then it is left alone, so a button
     is not rebuilt under the player's finger by an unrelated update. */
  function unchanged(box, key) {
    const sig = JSON.stringify(key);
    if (box.dataset.sig === sig) return true;
    box.dataset.sig = sig;
    return false;
  }

  function renderActions() {
    const v = st.view;
    const panel = $("#actions");
    $("#status").textContent = statusText();
    if (unchanged(panel, [st.mySeat, v && v.phase, legal(), Array.from(st.selected),
      v && v.doubling && v.doubling.mine, v && v.deal_number])) return;
    panel.replaceChildren();
    if (!v || st.mySeat === null) return;
    const acts = legal();
    const contracts = acts.filter((a) => a.type === "contract");
    if (contracts.length) {
      const group = el("div", { class: "choices", role: "group", "aria-label": "Choose a contract" });
      for (const a of contracts) {
        group.append(el("button", { type: "button", class: "primary contract-choice",
          "data-contract": a.contract, onclick: () => send({ type: "contract", contract: a.contract }) },
          T.bilingual("contracts", a.contract)));
      }
      panel.append(group);
    }
    if (v.phase === "double" && v.doubling) {
      const d = v.doubling;
      const key = v.deal_number + ":" + v.contract;
      if (st.doublingKey !== key) {
        st.doublingKey = key;
        st.selected = new Set(d.selected || []);
      }
      if (acts.some((a) => a.type === "double")) {
        const doublable = d.doublable || [];
        const chosen = Array.from(st.selected).filter((c) => doublable.includes(c));
        panel.append(el("div", { class: "doubling" },
          el("p", { text: doublable.length
            ? "Tap a card marked in your hand to double it (" + doublable.map(T.cardLabel).join(", ") +
              "), then Ready."
            : "You hold nothing to double." }),
          el("button", { type: "button", class: "primary", "data-testid": "ready",
            text: chosen.length ? "Ready · double " + chosen.map(T.cardLabel).join(" ") : "Ready",
            onclick: () => send({ type: "double", cards: chosen }) })));
      } else if (d.mine) {
        panel.append(el("p", { text: d.mine.length ? "You doubled " + d.mine.map(T.cardLabel).join(", ") + "." : "You are ready." }));
      }
    }
    if (acts.some((a) => a.type === "pass")) {
      panel.append(el("button", { type: "button", class: "primary", "data-testid": "pass", text: "Pass",
        onclick: () => send({ type: "pass" }) }));
    }
  }

  function renderHand() {
    const v = st.view;
    const box = $("#hand");
    if (unchanged(box, [st.mySeat, v && v.hand, v && v.hand_face_down, v && v.hand_counts, legal(),
      v && v.phase, Array.from(st.selected), v && v.shown, v && v.doubles])) return;
    box.replaceChildren();
    box.hidden = st.mySeat === null || st.mySeat === undefined || !v ||
      (!v.hand_face_down && !(v.hand || []).length);
    if (box.hidden) return;
    if (v.hand_face_down) {
      const n = (v.hand_counts && v.hand_counts[String(st.mySeat)]) || 13;
      for (let i = 0; i < n; i++) box.append(T.backEl());
      box.append(el("p", { class: "hint", text: "Your hand is face down until the contract is announced." }));
      return;
    }
    const hand = v.hand || [];
    const acts = legal();
    const playable = new Set(acts.filter((a) => a.type === "play").map((a) => a.card));
    const doubling = v.phase === "double" && acts.some((a) => a.type === "double");
    const doublable = new Set(doubling && v.doubling ? v.doubling.doublable || [] : []);
    const shownMine = new Set((v.shown && v.shown[String(st.mySeat)]) || []);
    const doubledMine = new Set((v.doubles && v.doubles[String(st.mySeat)]) || []);
    let lastSuit = null;
    for (const code of T.sortHand(hand)) {
      const clickable = playable.has(code) || doublable.has(code);
      const c = T.cardEl(code, { button: clickable });
      if (lastSuit && lastSuit !== code[1]) c.classList.add("suit-break");
      lastSuit = code[1];
      if (playable.has(code)) {
        c.classList.add("playable");
        c.addEventListener("click", () => send({ type: "play", card: code }));
      }
      if (doublable.has(code)) {
        c.classList.add("doublable");
        c.setAttribute("aria-pressed", st.selected.has(code) ? "true" : "false");
        if (st.selected.has(code)) c.classList.add("selected");
        c.addEventListener("click", () => {
          if (st.selected.has(code)) st.selected.delete(code);
          else st.selected.add(code);
          renderHand();
          renderActions();
          selectDoubles();
        });
      }
      if (shownMine.has(code)) c.classList.add("face-up");
      if (doubledMine.has(code)) c.classList.add("doubled");
      box.append(c);
    }
  }

  /* ---------------------------------------------------------------- scores and results */

  function verifyDealUrl(d) {
    if (d.deal_id) return cfg.verifyDealUrl.replace(/0\/$/, d.deal_id + "/");
    return cfg.verifyMatchUrl + "#deal-" + d.deal;
  }

  async function loadPayout() {
    if (!cfg.payoutUrl) return;
    try {
      st.payout = await T.api("GET", cfg.payoutUrl);
      renderResult();
    } catch (err) {
      notice(err.message);
    }
  }

  function renderScores() {
    const v = st.view;
    const box = $("#scores");
    box.replaceChildren();
    if (!v) return;
    const table = el("table", { class: "scores", "data-testid": "scores" });
    const head = el("tr", {}, el("th", { text: "Seat" }), el("th", { text: "Total" }));
    if (v.deal_scores) head.append(el("th", { text: "This deal" }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    for (let s = 0; s < 4; s++) {
      const row = el("tr", { class: s === st.mySeat ? "me" : "" }, el("td", {}, nameEl(s)),
        el("td", { class: "num", text: String(v.totals[String(s)]) }));
      if (v.deal_scores) row.append(el("td", { class: "num", text: String(v.deal_scores[String(s)]) }));
      body.append(row);
    }
    table.append(body);
    box.append(el("h2", { text: "Scores" }), table);
    if (v.teams) {
      const team = (label, a, b, key) => el("li", {}, label + " (",
        nameEl(a), " + ", nameEl(b), "): ", el("strong", { text: String(v.teams[key]) }));
      box.append(el("ul", { class: "teams", "data-testid": "teams" },
        team("Team A", 0, 2, "0+2"), team("Team B", 1, 3, "1+3")));
    }
    const kingdom = el("div", { class: "kingdom" });
    kingdom.append(el("h3", {}, "Kingdom " + v.kingdom + " of 4" + (v.owner !== null ? " · " : ""),
      v.owner !== null ? nameEl(v.owner) : ""));
    const ul = el("ul", { class: "contracts" });
    const played = new Set(v.played || []);
    const all = (v.played || []).concat((v.remaining || []).filter((c) => !played.has(c)));
    for (const c of all) {
      const now = c === v.contract && v.phase !== "over" && v.phase !== "deal";
      const state = now ? "now" : played.has(c) ? "played" : "to play";
      ul.append(el("li", { class: state.replace(" ", "-"), title: state },
        now ? "▶ " : played.has(c) ? "✓ " : "○ ", T.bilingual("contracts", c)));
    }
    kingdom.append(ul);
    box.append(kingdom);
    if (st.deals.length) {
      const list = el("table", { class: "deals", "data-testid": "deals" });
      list.append(el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: "Contract" }),
        ...[0, 1, 2, 3].map((s) => el("th", { class: "num" }, el("span", { class: "name", dir: "auto", text: seatName(s) }))),
        el("th", { text: "" }))));
      const tb = el("tbody");
      for (const d of st.deals) {
        tb.append(el("tr", {}, el("td", { text: String(d.deal) }),
          el("td", {}, T.bilingual("contracts", d.contract)),
          ...[0, 1, 2, 3].map((s) => el("td", { class: "num", text: String(d.scores[String(s)]) })),
          el("td", {}, el("a", { href: verifyDealUrl(d), class: "verify", "data-testid": "verify-deal" },
            T.bilingual("terms", "verify")))));
      }
      list.append(tb);
      box.append(el("h3", { text: "Deals" }), list);
    }
  }

  /* The pot's settlement from the ledger (web's payout endpoint), once the table settled. */
  function payoutLines() {
    if (!st.payout || !st.payout.payouts) return [];
    return st.payout.payouts.map((p) => {
      const seat = st.table.seats.findIndex((s) => s.user_id === p.user_id);
      return [seat >= 0 ? seatName(seat) : p.name, p.amount];
    });
  }

  function renderResult() {
    const box = $("#result");
    const v = st.view;
    const t = st.table;
    const r = (v && v.result) || (t && t.result && t.result.match) || null;
    box.hidden = !r && !(t && t.status === "finished");
    box.replaceChildren();
    if (box.hidden) return;
    box.append(el("h2", { text: "Match result" }));
    if (r) {
      const ranking = [0, 1, 2, 3].sort((a, b) => r.placements[String(a)] - r.placements[String(b)]);
      const ol = el("ul", { class: "placements" });
      for (const s of ranking) {
        ol.append(el("li", {}, el("span", { class: "place", text: "#" + r.placements[String(s)] + " " }),
          nameEl(s), el("span", { class: "num", text: " " + r.scores[String(s)] })));
      }
      box.append(ol);
      if (r.teams) {
        box.append(el("p", { "data-testid": "winner", text: r.draw
          ? "Draw: " + r.teams["0+2"] + " to " + r.teams["1+3"] + "."
          : (r.winner === "0+2" ? "Team A wins, " + r.teams["0+2"] + " to " + r.teams["1+3"]
            : "Team B wins, " + r.teams["1+3"] + " to " + r.teams["0+2"]) + "." }));
      }
      if (r.forfeit !== null && r.forfeit !== undefined) {
        box.append(el("p", { text: seatName(r.forfeit) + " left the table: forfeit." }));
      }
    }
    const pay = payoutLines();
    if (t && t.stake) {
      const pot = el("div", { class: "payout", "data-testid": "payout" },
        el("h3", { text: "Payout" }));
      if (pay.length) {
        const ul = el("ul");
        for (const [who, amount] of pay) ul.append(el("li", {}, el("span", { dir: "auto", text: who }), ": " + T.formatMoney(amount)));
        pot.append(ul);
      } else {
        pot.append(el("p", { text: t.status === "finished" ? "Settling the pot…" : "Paid out when the match ends." }));
      }
      if (st.payout && st.payout.pot) {
        pot.append(el("p", { class: "help", text: "Pot " + T.formatMoney(st.payout.pot) +
          (st.payout.house_fee ? ", house fee " + T.formatMoney(st.payout.house_fee) : "") + "." }));
      }
      box.append(pot);
    } else if (t) {
      box.append(el("p", { "data-testid": "payout", text: "Casual table: no stakes, no payout." }));
    }
    box.append(el("p", {}, el("a", { href: cfg.verifyMatchUrl, "data-testid": "verify-match" },
      "Verify every shuffle of this match · ", el("span", { lang: "ar", dir: "rtl", text: "تحقق" }))));
  }

  function renderHeader() {
    const t = st.table;
    if (!t) return;
    $("#table-status").textContent = t.status;
    $("#table-status").className = "badge status-" + t.status;
    $("#table-stake").textContent = t.stake ? "Stake " + T.formatMoney(t.stake) : "Casual (no stake)";
    $("#spectating").hidden = st.mySeat !== null && st.mySeat !== undefined;
  }

  function render() {
    renderHeader();
    renderSeating();
    contractLine();
    renderSeats();
    renderCenter();
    renderActions();
    renderHand();
    renderScores();
    renderResult();
    tick();
  }

  /* ---------------------------------------------------------------- countdown */

  function tick() {
    const clocks = root.querySelectorAll("[data-clock]");
    let text = "";
    if (st.deadline) {
      const left = Math.max(0, Math.ceil((st.deadline - (Date.now() + st.clockSkew)) / 1000));
      text = left + " s";
    }
    clocks.forEach((c) => (c.textContent = text));
    const mine = $("#my-clock");
    const myTurn = st.view && st.mySeat !== null && (st.view.to_act || []).includes(st.mySeat);
    mine.textContent = myTurn && text ? text + " left" : "";
  }
  setInterval(tick, 250);

  /* ---------------------------------------------------------------- polling */

  function absorb(data) {
    if (data.server_time) st.clockSkew = Date.parse(data.server_time) - Date.now();
    if (st.table && data.version === st.version && !(data.events || []).length) {
      // Nothing new (a long poll that timed out): keep the page as it is, under the cursor.
      st.deadline = data.deadline ? Date.parse(data.deadline) : null;
      return;
    }
    st.version = data.version;
    st.table = data.table || st.table;
    st.view = data.view;
    st.mySeat = data.my_seat === undefined ? null : data.my_seat;
    if (data.server_time) st.clockSkew = Date.parse(data.server_time) - Date.now();
    st.deadline = data.deadline ? Date.parse(data.deadline) : null;
    for (const ev of data.events || []) {
      if (ev.type === "deal_ended" && !st.deals.some((d) => d.deal === ev.deal)) {
        st.deals.push(Object.assign({ deal_id: st.dealIds[ev.deal] || null }, ev));
      } else if (ev.type === "seed_revealed" && ev.deal_id) {
        // The deal's seed is public now: its verification page exists.
        st.dealIds[ev.deal] = ev.deal_id;
        const d = st.deals.find((x) => x.deal === ev.deal);
        if (d) d.deal_id = ev.deal_id;
      } else if (ev.type === "settled") {
        st.settled = true;
        loadPayout();
      }
    }
    root.dataset.version = String(st.version);
    root.dataset.phase = (st.view && st.view.phase) || (st.table && st.table.status) || "";
    render();
  }

  async function poll() {
    let delay = 0;
    while (!st.stopped) {
      try {
        const before = st.version;
        const data = await T.api("GET", cfg.stateUrl + "?since=" + st.version);
        if (data) absorb(data);
        delay = 0;
        if (!data || data.version === before) {
          // Nothing new (the server answered without holding): do not spin.
          await new Promise((r) => setTimeout(r, 400));
        }
        if (st.table && (st.table.status === "finished" || st.table.status === "cancelled") &&
            st.view && st.view.phase === "over") {
          // One more slow poll in case the payout lands after the match ends.
          await new Promise((r) => setTimeout(r, 2000));
        }
      } catch (err) {
        notice(err.message);
        delay = Math.min(delay ? delay * 2 : 500, 5000);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  $("#client-seed").value = T.randomHex(16);
  $("#new-seed").addEventListener("click", () => ($("#client-seed").value = T.randomHex(16)));
  poll();
})();
