/* The browser's check of the site's public log (docs/fairness.md §9a), from the checkpoint
   it saved when the player sat: the log now is signed by the site's key and extends that
   checkpoint (RFC 9162 consistency proof: nothing logged before the Sit was changed,
   removed or reordered since), and holds this deal's record and the match's receipt the
   browser kept (inclusion proofs), without downloading the log.

     leaf hash    SHA-256(0x00 || canonical bytes of the entry); node SHA-256(0x01 || l || r)
     checkpoint   C2SP tlog-checkpoint: origin, size, base64 root, "time T key-id K", a blank
                  line, "— <origin> base64(key hash (4 bytes) || Ed25519 signature)"; the key
                  hash is the first 4 bytes of SHA-256(origin || 0x0A || 0x01 || public key)
     proofs       RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency)

   Problems are returned as {key, ...params}, as verify.js's; the words are texts.js's. The
   fetching is the caller's: `get(path, asText)` answers the parsed JSON (or the text) of a
   path under /fairness/, or null for a 404. */

import { bytesToHex, canonical, concat, ed25519, endorsedKey, hexToBytes, keyIdOf } from "./verify.js";

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const join = (...parts) => concat(parts);

const node = (left, right) => sha256(join(Uint8Array.of(1), left, right));
const odd = (n) => n % 2 === 1;
const half = (n) => Math.floor(n / 2);

