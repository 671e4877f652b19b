/* Shared helpers for the pages: calls to the tables API (JSON, session + CSRF), ids,
   client seeds, card and contract names. No build step: a classic script exposing `Trix`. */
(function () {
  "use strict";
  const Trix = (window.Trix = window.Trix || {});
  /* A classic script cannot import ../i18n.js (the modules' door to the translations): it
     reads the same catalog (Django's /jsi18n/, window.django) with the same English fallback. */
  const catalog = window.django;
  const _ = (text) => (catalog ? catalog.gettext(text) : text);
  const interpolate = (format, values) =>
    catalog ? catalog.interpolate(format, values) : format.replace(/%s/g, () => String(values.shift()));
  const rtl = document.documentElement.dir === "rtl";
  const arabic = (document.documentElement.lang || "en").split("-")[0] === "ar";

  function cookie(name) {
    const m = document.cookie.match("(?:^|; )" + name + "=([^;]*)");
    return m ? decodeURIComponent(m[1]) : null;
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return (input && input.value) || cookie("csrftoken") || "";
  }

  class ApiError extends Error {
    constructor(message, status, code, retryAfter) {
      super(message);
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter; // ms the server asked us to wait (Retry-After), or null
    }
  }

  /* The answer's Retry-After in milliseconds (whole seconds, as the server sends it), or null;
     plus up to a fifth more at random, so that pages told the same wait do not all come back
     at the same moment. */
  function retryAfterMs(res) {
    const value = res.headers.get("Retry-After");
    if (value === null || !/^\d+$/.test(value.trim())) return null;
    return Number(value) * 1000 * (1 + Math.random() / 5);
  }

  /* fetch JSON; throws ApiError with the server's clear message on a non-2xx answer (its
     retryAfter set from Retry-After: a 429 or 503 says when to come back). opts.onRetryAfter
     (ms) is called when a successful answer says when to come back: a long poll answered at
     once because the client holds its share of waits (games/waits.py). */
  async function api(method, url, body, opts) {
    const init = {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal: opts && opts.signal,
    };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.headers["X-CSRFToken"] = csrfToken();
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, init);
    } catch (err) {
      if (err.name === "AbortError") throw err;
      throw new ApiError(_("The server cannot be reached. Check your connection."), 0, "network");
    }
    let data = null;
    const text = await res.text();
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (e) {
        data = null;
      }
    }
    const retryAfter = retryAfterMs(res);
    if (res.ok && retryAfter !== null && opts && opts.onRetryAfter) opts.onRetryAfter(retryAfter);
    if (res.ok && movesMoney(method, url)) refreshBalance();
    if (!res.ok) {
      let message = data && (data.error || data.detail);
      if (!message && data && typeof data === "object") {
        message = Object.entries(data)
          .map(([k, v]) => k + ": " + (Array.isArray(v) ? v.join(" ") : v))
          .join("; ");
      }
      if (res.status === 401 || res.status === 403) {
        message = message || _("Log in to do that.");
      }
      throw new ApiError(message || interpolate(_("Request failed (%s)."), [res.status]), res.status,
        (data && data.code) || String(res.status), retryAfter);
    }
    return data;
  }

  function randomHex(bytes) {
    const buf = new Uint8Array(bytes);
    crypto.getRandomValues(buf);
    return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /* A v4 UUID from crypto.getRandomValues (crypto.randomUUID needs a secure context). */
  function uuid() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" +
      h.slice(16, 20) + "-" + h.slice(20);
  }

  const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const SUIT_NAME = { C: _("clubs"), D: _("diamonds"), H: _("hearts"), S: _("spades") };
  /* Hand order: suits alternate colour (♠ ♥ ♣ ♦), ranks low to high. */
  const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

  function rankText(r) {
    return r === "T" ? "10" : r;
  }

  function cardLabel(code) {
    return rankText(code[0]) + SUIT_SYMBOL[code[1]];
  }

  /* The ranks, low to high ("23456789TJQKA"): the engine's (games.engine.cards), served with
     the page's names (web.names.js_names). */
  function ranks() {
    return names().ranks;
  }

  function sortHand(codes) {
    const order = ranks();
    return codes.slice().sort((a, b) =>
      SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || order.indexOf(a[0]) - order.indexOf(b[0]));
  }

  /* A card element (a <button> when clickable). */
  function cardEl(code, opts) {
    opts = opts || {};
    const el = document.createElement(opts.button ? "button" : "span");
    if (opts.button) el.type = "button";
    el.className = "card suit-" + code[1] + (code[1] === "H" || code[1] === "D" ? " red" : "");
    if (opts.small) el.classList.add("small");
    el.dataset.card = code;
    el.setAttribute("aria-label", interpolate(_("%s of %s"), [rankText(code[0]), SUIT_NAME[code[1]]]));
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankText(code[0]);
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUIT_SYMBOL[code[1]];
    el.append(rank, suit);
    return el;
  }

  function backEl(small) {
    const el = document.createElement("span");
    el.className = "card back" + (small ? " small" : "");
    el.setAttribute("aria-hidden", "true");
    return el;
  }

  function names() {
    if (!Trix._names) {
      const node = document.getElementById("trix-names");
      Trix._names = node ? JSON.parse(node.textContent) : { contracts: {}, variants: {}, terms: {} };
    }
    return Trix._names;
  }

  /* "King of Hearts · شايب الهاص" as an element with the Arabic part marked up; on an Arabic
     page the Arabic name alone (web.names shows them the same way). */
  function bilingual(kind, code) {
    const entry = names()[kind][code];
    const span = document.createElement("span");
    span.className = "bilingual";
    if (!entry) {
      span.textContent = code || "";
      return span;
    }
    if (arabic) {
      span.textContent = entry.ar;
      return span;
    }
    const en = document.createElement("span");
    en.textContent = entry.en;
    const ar = document.createElement("span");
    ar.lang = "ar";
    ar.dir = "rtl";
    ar.textContent = entry.ar;
    span.append(en, " · ", ar);
    return span;
  }

  /* Money is integer minor units; the currency and its decimals come from the server
     (settings.TRIX_CURRENCY / TRIX_CURRENCY_DECIMALS, as data attributes of <body>). */
  function currency() {
    const cfg = document.body.dataset;
    return { code: cfg.currency, decimals: parseInt(cfg.currencyDecimals, 10) };
  }

  /* Text that reads left to right (an amount, a date and time) isolated as such on a
     right-to-left page (U+2066 ... U+2069): the page's direction would reorder its parts. */
  function ltr(text) {
    return rtl ? "\u2066" + text + "\u2069" : text;
  }

  /* 123456 -> "1,234.56 USD": exactly as the server writes it (wallet.selectors.format_money),
     Western digits in both languages, wrapped in directional isolates on a right-to-left page. */
  function formatMoney(amount) {
    const { code, decimals } = currency();
    const unit = Math.pow(10, decimals);
    const abs = Math.abs(amount);
    const whole = String(Math.floor(abs / unit)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const frac = decimals ? "." + String(abs % unit).padStart(decimals, "0") : "";
    return ltr((amount < 0 ? "-" : "") + whole + frac + " " + code);
  }

  /* A typed amount -> {amount} in minor units (0 included) or {error, message}: the site's
     one rule (TrixAmount, web/static/web/amount.js, loaded before this script on the pages
     that read amounts; the server's wallet.forms.parse_amount), the message in the page's
     language. ``most``: the cap that applies (a stake's TRIX_MAX_STAKE), named by the refusal
     of a larger amount; without it, the most one amount may be (TrixAmount.MAX_AMOUNT). */
  function readMoney(text, most) {
    const { code, decimals } = currency();
    const cap = Math.min(most || window.TrixAmount.MAX_AMOUNT, window.TrixAmount.MAX_AMOUNT);
    let read = window.TrixAmount.parse(text, decimals);
    if (!read.error && read.amount > cap) read = { error: "too_large" };
    if (!read.error) return read;
    const messages = {
      empty: () => _("Enter an amount."),
      negative: () => _("The amount cannot be negative."),
      thousands: () => _("Write the amount without a thousands separator, like 1000 or 1000.50."),
      comma: () => _("Use a point for decimals, like 20.50 (not a comma: 20,50)."),
      decimals: () =>
        interpolate(
          catalog
            ? catalog.ngettext(
                "Too many decimal places (at most %s).",
                "Too many decimal places (at most %s).",
                decimals,
              )
            : "Too many decimal places (at most %s).",
          [decimals],
        ),
      too_large: () =>
        interpolate(_("The amount must be at most %s."), [formatMoney(cap)]),
      invalid: () => interpolate(_("Enter an amount in %s, like 20 or 20.50."), [code]),
    };
    return { error: read.error, message: messages[read.error]() };
  }

  /* A typed amount -> minor units, or null when readMoney refuses it. */
  function parseMoney(text) {
    const read = readMoney(text);
    return read.error ? null : read.amount;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c);
    }
    return node;
  }

  /* The site paths a message may name and the words their links say, {path: text}
     (web/links.py's list in the page's language, passed with the page's names; the API's
     messages stay plain text). */
  function linkedPages() {
    return Object.fromEntries(names().links || [["/wallet/", "/wallet/"]]);
  }

  /* "... Add money in /wallet/." -> [text, <a href="/wallet/">your wallet</a>, "."]: nodes
     to append. */
  function messageNodes(text) {
    const pages = linkedPages();
    const paths = Object.keys(pages);
    const out = [];
    let rest = String(text || "");
    while (rest) {
      let at = -1;
      let hit = null;
      for (const p of paths) {
        const i = rest.indexOf(p);
        if (i >= 0 && (at < 0 || i < at)) [at, hit] = [i, p];
      }
      if (!hit) {
        out.push(rest);
        break;
      }
      if (at) out.push(rest.slice(0, at));
      out.push(el("a", { href: hit, text: pages[hit] }));
      rest = rest.slice(at + hit.length);
    }
    return out;
  }

  /* A notice box showing a message (its site paths as links); hidden when there is none. */
  function showMessage(box, text) {
    box.replaceChildren(...messageNodes(text));
    box.hidden = !text;
  }

  /* The header's balance ([data-testid=nav-balance], web.context_processors.site) goes stale
     when money moves while a page stays open: a stake, a refund, a payout. It is
     read again from GET /api/wallet/ after every answer that moved the player's money (below),
     when a tab comes back into view, and when the page is shown from the back/forward cache.
     The amount is the element [data-testid=nav-balance-amount] inside it when the header has
     one, else the amount at the end of its text; GET /api/wallet/'s in_play fills
     [data-testid=nav-in-play] when there is one. */
  const WALLET_API = "/api/wallet/";
  const MONEY_PATHS = [
    /^\/api\/tables\/\d+\/(seats|leave)\/$/, // stake, refund, forfeit (POST)
    /^\/tables\/\d+\/payout\.json$/, // the table page reads the payout once settled (GET)
  ];

  function movesMoney(method, url) {
    let path;
    try {
      path = new URL(url, location.href).pathname;
    } catch (e) {
      return false;
    }
    return MONEY_PATHS.some((re, i) => re.test(path) && (i > 0 || method !== "GET"));
  }

  let balanceCall = null;
  async function refreshBalance() {
    const box = document.querySelector("[data-testid=nav-balance]");
    if (!box) return null;
    if (balanceCall) return balanceCall;
    balanceCall = (async () => {
      try {
        const res = await fetch(WALLET_API, {
          credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store",
        });
        if (!res.ok) return null;
        const data = await res.json();
        showBalance(box, data.balance, data.in_play);
        return data.balance;
      } catch (e) {
        return null; // offline: the next change or visit reads it again
      } finally {
        balanceCall = null;
      }
    })();
    return balanceCall;
  }

  /* The amount in the header; and what is held in open escrows ([data-testid=nav-in-play],
     when the header has one; hidden at 0). */
  function showBalance(box, amount, inPlay) {
    const text = formatMoney(amount);
    const inner = box.querySelector("[data-testid=nav-balance-amount]");
    if (inner) {
      inner.textContent = text;
    } else {
      const last = Array.from(box.childNodes).reverse().find((n) => n.nodeType === 3 && n.textContent.trim());
      const amountAtEnd = /-?[\d,.]+\s+\S+\s*$/;
      if (last && amountAtEnd.test(last.textContent)) {
        last.textContent = last.textContent.replace(amountAtEnd, text);
      } else {
        box.append(" " + text);
      }
    }
    box.dataset.balance = String(amount);
    const held = document.querySelector("[data-testid=nav-in-play]");
    if (held && inPlay !== undefined) {
      held.textContent = inPlay ? formatMoney(inPlay) : "";
      held.hidden = !inPlay;
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshBalance();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refreshBalance();
  });

  Object.assign(Trix, {
    api, ApiError, uuid, randomHex, cardEl, backEl, cardLabel, sortHand, bilingual,
    formatMoney, parseMoney, readMoney, ltr, names, el, SUIT_SYMBOL, ranks,
    messageNodes, showMessage, refreshBalance,
  });
})();
