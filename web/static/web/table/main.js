/* The table page: follows GET /api/tables/{id}/stream/ (or long-polls .../state/?since=V)
   and renders the seat's view (games.engine views); posts actions to
   /api/tables/{id}/actions/. Answer shapes: games/api/answers.py (and /api/schema/).
   ES modules, no build step:
     state.js     the one state object (st), the page's root, helpers that read the state
     server.js    the live stream or long poll (absorb: an answer into the state), actions,
                  seats, payout; it asks for a redraw (state.js's redraw), it imports no region
     render.js    render(): every region from the state
     header.js, seating.js, felt.js, controls.js, scores.js, result.js: one region each
     summary.js   the deal summary (the view's deal_summary), kept into the next deal
     result.js    the match result at the top: won/lost/draw, place, payout and its reason,
                  the rematch (rematch.js: propose, accept, decline, share), Back to the lobby
     leave.js     Leave during the match: its consequence, a confirmation, the outcome
     presence.js  the away marks on the seats and the notice to the returning player
     turn.js      your turn: the tab title, the favicon, an optional beep, a notification
     fairness.js  what this browser keeps (commitment, client seed, hands) and its checks
     verify.js    the self-contained check of a deal record (trix-shuffle/1, WebCrypto)
     texts.js     every word the scripts show, in one place, through ../i18n.js (gettext)
   The page's direction follows its language (base.html's <html dir>, or the language here);
   the felt is drawn the same in both directions (table.html). */

import { tick } from "./controls.js";
import { render } from "./render.js";
import { renderResult } from "./result.js";
import { poll } from "./server.js";
import { $, T, redraw, root } from "./state.js";
import { language } from "../i18n.js";

if (root) {
  if (!document.documentElement.getAttribute("dir")) {
    root.dir = ["ar", "fa", "he", "ur"].includes(language.split("-")[0]) ? "rtl" : "ltr";
  }
  redraw.all = render;
  redraw.result = renderResult;
  setInterval(tick, 250);
  $("#client-seed").value = T.randomHex(16);
  $("#new-seed").addEventListener("click", () => {
    $("#client-seed").value = T.randomHex(16);
    $("#seed-error").hidden = true;
  });
  poll();
}