function powerOfTwo(n) {
  while (n > 1 && n % 2 === 0) n /= 2;
  return n === 1;
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/* The Merkle leaf hash of a log entry (its canonical JSON's UTF-8 bytes). */
export async function leafHash(entry) {
  return sha256(join(Uint8Array.of(0), new TextEncoder().encode(canonical(entry))));
}

/* Lower-hex SHA-256 of a JSON value's canonical bytes (a deal-record's record_hash). */
export async function jsonHash(value) {
  return bytesToHex(await sha256(new TextEncoder().encode(canonical(value))));
}

function base64(text) {
  const raw = atob(text);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/* A checkpoint note as {text, origin, size, root, time, keyId, signatures: [{name, keyHash,
   signature}]}, or null when it is not one. */
export function parseCheckpoint(note) {
  if (typeof note !== "string") return null;
  const cut = note.indexOf("\n\n");
  if (cut < 0) return null;
  const text = note.slice(0, cut + 1);
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3 || !/^(0|[1-9][0-9]{0,15})$/.test(lines[1])) return null;
  let root;
  try {
    root = base64(lines[2]);
  } catch (err) {
    return null;
  }
  if (root.length !== 32) return null;
  const ext = lines.slice(3).map((l) => l.split(" ")).find((w) => w.length === 4 && w[0] === "time" && w[2] === "key-id");
  const signatures = [];
  for (const line of note.slice(cut + 2).split("\n").filter(Boolean)) {
    const [dash, name, encoded] = line.split(" ");
    if (dash !== "\u2014" || !name || !encoded) return null;
    let raw;
    try {
      raw = base64(encoded);
    } catch (err) {
      return null;
    }
    signatures.push({ name, keyHash: raw.slice(0, 4), signature: bytesToHex(raw.slice(4)) });
  }
  return { text, origin: lines[0], size: Number(lines[1]), root, time: ext ? ext[1] : null,
    keyId: ext ? ext[3] : null, signatures };
}

/* "valid", "invalid" or "unchecked" (no Ed25519 here): the checkpoint is signed by the
   site's key this browser saved at the Sit (`publicKey`, 64 hex), or by the key it names, as
   `keys` (/fairness/keys.json) lists it, reached from the saved key by endorsements. */
export async function checkpointSigned(cp, publicKey, keys) {
  let signer = publicKey;
  if (cp.keyId && cp.keyId !== (await keyIdOf(publicKey))) {
    signer = await endorsedKey(publicKey, { key_id: cp.keyId, issued_at: cp.time }, keys);
    if (signer === "unchecked" || signer === null) return signer || "invalid";
  }
  const enc = new TextEncoder();
  const wanted = (await sha256(join(enc.encode(cp.origin + "\n"), Uint8Array.of(1), hexToBytes(signer)))).slice(0, 4);
  const line = cp.signatures.find((s) => s.name === cp.origin && same(s.keyHash, wanted));
  if (!line) return "invalid";
  return ed25519(signer, enc.encode(cp.text), line.signature);
}

/* RFC 9162 §2.1.3.2: whether `proof` (hex hashes) shows `leaf` (bytes) is leaf `index` of the
   tree of `size` leaves whose root is `root` (bytes). */
export async function verifyInclusion(leaf, index, size, proof, root) {
  if (!(Number.isInteger(index) && Number.isInteger(size) && index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const hex of proof) {
    if (sn === 0) return false;
    const p = hexToBytes(hex);
    if (odd(fn) || fn === sn) {
      r = await node(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = await node(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && same(r, root);
}

/* RFC 9162 §2.1.4.2: whether `proof` (hex hashes) shows the tree of `first` leaves (root
   `firstRoot`) is the start of the tree of `second` leaves (root `secondRoot`). Sizes 0 and
   equal sizes take an empty proof (equal sizes: equal roots). */
export async function verifyConsistency(first, second, proof, firstRoot, secondRoot) {
  if (!(Number.isInteger(first) && Number.isInteger(second) && first >= 0 && first <= second)) return false;
  if (first === 0 || first === second) return proof.length === 0 && (first === 0 || same(firstRoot, secondRoot));
  if (!proof.length) return false;
  const path = proof.map(hexToBytes);
  if (powerOfTwo(first)) path.unshift(firstRoot); // the old root is the first node
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = await node(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && same(fr, firstRoot) && same(sr, secondRoot);
}

/* The entry of `kind` about `subject` proven included in the tree `cp` names: the entry, or
   "missing" (the log holds none) or "inclusion" (a proof that does not hold). */
async function proven(get, kind, subject, cp) {
  const q = "proof/inclusion?kind=" + encodeURIComponent(kind) + "&subject=" +
    encodeURIComponent(subject) + "&size=" + cp.size;
  const proof = await get(q, false);
  if (!proof) return "missing";
  const entry = proof.entry;
  const ok = entry && entry.kind === kind && entry.index === proof.index && proof.size === cp.size &&
    Array.isArray(proof.proof) && (await verifyInclusion(await leafHash(entry), proof.index, cp.size, proof.proof, cp.root));
  return ok ? entry : "inclusion";
}

/* Check the log for one finished deal.

   record: the deal's trix-deal/1 record; saved: this browser's entry (checkpoint: the
   checkpoint text kept at the Sit; public_key; keys?; receipt?, signature?); get: the
   fetcher (module comment).

   Returns {log, problems}: log "valid" (the log now is signed by the site's key, extends the
   saved checkpoint, and holds this record and the kept receipt), "unchecked" (nothing saved
   to check against, or no Ed25519 here: problems still lists what the proofs showed), or
   "invalid" (problems names each). */
export async function checkLog(record, saved, get) {
  const old = parseCheckpoint(saved.checkpoint);
  if (!old || typeof saved.public_key !== "string") return { log: "unchecked", problems: [] };
  const cp = parseCheckpoint(await get("checkpoint", true));
  if (!cp) return { log: "invalid", problems: [{ key: "log_checkpoint_malformed" }] };
  const problems = [];
  const signed = await checkpointSigned(cp, saved.public_key, saved.keys);
  if (signed === "invalid") problems.push({ key: "log_checkpoint_signature" });
  if (cp.origin !== old.origin) problems.push({ key: "log_origin", got: cp.origin, saved: old.origin });
  let extends_ = cp.size >= old.size;
  if (extends_ && cp.size > old.size && old.size > 0) {
    const proof = await get("proof/consistency?first=" + old.size + "&second=" + cp.size, false);
    extends_ = Boolean(proof && Array.isArray(proof.proof)) &&
      (await verifyConsistency(old.size, cp.size, proof.proof, old.root, cp.root));
  } else if (extends_ && cp.size === old.size) {
    extends_ = same(cp.root, old.root);
  }
  if (!extends_) problems.push({ key: "log_rewritten", size: old.size });
  const s = record.shuffle || {};
  const deal = await proven(get, "deal-record", s.match_id + "/" + s.deal_number, cp);
  if (typeof deal === "string") {
    problems.push({ key: "log_record_" + deal });
  } else if (deal.body.record_hash !== (await jsonHash(record))) {
    problems.push({ key: "log_record_differs", index: deal.index });
  }
  if (saved.receipt) {
    const receipt = await proven(get, "match-receipt", saved.match_id, cp);
    if (typeof receipt === "string") {
      problems.push({ key: "log_receipt_" + receipt });
    } else if (canonical(receipt.body.receipt) !== canonical(saved.receipt) || receipt.body.signature !== saved.signature) {
      problems.push({ key: "log_receipt_differs", index: receipt.index });
    }
  }
  if (problems.length) return { log: "invalid", problems };
  return { log: signed === "valid" ? "valid" : "unchecked", problems };
}
