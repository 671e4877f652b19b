/* The match check page (games/templates/games/verify_match.html): when this browser sat at
   the table, the table page kept what it saw then (web/static/web/table/fairness.js, under
   "trix.fairness/1:<match id>:<commitment>"): the commitment, the seat and client seed, the
   log's checkpoint and the site's public key at the Sit, the receipt issued at the start.
   This fills the page's commands with those saved values (never with what the page shows
   now), offers the saved checkpoint and receipt as files, and says so when the saved
   commitment is not the one the page shows. Nothing is sent anywhere. */

const PREFIX = "trix.fairness/1:";
/* The words in capitals the page's commands hold until what was saved replaces them. */
const TOKENS = ["SAVED-KEY", "SAVED-RECEIPT.json", "SAVED-CHECKPOINT.txt", "SAVED-COMMITMENT",
  "SEAT=YOUR-SEED"];

function store() {
  try {
    return window.localStorage;
  } catch (err) {
    return null;
  }
}

/* The saved entry of ``matchId``: the one under ``commitment``, else the newest under the
   match id (a changed commitment then shows as a mismatch), or null. */
function savedEntry(matchId, commitment) {
  const s = store();
  if (!s || !matchId) return null;
  let best = null;
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (!k || !k.startsWith(PREFIX + matchId + ":")) continue;
    let entry;
    try {
      entry = JSON.parse(s.getItem(k));
    } catch (err) {
      continue;
    }
    if (!entry || typeof entry !== "object") continue;
    if (k === PREFIX + matchId + ":" + commitment) return entry;
    if (!best || String(entry.saved_at) > String(best.saved_at)) best = entry;
  }
  return best;
}

/* ``text`` as one POSIX shell word. */
function shellWord(text) {
  return /^[A-Za-z0-9._:/=+-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
}

function offer(link, text, type) {
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.hidden = false;
}

function fill() {
  const box = document.getElementById("saved");
  if (!box) return;
  const entry = savedEntry(box.dataset.matchId, box.dataset.commitment);
  // Only a well-formed saved commitment is put in a command (it is typed into a shell).
  if (!entry || typeof entry.commitment !== "string" || !/^[0-9a-f]{64}$/.test(entry.commitment)) {
    return;
  }
  const table = box.dataset.tableId;
  const values = {
    "SAVED-COMMITMENT": entry.commitment,
  };
  if (Number.isInteger(entry.seat) && typeof entry.client_seed === "string") {
    values["SEAT=YOUR-SEED"] = shellWord(entry.seat + "=" + entry.client_seed);
  }
  if (typeof entry.public_key === "string" && /^[0-9a-f]{64}$/.test(entry.public_key)) {
    values["SAVED-KEY"] = entry.public_key;
  }
  if (entry.receipt && typeof entry.signature === "string") {
    const name = "saved-receipt-" + table + ".json";
    values["SAVED-RECEIPT.json"] = name;
    const text = JSON.stringify({ receipt: entry.receipt, signature: entry.signature }) + "\n";
    offer(box.querySelector('[data-saved="receipt"]'), text, "application/json");
  }
  if (typeof entry.checkpoint === "string" && entry.checkpoint) {
    const name = "saved-checkpoint-" + table + ".txt";
    values["SAVED-CHECKPOINT.txt"] = name;
    offer(box.querySelector('[data-saved="checkpoint"]'), entry.checkpoint, "text/plain");
  }
  const left = new Set();
  for (const code of document.querySelectorAll("code[data-command]")) {
    let text = code.textContent;
    for (const [token, value] of Object.entries(values)) text = text.split(token).join(value);
    code.textContent = text;
    for (const token of TOKENS) if (text.includes(token)) left.add(token);
  }
  // What this browser did not keep stays in capitals, and the page names it.
  const missing = box.querySelector('[data-testid="saved-missing"]');
  missing.querySelector("code").textContent = [...left].join(" ");
  missing.hidden = left.size === 0;
  const none = document.querySelector('[data-testid="saved-none"]');
  if (none) none.hidden = true;
  box.hidden = false;
  box.querySelector('[data-testid="saved-mismatch"]').hidden =
    entry.commitment === box.dataset.commitment;
}

fill();
