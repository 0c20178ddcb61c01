// Montana at the table: the woodpile, each seat's exposed sets and discards, the last
// discard in the middle, the open claim, the pulled tile marked in the hand; at a hand's
// end, every seat's sets and discards and the winner's hand, from the hand_end event.
import { tileSVG, escapeHtml, tiles, publicFields, hiddenHand, around, groupTiles, nameList } from "../core/board.js";

const SIMPLE = { out: "Go out on the pulled tile", pass: "Let the discard go", "claim out": "Go out on this discard",
  "claim triple": "Claim it for a triple", "claim quad": "Claim it for a quad", "claim pair": "Claim it for a pair" };
const ASK = { turn: "go out, or discard a tile", discard: "discard a tile", claim: "claim the discard or let it go" };
const KIND = { run: "run", pair: "pair", triple: "triple", quad: "quad" };

function describe(action) {
  if (SIMPLE[action]) return SIMPLE[action];
  const w = action.split(" ");
  if (w[0] === "discard") return `Discard ${w[1]}${w[2] === "ready" ? " and declare ready" : ""}`;
  if (w[0] === "quad") return `Lay a concealed quad of ${w[1]}`;
  if (w[0] === "add") return `Add ${w[1]} to your exposed triple`;
  if (w[0] === "claim" && w[1] === "run") return `Claim it for a run with ${w.slice(2).join(" ")}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return ASK[phase] || String(phase);
}

// The tile just pulled from the woodpile is marked in the hand.
function handMark(tile, view, i, hand) {
  const pulled = view.pulled || [];
  const last = pulled[pulled.length - 1];
  return last === tile && hand.lastIndexOf(tile) === i ? { cls: "pulled", label: "pulled" } : null;
}

function setHTML(set) {
  return `<span class="group" title="${escapeHtml(`${set.concealed ? "concealed" : "exposed"} ${KIND[set.kind] || set.kind}`)}">${
    tiles(groupTiles(set), { cls: "mini" })}<small>${escapeHtml(KIND[set.kind] || set.kind)}${set.concealed ? ", concealed" : ""}</small></span>`;
}

// A claim in words: who discarded what, and who has answered so far.
function claimWords(claim, ctx) {
  const answered = claim.answered || [];
  return `${escapeHtml(ctx.seatName(claim.from))} discarded ${tileSVG(claim.tile, { cls: "mini" })}: waiting for claims${
    answered.length ? ` (${escapeHtml(nameList(answered, ctx))} answered)` : ""}`;
}

function board(view, ctx) {
  const used = new Set(["hand_sizes", "woodpile", "discards", "exposed", "dealer", "hand_number", "chips", "outs",
    "ready", "stakes", "claim", "pulled", "mode", "dead_hands", "deal_passes", "last_result", "my_answer",
    "proved_limits", "proved_ready", "ended", "winner", "how", "tile", "discarder"]);
  const discards = Array.isArray(view.discards) ? view.discards : [];
  const last = discards.length ? discards[discards.length - 1] : null;
  const shootout = view.mode === "shootout";
  const html = `<div class="facts">${view.hand_number !== undefined ? `<span>Hand ${view.hand_number}</span>` : ""}${
    view.dealer !== undefined ? `<span>Dealer ${escapeHtml(ctx.seatName(view.dealer))}</span>` : ""
  }${view.woodpile !== undefined ? `<span>Woodpile ${view.woodpile}</span>` : ""}${shootout ? "<span>Shoot-out: most outs wins</span>" : ""}${
    view.claim && !view.ended ? `<span class="hot">${claimWords(view.claim, ctx)}</span>` : ""}</div>`;
  const perSeat = (s) => {
    let inner = `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
      view.ready && view.ready[s] ? "<span class='badge'>ready</span>" : ""
    }${shootout && view.outs ? ` outs ${view.outs[s]}` : ""}</div>`;
    const sets = Array.isArray(view.exposed) ? view.exposed[s] || [] : [];
    if (sets.length) inner += `<div class="sets"><small class="cap">sets</small>${sets.map(setHTML).join("")}</div>`;
    const mine = discards.filter((d) => d[0] === s).map((d) => d[1]);
    // in play the newest dozen; at the hand's end all of them, as they lie
    if (mine.length) inner += `<div class="discards"><small class="cap">discards</small>${tiles(view.ended ? mine : mine.slice(-12), { cls: "mini" })}</div>`;
    if (view.hand_sizes && s !== view.seat) inner += hiddenHand(view.hand_sizes[s]);
    return inner;
  };
  const center = view.ended ? outWords(view, ctx)
    : last ? `<div class="lastdiscard">last discard<br>${tileSVG(last[1])}<br><small>by ${escapeHtml(ctx.seatName(last[0]))}</small></div>` : "";
  return html + around(view, ctx, perSeat, center) + publicFields(view, used);
}

// ----- the end of a hand -------------------------------------------------------------------

// The middle of the table when the hand is over: the tile that made the winning hand, or the drawn hand.
function outWords(view, ctx) {
  if (view.winner === null || view.winner === undefined) return `<div class="lastdiscard">drawn<br><small>the woodpile ran out</small></div>`;
  const on = view.how === "claim" ? `on ${escapeHtml(ctx.seatName(view.discarder))}'s discard` : "on a pulled tile";
  return `<div class="lastdiscard" data-out-tile="${escapeHtml(view.tile)}">${escapeHtml(ctx.seatName(view.winner))} went out<br>${
    tileSVG(view.tile)}<br><small>${on}</small></div>`;
}

// The hand as it ended, from its hand_end event: every seat's sets (the winner's whole
// hand), the discards left on the table, who went out and on which tile. Nothing waits for
// a claim any more.
function endView(end, view) {
  return { game: view.game, players: view.players, seat: view.seat, rules: view.rules, mode: view.mode, ended: true,
    current_player: null, claim: null, hand_number: end.hand, dealer: end.dealer, exposed: end.exposed, discards: end.discards,
    ready: end.stakes.map((x) => x > 0), winner: end.winner, how: end.how, tile: end.tile, discarder: end.discarder };
}

// The winner's hand and what it is worth, from the hand_end event (nothing for a drawn hand);
// while the board shows the ended hand, the winner's sets lie there.
function result(view, end, ctx) {
  if (end.winner === null || end.winner === undefined) return "";
  const whose = end.winner === view.seat ? "Your" : `${escapeHtml(ctx.seatName(end.winner))}'s`;
  const sets = ctx.ending ? "" : `<p>${whose} hand:</p><div class="sets winner-sets">${end.sets.map(setHTML).join("")}</div>`;
  const worth = end.breakdown.length && end.value
    ? `<ul class="scored">${end.breakdown.map(([what, n]) => `<li>${escapeHtml(what)}: ${n}</li>`).join("")}</ul>` : "";
  return sets + worth;
}

export default { board, describe, ask, handMark, endView, result };
