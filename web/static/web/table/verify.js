/* The browser's own check of a finished deal, from nothing but the deal's public
   trix-deal/1 record and what this browser saved before sitting: docs/fairness.md §1-5.
   Self-contained: no import, no page state, no server call; WebCrypto (crypto.subtle) for
   SHA-256 and HMAC-SHA256. Problems are returned as {key, ...params}; the words are the
   page's (texts.js), so this module holds no text for the player.

     seed chain   SHA-256 applied deal_number times to the revealed seed's 32 raw bytes
                  equals the commitment (64 hex) the browser saw before sitting
     stream       block_k = HMAC-SHA256(key = seed (raw bytes), prefix || uint64_be(k)),
                  prefix = enc("trix-shuffle/1") || enc(match_id) || uint32_be(deal_number)
                           || uint32_be(4) || enc(client_seed_0) .. enc(client_seed_3),
                  enc(s) = uint32_be(len(utf8(s))) || utf8(s); read as big-endian 32-bit words
     draws        a word w is rejected when w >= 2^32 - (2^32 mod n), else j = w mod n
     shuffle      canonical deck 2C..AC 2D..AD 2H..AH 2S..AS; for i = 51 .. 1 swap i, below(i+1)
     dealing      card i goes to seat i mod 4; hands are compared as sets */

export const ALGORITHM = "trix-shuffle/1";
export const SEATS = 4;
export const DECK = Array.from("CDHS").flatMap((suit) => Array.from("23456789TJQKA", (rank) => rank + suit));
const HEX64 = /^[0-9a-f]{64}$/;
const BOT_SEED = "bot"; // the client seed of every seat a receipt names a bot (docs/fairness.md)
const WORD = 2 ** 32;

/* True when this browser can check here: crypto.subtle exists only in a secure context
   (https, or http on localhost). */
export function cryptoAvailable() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

/* The server's rule for a client seed (games.fairness: 1 to 64 printable ASCII characters,
   space to '~'): null when `text` follows it, else the first problem as {key, ...}. */
export function clientSeedProblem(text) {
  if (typeof text !== "string" || text.length === 0) return { key: "seed_empty" };
  if (text.length > 64) return { key: "seed_long", count: text.length };
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code < 0x20 || code > 0x7e) return { key: "seed_chars", char: ch };
  }
  return null;
}

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function uint32(n) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, false);
  return b;
}

function uint64(n) {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setUint32(0, Math.floor(n / WORD), false);
  v.setUint32(4, n % WORD, false);
  return b;
}

function enc(text) {
  const bytes = new TextEncoder().encode(text);
  return concat([uint32(bytes.length), bytes]);
}

/* SHA-256 applied `times` times to the raw bytes of `seedHex`; lower hex. */
export async function chainHash(seedHex, times) {
  let h = hexToBytes(seedHex.toLowerCase());
  for (let i = 0; i < times; i++) h = new Uint8Array(await crypto.subtle.digest("SHA-256", h));
  return bytesToHex(h);
}

