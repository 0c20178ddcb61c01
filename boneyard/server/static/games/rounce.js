// Rounce at the table: the trump and turn-up, the calls, the trick in front of the seats
// that played it (with the suit the lead was played as); at a hand's end, its last trick
// with its winner and every trick of the hand, from the hand_end event.
import { tileSVG, escapeHtml, tiles, publicFields, hiddenHand, around, trickHTML, tricksHTML, suitName, signed }
  from "../core/board.js";

const SIMPLE = { pass: "Pass — play this hand", fold: "Fold — sit this hand out", dummy: "Dummy — take a new hand",
  defend: "Defend — stop the dummy player", take: "Take the turn-up" };
const ASK = { call: "make a call", discard: "discard face down", play: "play a tile to the trick" };

function describe(action) {
  if (SIMPLE[action]) return SIMPLE[action];
  const w = action.split(" ");
  if (w[0] === "discard") return `Discard ${w[1]} face down`;
  if (w[0] === "play" && w[2] === "as") return `Lead ${w[1]} as ${suitName(Number(w[3]))}`;
  if (w[0] === "play") return `Play ${w[1]}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return ASK[phase] || String(phase);
}

const isTrump = (tile, view) => view.trump !== null && view.trump !== undefined && tile.split("-").map(Number).includes(view.trump);

// Trumps are marked in the hand.
function handMark(tile, view) {
  return isTrump(tile, view) ? { cls: "trump", label: "trump" } : null;
}

// What the lead was played as: a trump, or the suit its leader named.
function leadWords(view) {
  const lead = (view.trick || [])[0];
  if (!lead || lead.suit === null || lead.suit === undefined) return "";
  return lead.suit === view.trump ? "trump led" : `led as ${suitName(lead.suit)}`;
}

function board(view, ctx) {
  const used = new Set(["hand_number", "dealer", "trump", "turn_up", "turn_up_taken", "calls", "hand_sizes", "trick",
    "tricks", "tricks_won", "boneyard", "discarded", "leader", "last_result", "out", "dummies", "defending", "discards_due",
    "final_trick", "played", "ended", "rounced"]);
  const turnUp = view.ended ? "" : view.turn_up_taken ? "(turn-up taken)" : tileSVG(view.turn_up, { cls: "mini" });
  const info = `<div class="facts">
    <span>Hand ${view.hand_number}</span>
    <span class="trumpfact">Trump <b>${suitName(view.trump)}</b> ${turnUp}</span>
    ${view.ended ? "" : `<span>Boneyard ${view.boneyard}</span>`}${view.discards_due ? `<span class="hot">discard ${view.discards_due}</span>` : ""}
    ${view.defending ? "<span>defending</span>" : ""}</div>`;
  const perSeat = (s) =>
    `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
      view.calls[s] ? `<span class="badge">${escapeHtml(view.calls[s])}</span>` : ""
    }${(view.rounced || []).includes(s) ? "<span class='badge hot'>rounced</span>" : ""} tricks ${view.tricks_won[s]}</div>${
      s === view.seat || view.ended ? "" : hiddenHand(view.hand_sizes[s])}`;
  // a folded seat's whole hand is set aside with its discards: say which it is
  const folded = view.seat !== null && view.seat !== undefined && (view.calls || [])[view.seat] === "fold";
  const mine = view.discarded && view.discarded.length
    ? `<div class="muted">${folded ? "you folded: your hand, out of play this hand" : "your discards, face down"} ${tiles(view.discarded, { cls: "mini" })}</div>` : "";
  const played = view.ended ? tricksHTML(view.played, ctx) : "";
  return info + around(view, ctx, perSeat, trickHTML(view, ctx, leadWords(view))) + mine + played + publicFields(view, used);
}

// The hand as it ended, from its hand_end event: the calls, the tricks each seat took, the
// last trick on the table with its winner, and every trick of the hand.
function endView(end, view) {
  const played = end.played || [];
  const last = played[played.length - 1];
  return { game: view.game, players: view.players, seat: view.seat, rules: view.rules, ended: true, current_player: null,
    hand_number: end.hand, dealer: end.dealer, trump: end.trump, calls: end.calls, tricks_won: end.tricks,
    rounced: end.rounced, trick: [], final_trick: last ? { plays: last.plays, winner: last.seat } : null, played };
}

// What the server's sentence leaves to the rules: how the scores count. Who took what is in
// the sentence, and on the board while it shows the ended hand; beside a later hand, the
// tricks each seat took.
function result(view, end, ctx) {
  const rule = "<p class='muted'>A trick takes 1 point off; no trick at all puts 5 back on. Lowest wins; the game ends when someone reaches 0.</p>";
  if (ctx.ending) return rule;
  const lines = end.tricks.map((n, s) => `<li><b>${escapeHtml(ctx.seatName(s))}</b>: ${(end.calls || [])[s] === "fold" ? "folded"
    : `${n} trick${n === 1 ? "" : "s"}`}, ${signed(end.points[s])}</li>`);
  return `<ul class="scored">${lines.join("")}</ul>${rule}`;
}

export default { board, describe, ask, handMark, endView, result };
