/* The table page's words, in one place: every string the page's scripts show comes from here,
   translated through ../i18n.js (Django's JavaScript catalog, domain djangojs; English when no
   catalog is loaded). Plain strings with {name} placeholders (t), plurals by count (tn: the
   msgids "%s card" / "%s cards", as i18n.js's example).
   Each msgid is one string literal inside _() / ngettext() / pgettext(), so that
   `makemessages -d djangojs` finds it. An ES module of the table page (no build step). */

import { gettext as _, formatNumber, ngettext, pgettext } from "../i18n.js";

export const TEXTS = {
  // fairness
  commitment_title: _("This match's deals are fixed before anyone sits"),
  commitment_help: _("The site has committed to every shuffle of this match with the fingerprint below; your browser keeps it when you sit and checks each deal against it when the deal ends."),
  commitment_label: _("Commitment"),
  commitment_meta: _("{deals} deals · {algorithm} · match {match}"),
  commitment_saved: _("Your browser saved this commitment and your client seed before you sat."),
  commitment_not_saved: _("This browser did not save this match's commitment before you sat (you sat from another browser or device, or cleared its data): it cannot check your deals."),
  storage_missing: _("This browser keeps no data for this site (private mode?): it cannot keep the commitment to check your deals."),
  seed_empty: _("Your client seed is empty: type 1 to 64 characters, or press New."),
  seed_long: _("Your client seed has {count} characters: at most 64."),
  seed_chars: _("Your client seed may use only printable ASCII (letters, digits, space and ! to ~): \"{char}\" is not allowed."),
  checks_title: _("Checked in your browser"),
  checks_help: _("After each deal your browser checks its revealed seed against the commitment you saw before sitting, your client seed, the 13 cards you held, every seat's hand, the receipt and its signature, and the site's log against the checkpoint it saved when you sat."),
  check_checking: _("Checking deal {deal} in your browser…"),
  check_verified: _("Your deal {deal} was verified."),
  check_seen_no_hand: _("Deal {deal}: the seed matches your commitment and client seed, but this browser did not see your cards of this deal, so it could not compare them."),
  check_unavailable: _("Deal {deal} cannot be checked here: this browser offers no Web Crypto (crypto.subtle) on a plain http address. Use the site over https, or the verify page."),
  check_failed: _("Deal {deal} could not be checked: its record did not load ({error})."),
  check_mismatch: _("Deal {deal} does NOT match what your browser saved:"),
  check_log_failed: _("Deal {deal}: your cards match, but your browser could not check the site's log ({error}), so this deal is not verified: the site did not answer its proofs. Check it later on the verify page."),
  check_log_not_kept: _("Deal {deal}: your cards match, but your browser kept no checkpoint of the site's log when you sat, so it cannot check the log: this deal is not verified. Check it on the verify page."),
  log_not_kept: _("Your browser could not keep the site's log checkpoint when you sat, so it cannot check the log: your deals are checked against the cards and the receipt only."),
  verify_page: _("verify page"),
  problem_malformed: _("the record's {field} is missing or malformed"),
  problem_algorithm: _("the record's algorithm is {got}, not trix-shuffle/1"),
  problem_match_id: _("the record's match id is {got}; before sitting you saw {saved}"),
  problem_commitment: _("the record's commitment is {got}; before sitting you saw {saved}"),
  problem_deal_number: _("the record is numbered deal {got}, not deal {deal}"),
  problem_deals: _("the record says the match has {got} deals; before sitting you saw {saved}"),
  problem_seed_chain: _("the revealed seed of deal {times} hashes to {got}, not to the commitment you saw ({saved})"),
  problem_client_seed: _("the record's client seed for your seat is {got}; you sent {saved}"),
  problem_receipt_commitment: _("the receipt's commitment is {got}; before sitting you saw {saved}"),
  problem_receipt_match_id: _("the receipt's match id is {got}; before sitting you saw {saved}"),
  problem_receipt_deals: _("the receipt says the match has {got} deals; before sitting you saw {saved}"),
  problem_receipt_changed: _("the record's receipt is not the one an earlier deal of this match carried (your browser kept it)"),
  problem_receipt_client_seed: _("the receipt's client seed for your seat is {got}; you sent {saved}"),
  problem_hand: _("the shuffle deals your seat cards you did not hold ({extra}) and not cards you held ({missing})"),
  problem_record_hand: _("the record lists your hand as {got}; your browser saw {saved}"),
  problem_record_hands: _("the record's hand of Seat {n} is not the one the shuffle dealt it"),
  problem_receipt_seeds: _("the record deals Seat {n} from another client seed than the receipt names"),
  problem_receipt_missing: _("the record carries no receipt, though your browser kept the match's receipt at the start"),
  problem_receipt_bot: _("the receipt names Seat {n} a bot but gives it another client seed than “bot”"),
  problem_receipt_signature: _("the receipt's signature is not valid under the site's key your browser saved when you sat"),
  check_signed: _("The receipt is signed by the site's key your browser saved when you sat, or by the key it handed over to, and every seat's hand is the one the shuffle dealt."),
  problem_log_checkpoint_malformed: _("the site's log checkpoint could not be read"),
  problem_log_checkpoint_signature: _("the site's log checkpoint is not signed by the site's key your browser saved when you sat"),
  problem_log_origin: _("the site's log is now {got}; when you sat it was {saved}"),
  problem_log_rewritten: _("the site's log was rewritten: it no longer begins with the log your browser's checkpoint saved when you sat (size {size})"),
  problem_log_record_missing: _("the site's log holds no entry of this deal's record"),
  problem_log_record_inclusion: _("the site's proof that this deal's record is in its log does not hold"),
  problem_log_record_differs: _("the site's log (entry {index}) holds another record of this deal: its contract, plays or scores differ"),
  problem_log_receipt_missing: _("the site's log holds no receipt of this match"),
  problem_log_receipt_inclusion: _("the site's proof that this match's receipt is in its log does not hold"),
  problem_log_receipt_differs: _("the site's log (entry {index}) holds another receipt for this match than the one your browser kept"),
  check_logged: _("The site's public log still begins with everything logged before you sat (checked against the checkpoint your browser saved then), and it holds this match's receipt and each deal's record checked here."),
  none: _("none"),
  // seats, the felt, the trick and the layout
  seat_n: _("Seat {n}"),
  bot_n: _("Bot {n}"),
  closed_account: _("Closed account {n}"),
  bot_rules: pgettext("bot kind", "rules"),
  bot_random: pgettext("bot kind", "random"),
  owner: _("owner"),
  team_a: pgettext("team", "A"),
  team_b: pgettext("team", "B"),
  match_total: _("match total"),
  this_deal_title: _("this deal"),
  deal_score: _("this deal: {score}"),
  tricks_taken: _("tricks taken"),
  cards_in_hand: _("cards in hand"),
  out_place: _("out #{place}"),
  doubled: _("doubled"),
  waiting_deal: _("Waiting for the deal."),
  needs_jack: _("needs the jack"),
  last_trick: _("Last trick, taken by"),
  trick_label: _("The trick"),
  layout_label: _("The Trix layout"),
  card_refused: _("Your {card} was not played: {reason}"),
  // the header and the status line
  table_open: pgettext("table status", "open"),
  table_playing: pgettext("table status", "playing"),
  table_finished: pgettext("table status", "finished"),
  table_cancelled: pgettext("table status", "cancelled"),
  tournament_table: _("Tournament table (round {round})"),
  stake: _("Stake {money}"),
  casual: _("Casual (no stake)"),
  deal_line: _("Deal {deal}/{deals} · kingdom {kingdom} of"),
  status_loading: _("Loading…"),
  status_open: _("The match starts when all four seats are taken."),
  status_cancelled: _("This table was cancelled."),
  cancelled_because: _("This table was cancelled: {reason}."),
  status_dealing: _("Dealing…"),
  status_over: _("The match is over."),
  status_choose_mine: _("Your kingdom: choose a contract."),
  status_choose: _("{name} is choosing a contract."),
  status_double_mine: _("Double a card or say Ready."),
  status_double: _("Doubling: waiting for {names}."),
  status_double_holders: _("Doubling: the holders of the K♥ and queens are deciding."),
  status_pass_mine: _("No card fits: pass."),
  status_play_mine: _("Your turn: play a card."),
  status_play: _("{name} to play."),
  list_sep: _(", "),
  seconds: _("{s} s"),
  seconds_left: _("{s} s left"),
  // the controls
  choose_contract: _("Choose a contract"),
  double_hint: _("Tap a card marked in your hand to double it ({cards}), then Ready."),
  double_nothing: _("You hold nothing to double."),
  ready: _("Ready"),
  ready_double: _("Ready · double {cards}"),
  you_doubled: _("You doubled {cards}."),
  you_ready: _("You are ready."),
  pass: _("Pass"),
  face_down: _("Your hand is face down until the contract is announced."),
  // the seating panel
  seat_team: _("Seat {n} · team {team}"),
  staked: _("staked {money}"),
  leave: _("Leave"),
  rating_title: _("Rating"),
  empty: _("empty"),
  sit: _("Sit"),
  sit_stake: _("Sit · stake {money}"),
  seat_bot: _("Seat a bot"),
  held_for: _("held for {name} until {time}"),
  decline_rematch: _("Decline"),
  share_link: _("Share the link"),
  // the scores panel
  scores: _("Scores"),
  seat_col: _("Seat"),
  total_col: _("Total"),
  this_deal_col: _("This deal"),
  team_line_a: _("Team A"),
  team_line_b: _("Team B"),
  kingdom_of: _("Kingdom {n} of 4"),
  contract_now: _("now"),
  contract_played: _("played"),
  contract_to_play: _("to play"),
  deals: _("Deals"),
  deal_col: pgettext("deal number column", "#"),
  contract_col: _("Contract"),
  verify: _("Verify"),
  verify_deal_title: _("Verify deal {deal}"),
  check_verified_short: _("verified"),
  check_mismatch_short: _("mismatch"),
  check_checking_short: _("checking"),
  "check_log-failed_short": _("log not checked"),
};

