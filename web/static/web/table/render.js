/* The table page's render: every region from the state object.
   An ES module of the table page (no build step): web/static/web/table/main.js starts it. */

import { renderActions, renderHand, tick } from "./controls.js";
import { markPendingInHand, renderCenter, renderSeats } from "./felt.js";
import { contractLine, renderHeader } from "./header.js";
import { renderResult } from "./result.js";
import { renderScores } from "./scores.js";
import { renderSeating } from "./seating.js";
import { renderLeave } from "./leave.js";
import { renderAway } from "./presence.js";
import { renderDealSummary } from "./summary.js";
import { renderTurn } from "./turn.js";

export function render() {
  renderHeader();
  renderSeating();
  contractLine();
  renderSeats();
  renderCenter();
  renderActions();
  renderHand();
  markPendingInHand();
  renderScores();
  renderResult();
  // tablesummary: the deal summary, Leave, away marks (after renderSeats), your-turn signals
  renderDealSummary();
  renderLeave();
  renderAway();
  renderTurn();
  tick();
}
