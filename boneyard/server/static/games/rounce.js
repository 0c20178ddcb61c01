// Rounce at the table: the trump and turn-up, the calls, the trick in front of the
// seats that played it, and the last trick won.
import { tileSVG, escapeHtml, tiles, publicFields, hiddenHand, around, trickHTML, lastTrick, suitName } from "../core/board.js";

const SIMPLE = { pass: "Pass — play this hand", fold: "Fold — sit this hand out", dummy: "Dummy — take a new hand",
  defend: "Defend — stop the dummy player", take: "Take the turn-up" };
const ASK = { call: "make a call", discard: "discard face down", play: "play a tile to the trick" };

function describe(action) {
  if (SIMPLE[action]) return SIMPLE[action];
  const w = action.split(" ");
  if (w[0] === "discard") return `Discard ${w[1]} face down`;
  if (w[0] === "play" && w[2] === "as") return `Lead ${w[1]} as ${suitName(Number(w[3]))}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return ASK[phase] || String(phase);
}

function board(view, ctx) {
  const used = new Set(["hand_number", "dealer", "trump", "turn_up", "turn_up_taken", "calls", "hand_sizes", "trick",
    "tricks", "tricks_won", "boneyard", "discarded", "leader", "last_result", "out", "dummies", "defending", "discards_due"]);
  const info = `<div class="facts">
    <span>Hand ${view.hand_number}</span>
    <span>Trump <b>${suitName(view.trump)}</b> ${view.turn_up_taken ? "(turn-up taken)" : tileSVG(view.turn_up, { cls: "mini" })}</span>
    <span>Boneyard ${view.boneyard}</span>${view.discards_due ? `<span class="hot">discard ${view.discards_due}</span>` : ""}
    ${view.defending ? "<span>defending</span>" : ""}</div>`;
  const perSeat = (s) =>
    `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
      view.calls[s] ? `<span class="badge">${escapeHtml(view.calls[s])}</span>` : ""
    } tricks ${view.tricks_won[s]}</div>${s === view.seat ? "" : hiddenHand(view.hand_sizes[s])}`;
  const mine = view.discarded && view.discarded.length ? `<div class="muted">your discards ${tiles(view.discarded, { cls: "mini" })}</div>` : "";
  return info + around(view, ctx, perSeat, trickHTML(view, view.trick, ctx)) + lastTrick(view, ctx) + mine + publicFields(view, used);
}


export default { board, describe, ask };
