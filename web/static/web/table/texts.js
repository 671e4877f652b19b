/* The table page's words about fair shuffles, in one place: plain strings with {name}
   placeholders, so a translation (Arabic next) replaces this object and nothing else.
   An ES module of the table page (no build step). */

export const TEXTS = {
  commitment_title: "This match's deals are fixed before anyone sits",
  commitment_help: "The site has committed to every shuffle of this match with the fingerprint below; " +
    "your browser keeps it when you sit and checks each deal against it when the deal ends.",
  commitment_label: "Commitment",
  commitment_meta: "{deals} deals · {algorithm} · match {match}",
  commitment_saved: "Your browser saved this commitment and your client seed before you sat.",
  commitment_not_saved: "This browser did not save this match's commitment before you sat " +
    "(you sat from another browser or device, or cleared its data): it cannot check your deals.",
  storage_missing: "This browser keeps no data for this site (private mode?): it cannot keep " +
    "the commitment to check your deals.",
  seed_empty: "Your client seed is empty: type 1 to 64 characters, or press New.",
  seed_long: "Your client seed has {count} characters: at most 64.",
  seed_chars: "Your client seed may use only printable ASCII (letters, digits, space and ! to ~): \"{char}\" is not allowed.",
  checks_title: "Checked in your browser",
  checks_help: "After each deal your browser checks its revealed seed against the commitment you saw " +
    "before sitting, your client seed and the 13 cards you held.",
  check_checking: "Checking deal {deal} in your browser…",
  check_verified: "Your deal {deal} was verified.",
  check_seen_no_hand: "Deal {deal}: the seed matches your commitment and client seed, but this " +
    "browser did not see your cards of this deal, so it could not compare them.",
  check_unavailable: "Deal {deal} cannot be checked here: this browser offers no Web Crypto " +
    "(crypto.subtle) on a plain http address. Use the site over https, or the verify page.",
  check_failed: "Deal {deal} could not be checked: its record did not load ({error}).",
  check_mismatch: "Deal {deal} does NOT match what your browser saved:",
  verify_page: "verify page",
  problem_malformed: "the record's {field} is missing or malformed",
  problem_algorithm: "the record's algorithm is {got}, not trix-shuffle/1",
  problem_match_id: "the record's match id is {got}; before sitting you saw {saved}",
  problem_commitment: "the record's commitment is {got}; before sitting you saw {saved}",
  problem_deal_number: "the record is numbered deal {got}, not deal {deal}",
  problem_deals: "the record says the match has {got} deals; before sitting you saw {saved}",
  problem_seed_chain: "the revealed seed of deal {times} hashes to {got}, not to the commitment you saw ({saved})",
  problem_client_seed: "the record's client seed for your seat is {got}; you sent {saved}",
  problem_receipt_commitment: "the receipt's commitment is {got}; before sitting you saw {saved}",
  problem_receipt_match_id: "the receipt's match id is {got}; before sitting you saw {saved}",
  problem_receipt_deals: "the receipt says the match has {got} deals; before sitting you saw {saved}",
  problem_receipt_changed: "the record's receipt is not the one an earlier deal of this match carried (your browser kept it)",
  problem_receipt_client_seed: "the receipt's client seed for your seat is {got}; you sent {saved}",
  problem_hand: "the shuffle deals your seat cards you did not hold ({extra}) and not cards you held ({missing})",
  problem_record_hand: "the record lists your hand as {got}; your browser saw {saved}",
  none: "none",
};

/* TEXTS[key] with each {name} replaced by params[name] (an empty value reads "none"). */
export function t(key, params) {
  return (TEXTS[key] || key).replace(/\{(\w+)\}/g, (all, name) => {
    const value = params ? params[name] : undefined;
    if (value === undefined || value === null) return all;
    return value === "" ? TEXTS.none : String(value);
  });
}