/* The HMAC-SHA256 counter-mode stream of §3, read as big-endian 32-bit words. */
class Stream {
  static async open(seedHex, matchId, dealNumber, clientSeeds) {
    const key = await crypto.subtle.importKey("raw", hexToBytes(seedHex.toLowerCase()),
      { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const prefix = concat([enc(ALGORITHM), enc(matchId), uint32(dealNumber),
      uint32(clientSeeds.length), ...clientSeeds.map(enc)]);
    return new Stream(key, prefix);
  }

  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
    this.blocks = 0;
    this.words = [];
  }

  async block(k) {
    const mac = await crypto.subtle.sign("HMAC", this.key, concat([this.prefix, uint64(k)]));
    return new Uint8Array(mac);
  }

  async word() {
    if (!this.words.length) {
      const b = await this.block(this.blocks++);
      const v = new DataView(b.buffer);
      for (let i = 0; i < 32; i += 4) this.words.push(v.getUint32(i, false));
    }
    return this.words.shift();
  }

  /* A uniform integer in 0 .. n-1 (§4: rejection, no modulo bias). */
  async below(n) {
    const limit = WORD - (WORD % n);
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
}

/* block_0 of a deal's stream, lower hex (the test vectors' `first_block`). */
export async function firstBlock(seedHex, clientSeeds, matchId, dealNumber) {
  const stream = await Stream.open(seedHex, matchId, dealNumber, clientSeeds);
  return bytesToHex(await stream.block(0));
}

/* The shuffled deck (52 codes, position 0 dealt first to seat 0). */
export async function shuffle(seedHex, clientSeeds, matchId, dealNumber) {
  const stream = await Stream.open(seedHex, matchId, dealNumber, clientSeeds);
  const deck = DECK.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/* The cards of `seat`: every card i with i mod 4 = seat (§5). */
export function handOf(deck, seat) {
  return deck.filter((_, i) => i % SEATS === seat);
}

function sorted(cards) {
  return cards.slice().sort((a, b) => DECK.indexOf(a) - DECK.indexOf(b));
}

/* JSON with object keys sorted: two receipts are the same when these texts are. */
export function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

function isSeed(value) {
  return typeof value === "string" && clientSeedProblem(value) === null;
}

/* Check one finished deal against what this browser saved.

   record: the deal's trix-deal/1 record (its `shuffle` object, and `hands`);
   saved: {match_id, commitment, deals, seat, client_seed, hand, receipt?, signature?,
          public_key?, keys?} as this browser kept them (hand: the 13 codes it saw dealt to
          its seat, or null when it saw none; receipt and signature: those of the first
          record of the match it checked; public_key: the site's key at the Sit; keys: the
          site's keys, kept when the receipt names another key);
   deal: the deal number the page expects this record to be.

   Returns {status, problems}: status "verified" (every check passed, the hand included),
   "seen-no-hand" (every check passed but the browser did not see this deal's hand),
   "mismatch" (problems lists each, as {key, ...params}) or "unavailable" (no
   crypto.subtle here). */
export async function checkDeal(record, saved, deal) {
  if (!cryptoAvailable()) return { status: "unavailable", problems: [] };
  const problems = [];
  let signature = "unchecked"; // the receipt's, with the key this browser saved at the Sit
  const s = record && typeof record === "object" ? record.shuffle : null;
  if (!s || typeof s !== "object") {
    return { status: "mismatch", problems: [{ key: "malformed", field: "shuffle" }] };
  }
  if (s.algorithm !== ALGORITHM) problems.push({ key: "algorithm", got: String(s.algorithm) });
  if (s.match_id !== saved.match_id) {
    problems.push({ key: "match_id", got: String(s.match_id), saved: saved.match_id });
  }
  if (s.commitment !== saved.commitment) {
    problems.push({ key: "commitment", got: String(s.commitment), saved: saved.commitment });
  }
  if (s.deal_number !== deal) problems.push({ key: "deal_number", got: String(s.deal_number), deal });
  if (s.deals !== undefined && saved.deals && s.deals !== saved.deals) {
    problems.push({ key: "deals", got: String(s.deals), saved: saved.deals });
  }
  const seeds = s.client_seeds;
  const seedList = [];
  for (let seat = 0; seat < SEATS; seat++) seedList.push(seeds && typeof seeds === "object" ? seeds[String(seat)] : undefined);
  if (seeds && typeof seeds === "object" && seedList[saved.seat] !== saved.client_seed) {
    problems.push({ key: "client_seed", got: String(seedList[saved.seat]), saved: saved.client_seed });
  }
  if (!seedList.every(isSeed)) problems.push({ key: "malformed", field: "shuffle.client_seeds" });
  if (saved.receipt && (s.receipt === undefined || s.receipt === null)) {
    problems.push({ key: "receipt_missing" }); // the browser kept one at the start: records carry it
  }
  if (s.receipt !== undefined && s.receipt !== null) {
    const r = s.receipt;
    const rSeeds = r && typeof r === "object" && r.client_seeds && typeof r.client_seeds === "object" ? r.client_seeds : {};
    if (!r || r.commitment !== saved.commitment) {
      problems.push({ key: "receipt_commitment", got: String(r && r.commitment), saved: saved.commitment });
    }
    if (!r || r.match_id !== saved.match_id) {
      problems.push({ key: "receipt_match_id", got: String(r && r.match_id), saved: saved.match_id });
    }
    if (r && r.deals !== undefined && saved.deals && r.deals !== saved.deals) {
      problems.push({ key: "receipt_deals", got: String(r.deals), saved: saved.deals });
    }
    if (rSeeds[String(saved.seat)] !== saved.client_seed) {
      problems.push({ key: "receipt_client_seed", got: String(rSeeds[String(saved.seat)]), saved: saved.client_seed });
    }
    if (saved.receipt && (canonical(saved.receipt) !== canonical(r) || saved.signature !== s.signature)) {
      problems.push({ key: "receipt_changed" }); // not the receipt an earlier deal of this match carried
    }
    for (let seat = 0; seat < SEATS; seat++) {
      // The cards are dealt from the record's seeds: they must be the ones the receipt signed.
      if (seat !== saved.seat && seedList[seat] !== rSeeds[String(seat)]) {
        problems.push({ key: "receipt_seeds", n: seat + 1 });
      }
    }
    const bots = r && Array.isArray(r.bots) ? r.bots : [];
    for (const bot of bots) {
      // A seat the receipt names a bot has the bots' seed: nothing the site could choose.
      if (rSeeds[String(bot)] !== BOT_SEED) problems.push({ key: "receipt_bot", n: Number(bot) + 1 });
    }
    if (r && typeof r === "object" && saved.public_key) {
      signature = await receiptSigned(saved.public_key, r, s.signature, saved.keys);
      if (signature === "invalid") problems.push({ key: "receipt_signature" });
    }
  }
  const seedOk = typeof s.server_seed === "string" && HEX64.test(s.server_seed.toLowerCase());
  const numberOk = Number.isInteger(s.deal_number) && s.deal_number >= 1 && s.deal_number < WORD &&
    (!saved.deals || s.deal_number <= saved.deals);
  if (!seedOk) problems.push({ key: "malformed", field: "shuffle.server_seed" });
  if (!numberOk) problems.push({ key: "malformed", field: "shuffle.deal_number" });
  if (seedOk && numberOk) {
    // Hashed as many times as the deal this page expects: a record renumbered to an
    // earlier deal (fewer hashes) cannot pass.
    const times = Number.isInteger(deal) ? deal : s.deal_number;
    const top = await chainHash(s.server_seed, times);
    if (top !== saved.commitment) problems.push({ key: "seed_chain", got: top, saved: saved.commitment, times });
  }
  const canShuffle = seedOk && numberOk && seedList.every(isSeed) && typeof s.match_id === "string" && s.match_id.length;
  const deck = canShuffle ? await shuffle(s.server_seed, seedList, s.match_id, s.deal_number) : null;
  if (deck) {
    // Every seat's hand in the record is the one the shuffle dealt it, not only ours.
    for (let seat = 0; seat < SEATS; seat++) {
      const listed = record.hands && record.hands[String(seat)];
      const dealt = sorted(handOf(deck, seat)).join(" ");
      if (!Array.isArray(listed) || sorted(listed).join(" ") !== dealt) {
        problems.push({ key: "record_hands", n: seat + 1 });
      }
    }
  }
  if (deck && saved.hand) {
    const dealt = handOf(deck, saved.seat);
    const mine = new Set(saved.hand);
    const extra = sorted(dealt.filter((c) => !mine.has(c)));
    const missing = sorted(saved.hand.filter((c) => !dealt.includes(c)));
    if (extra.length || missing.length || saved.hand.length !== dealt.length) {
      problems.push({ key: "hand", extra: extra.join(" "), missing: missing.join(" ") });
    }
  }
  const listed = record.hands && record.hands[String(saved.seat)];
  if (saved.hand && Array.isArray(listed)) {
    const a = sorted(listed).join(" ");
    const b = sorted(saved.hand).join(" ");
    if (a !== b) problems.push({ key: "record_hand", got: a, saved: b });
  }
  if (problems.length) return { status: "mismatch", problems, signature };
  return { status: saved.hand ? "verified" : "seen-no-hand", problems, signature };
}

/* Whether ``signature`` (128 hex) is the site's Ed25519 signature of ``receipt``'s canonical
   bytes under ``publicKey`` (64 hex, as this browser saved it at the Sit), or, when the
   receipt names another key (``key_id``: the site rotated its key since), under that key as
   ``keys`` (/fairness/keys.json as this browser kept it) lists it, reached from the saved key
   by endorsements and in use at the receipt's ``issued_at`` (docs/fairness.md section 9b):
   "valid", "invalid", or "unchecked" where this browser's Web Crypto has no Ed25519. */
export async function receiptSigned(publicKey, receipt, signature, keys) {
  if (!HEX64.test(String(publicKey)) || !/^[0-9a-f]{128}$/.test(String(signature))) return "invalid";
  let signer = publicKey;
  if (receipt && typeof receipt.key_id === "string" && receipt.key_id !== (await keyIdOf(publicKey))) {
    signer = await endorsedKey(publicKey, receipt, keys);
    if (signer === "unchecked" || signer === null) return signer || "invalid";
  }
  return ed25519(signer, new TextEncoder().encode(canonical(receipt)), signature);
}

/* A public key's id (docs/fairness.md): the first 16 hex digits of SHA-256 of its 32 bytes. */
export async function keyIdOf(publicKey) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", hexToBytes(publicKey)));
  return bytesToHex(digest).slice(0, 16);
}

/* "valid", "invalid" or "unchecked" (no Ed25519 here): ``signature`` (128 hex) is
   ``publicKey``'s (64 hex) Ed25519 signature of ``message`` (bytes). */
export async function ed25519(publicKey, message, signature) {
  if (!HEX64.test(String(publicKey)) || !/^[0-9a-f]{128}$/.test(String(signature))) return "invalid";
  let key;
  try {
    key = await crypto.subtle.importKey("raw", hexToBytes(publicKey), { name: "Ed25519" }, false, ["verify"]);
  } catch (err) {
    return "unchecked";
  }
  const ok = await crypto.subtle.verify({ name: "Ed25519" }, key, hexToBytes(signature), message);
  return ok ? "valid" : "invalid";
}

/* The key (64 hex) ``receipt.key_id`` names in ``keys``, if each key after the saved
   ``publicKey`` up to it is signed by itself and endorsed by the one before, and the receipt
   was issued in its period; else null ("unchecked": no Ed25519 here). */
export async function endorsedKey(publicKey, receipt, keys) {
  const list = keys && Array.isArray(keys.keys) ? keys.keys : [];
  const start = list.findIndex((k) => k && k.public_key === publicKey);
  if (start < 0) return null;
  for (let i = start + 1; i < list.length; i++) {
    const k = list[i];
    const before = list[i - 1];
    if (!k || k.algorithm !== "ed25519" || !HEX64.test(String(k.public_key))) return null;
    if (k.key_id !== (await keyIdOf(k.public_key))) return null;
    if (k.previous !== before.key_id || k.previous_key !== before.public_key) return null;
    const fields = ["algorithm", "key_id", "public_key", "previous", "previous_key"];
    const statement = { format: "trix-signing-key/1" };
    for (const f of fields) statement[f] = k[f];
    const said = new TextEncoder().encode(canonical(statement));
    for (const [key, sig] of [[k.public_key, k.signature], [before.public_key, k.endorsement]]) {
      const ok = await ed25519(key, said, sig);
      if (ok !== "valid") return ok === "unchecked" ? "unchecked" : null;
    }
    if (k.key_id === receipt.key_id) {
      const t = receipt.issued_at;
      const inPeriod = typeof t === "string" && (!k.valid_from || k.valid_from <= t) &&
        (!k.valid_until || t <= k.valid_until);
      return inPeriod ? k.public_key : null;
    }
  }
  return null;
}
