/* What this browser keeps to check the shuffles itself, and the checks:
   before sitting, the match's commitment (with its match id, deal count and algorithm) as the
   page showed it and the client seed sent; during the match, the 13 cards dealt to the seat
   each deal (the seat's `hand` events); after each deal, verify.js's check of the deal's
   public record (/api/deals/{id}/record.json) against them, and log_check.js's check that
   the site's log now extends the checkpoint kept at the Sit and holds that record and the
   receipt kept.
   Kept in localStorage under "trix.fairness/1:<match id>:<commitment>", one JSON object:
     {match_id, commitment, deals, algorithm, table_id, seat, client_seed, saved_at,
      hands: {"<deal>": [13 codes]}, checkpoint?, public_key?, receipt?, signature?, keys?}
   checkpoint: the log's signed checkpoint (/fairness/checkpoint, its text) and public_key
   (/fairness/public-key.json's hex) fetched as the Sit is sent; receipt and signature: the
   match-start receipt as the table served it when the match started (else as the first deal
   checked carried it); keys: /fairness/keys.json, fetched when the receipt names another key
   than the one kept at the Sit (the site rotated its key in between). The verify page (web/static/web/verify_saved.js) puts them in its
   commands: what the player saved, never what the site shows later.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { T, cfg, redraw, st } from "./state.js";
import { checkLog } from "./log_check.js";
import { checkDeal, cryptoAvailable, keyIdOf } from "./verify.js";

const PREFIX = "trix.fairness/1:";

/* The match's commitment as the page was served with it (web.views.table). */
export function shown() {
  return { match_id: cfg.matchId, commitment: cfg.commitment, deals: Number(cfg.deals), algorithm: cfg.algorithm };
}

function store() {
  try {
    const s = window.localStorage;
    s.getItem(PREFIX);
    return s;
  } catch (err) {
    return null;
  }
}

export function storageAvailable() {
  return store() !== null;
}

/* The saved entry of this match ({...entry, key}) or null: the one under this commitment, else
   the newest saved under this match id (so a commitment that changed shows as a mismatch). */
export function saved() {
  const s = store();
  if (!s) return null;
  const info = shown();
  const exact = PREFIX + info.match_id + ":" + info.commitment;
  const keys = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && k.startsWith(PREFIX + info.match_id + ":")) keys.push(k);
  }
  let best = null;
  for (const k of keys) {
    let entry;
    try {
      entry = JSON.parse(s.getItem(k));
    } catch (err) {
      continue;
    }
    if (!entry || typeof entry !== "object") continue;
    entry.key = k;
    if (k === exact) return entry;
    if (!best || String(entry.saved_at) > String(best.saved_at)) best = entry;
  }
  return best;
}

function write(entry) {
  const s = store();
  if (!s) return;
  const { key, ...data } = entry;
  try {
    s.setItem(key, JSON.stringify(data));
  } catch (err) {
    console.warn("not saved:", err.message);
  }
}

const KEEP = 200; // matches kept; older entries are dropped when a new one is saved

function prune(s) {
  const entries = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (!k || !k.startsWith(PREFIX)) continue;
    let at = "";
    try {
      at = String(JSON.parse(s.getItem(k)).saved_at || "");
    } catch (err) {
      at = "";
    }
    entries.push([at, k]);
  }
  entries.sort();
  for (const [, k] of entries.slice(0, Math.max(0, entries.length - KEEP))) s.removeItem(k);
}

/* Before a Sit is sent: keep the commitment the page shows and the client seed. */
export function saveBeforeSit(seat, clientSeed) {
  const info = shown();
  const key = PREFIX + info.match_id + ":" + info.commitment;
  const old = saved();
  const hands = old && old.key === key ? old.hands || {} : {};
  write({ key, ...info, table_id: Number(cfg.tableId), seat, client_seed: clientSeed,
    saved_at: new Date().toISOString(), hands });
  const s = store();
  if (s) prune(s);
  keepLogState(key); // not awaited: the Sit does not wait for it
}

/* Add fields to the saved entry ``key`` unless it already has them (it may be gone). */
function keep(key, fields) {
  const s = store();
  if (!s) return;
  let entry;
  try {
    entry = JSON.parse(s.getItem(key));
  } catch (err) {
    return;
  }
  if (!entry || typeof entry !== "object") return;
  const added = Object.fromEntries(Object.entries(fields).filter(([k]) => entry[k] === undefined));
  if (Object.keys(added).length) write({ key, ...entry, ...added });
}

/* The log's checkpoint and the site's public key as they are at the Sit: a later log must
   still hold this checkpoint's entries (trix verify --checkpoint). Best effort. */
async function keepLogState(key) {
  const [checkpoint, keyInfo] = await Promise.allSettled([
    fetch("/fairness/checkpoint", { credentials: "same-origin" }).then((r) => (r.ok ? r.text() : null)),
    T.api("GET", "/fairness/public-key.json"),
  ]);
  // Each kept on its own: one that fails does not lose the other.
  if (checkpoint.status === "fulfilled" && checkpoint.value) keep(key, { checkpoint: checkpoint.value });
  if (keyInfo.status === "fulfilled" && keyInfo.value && keyInfo.value.public_key) {
    keep(key, { public_key: keyInfo.value.public_key });
  }
}

/* The match started: keep its receipt as the table serves it now, the one issued at the start
   (later records must carry the same), if it names the commitment and, for the seat, the seed
   this browser kept; and the checkpoint and key if the Sit could not keep them. Best effort. */