const PLURALS = {
  cards: (n) => ngettext("%s card", "%s cards", n),
  tricks: (n) => ngettext("%s trick", "%s tricks", n),
  waiting_players: (n) => ngettext("Waiting for %s player.", "Waiting for %s players.", n),
};

function fill(format, params) {
  return format.replace(/\{(\w+)\}/g, (all, name) => {
    const value = params ? params[name] : undefined;
    if (value === undefined || value === null) return all;
    return value === "" ? TEXTS.none : String(value);
  });
}

/* TEXTS[key] with each {name} replaced by params[name] (an empty value reads "none"). */
export function t(key, params) {
  return fill(TEXTS[key] || key, params);
}

/* The plural form of `key` for `count` ("1 card", "5 cards"; Arabic's six forms), the count
   written for the page's language (formatNumber). */
export function tn(key, count) {
  return PLURALS[key](count).replace("%s", formatNumber(count));
}

/* A bot's kind ("rules", "random"; translated; another kind as it is, none "bot") as the
   badge after its name: the one badge of a bot, on the table page and in the lobby. Its
   space from the name is the CSS's (site.css, `.name > .bot-kind`), not a character. */
export function botBadge(kind) {
  const text = kind ? t("bot_" + kind) : "";
  return window.Trix.el("span", { class: "badge bot-kind",
    text: !kind ? "bot" : text === "bot_" + kind ? kind : text });
}

/* A number (a score, a seat number) written for the page's language. In a right-to-left page
   a negative one is isolated left to right (U+2066 ... U+2069), so -15 does not read 15-. */
export function num(value) {
  const text = formatNumber(value);
  const page = document.getElementById("table-app") || document.documentElement;
  return value < 0 && page.closest("[dir=rtl]") !== null
    ? "\u2066" + text + "\u2069" : text;
}

/* A number with its sign ("+200", "-355", "0") for the page's language, isolated left to
   right on a right-to-left page so the sign stays before it ("200+" otherwise). */
export function signedNum(value) {
  const text = (value > 0 ? "+" : "") + formatNumber(value);
  const page = document.getElementById("table-app") || document.documentElement;
  return page.closest("[dir=rtl]") !== null ? "\u2066" + text + "\u2069" : text;
}