async function keepReceipt() {
  const entry = saved();
  if (!entry || entry.commitment !== shown().commitment) return;
  if (entry.checkpoint === undefined || entry.public_key === undefined) await keepLogState(entry.key);
  if (entry.receipt) return;
  try {
    const table = await T.api("GET", "/api/tables/" + cfg.tableId + "/");
    const r = table && table.receipt;
    const mine = r && r.client_seeds && r.client_seeds[String(entry.seat)] === entry.client_seed;
    if (r && r.commitment === entry.commitment && mine) {
      keep(entry.key, { receipt: r, signature: table.receipt_signature });
      await keepKeys(entry.key, r);
    }
  } catch (err) {
    console.warn("receipt not saved:", err.message);
  }
}

/* The site's keys, when ``receipt`` names another key than the one kept at the Sit: the
   check then follows the old key's endorsement to the new one. Best effort. */
async function keepKeys(key, receipt) {
  const entry = saved();
  if (!entry || entry.key !== key || !entry.public_key || typeof receipt.key_id !== "string") return;
  if (!cryptoAvailable() || receipt.key_id === (await keyIdOf(entry.public_key))) return;
  try {
    keep(key, { keys: await T.api("GET", "/fairness/keys.json") });
  } catch (err) {
    console.warn("keys not saved:", err.message);
  }
}

/* A Sit the server refused: forget what was kept for it (nothing was dealt under it). */
export function forgetSit() {
  const entry = saved();
  const s = store();
  if (entry && s && !Object.keys(entry.hands || {}).length) s.removeItem(entry.key);
}

let queue = Promise.resolve();

/* An event of the state poll (server.js's absorb, in order): deals, our hands, revealed seeds. */
export function noteEvent(ev) {
  if (ev.type === "match_started") {
    queue = queue.then(keepReceipt);
  } else if (ev.type === "deal_started") {
    st.dealNow = ev.deal;
  } else if (ev.type === "hand" && ev.seat === st.mySeat && st.dealNow) {
    const entry = saved();
    const key = String(st.dealNow);
    if (entry && entry.seat === ev.seat && !(entry.hands || {})[key]) {
      entry.hands = { ...(entry.hands || {}), [key]: ev.cards.slice() };
      write(entry);
    }
  } else if (ev.type === "seed_revealed" && ev.deal_id && st.mySeat !== null && st.mySeat !== undefined) {
    const deal = ev.deal;
    if (st.checks[deal]) return;
    st.checks[deal] = { status: "checking", deal_id: ev.deal_id, problems: [] };
    queue = queue.then(() => check(deal, ev.deal_id));
  }
}

/* A public file under /fairness/ (log_check.js's fetcher): its JSON, or its text, or null
   for a 404. The checkpoint is fetched past any cache: it must be the log now. */
async function fairnessFile(path, asText) {
  const r = await fetch("/fairness/" + path, { credentials: "same-origin", cache: asText ? "no-store" : "default" });
  if (r.status === 404) return null;
  if (!r.ok) throw new Error("HTTP " + r.status);
  return asText ? r.text() : r.json();
}

/* The log's part of a deal's check (log_check.js) against what this browser kept at the
   Sit: {log, problems, kept} (a problem makes the deal a mismatch; kept: whether the entry
   it checked with holds the checkpoint and the key); log "failed" with the error when the
   log could not be fetched. Without kept or with "failed" the deal is not verified. */
async function logResult(record) {
  const entry = saved();
  const kept = Boolean(entry && entry.checkpoint && entry.public_key);
  if (!entry) return { log: "unchecked", problems: [], kept };
  try {
    return { ...(await checkLog(record, entry, fairnessFile)), kept };
  } catch (err) {
    return { log: "failed", problems: [], error: err.message, kept };
  }
}

async function check(deal, dealId) {
  const entry = saved();
  let result;
  if (!entry) {
    delete st.checks[deal];
    st.notSaved = true;
    redraw.all();
    return;
  }
  if (!cryptoAvailable()) {
    result = { status: "unavailable", problems: [] };
  } else {
    try {
      const record = await T.api("GET", "/api/deals/" + dealId + "/record.json");
      const r = (record && record.shuffle && record.shuffle.receipt) || null;
      if (r && entry.keys === undefined) {
        await keepKeys(entry.key, r);
        entry.keys = (saved() || {}).keys;
      }
      result = await checkDeal(record, { ...entry, hand: (entry.hands || {})[String(deal)] || null }, deal);
      if (result.status !== "unavailable") {
        const logged = await logResult(record);
        result = { ...result, log: logged.log };
        if (logged.problems.length) {
          result = { ...result, status: "mismatch", problems: [...result.problems, ...logged.problems] };
        } else if (result.status !== "mismatch" && (logged.log === "failed" || !logged.kept)) {
          // Not verified: a site that rewrote its log could simply not answer the proofs, or
          // withhold the checkpoint at the Sit.
          result = { ...result, status: "log-failed", error: logged.error, not_kept: !logged.kept };
        }
        if (!logged.kept) st.logNotKept = true;
      }
      const s = record.shuffle || {};
      const now = saved(); // read again: a hand may have been kept while the record came
      if (result.status !== "mismatch" && s.receipt && now && now.key === entry.key && !now.receipt) {
        // The match-start receipt, kept from the first deal checked: later deals must carry it.
        write({ ...now, receipt: s.receipt, signature: s.signature });
      }
    } catch (err) {
      result = { status: "failed", problems: [], error: err.message };
    }
  }
  st.checks[deal] = { ...result, deal_id: dealId };
  redraw.all();
}
