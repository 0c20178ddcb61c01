// Rounce at the table: the trump and turn-up, the calls, the trick in front of the seats
// that played it (with the suit the lead was played as), and the hand's result in words.
import { tileSVG, escapeHtml, tiles, publicFields, hiddenHand, around, trickHTML, suitName, linesSince, finalTrick, signed }
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
    "final_trick"]);
  const info = `<div class="facts">
    <span>Hand ${view.hand_number}</span>
    <span class="trumpfact">Trump <b>${suitName(view.trump)}</b> ${view.turn_up_taken ? "(turn-up taken)" : tileSVG(view.turn_up, { cls: "mini" })}</span>
    <span>Boneyard ${view.boneyard}</span>${view.discards_due ? `<span class="hot">discard ${view.discards_due}</span>` : ""}
    ${view.defending ? "<span>defending</span>" : ""}</div>`;
  const perSeat = (s) =>
    `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
      view.calls[s] ? `<span class="badge">${escapeHtml(view.calls[s])}</span>` : ""
    } tricks ${view.tricks_won[s]}</div>${s === view.seat ? "" : hiddenHand(view.hand_sizes[s])}`;
  const mine = view.discarded && view.discarded.length ? `<div class="muted">your discards ${tiles(view.discarded, { cls: "mini" })}</div>` : "";
  return info + around(view, ctx, perSeat, trickHTML(view, ctx, leadWords(view))) + mine + publicFields(view, used);
}

// The hand as it ended: the last trick stays on the table, every trick counted.
function endView(before, after) {
  const lines = linesSince(before, after);
  const final = finalTrick(before, lines);
  const won = before.tricks_won.slice();
  lines.forEach((l) => {
    const m = /^seat (\d+) wins trick/.exec(l);
    if (m) won[Number(m[1])] += 1;
  });
  return Object.assign({}, before, { final_trick: final, trick: [], tricks_won: (after.last_result || {}).tricks || won,
    hand_sizes: before.hand_sizes.map(() => 0) });
}

function headline(r, ctx) {
  const top = Math.max(...r.tricks);
  const best = r.tricks.map((t, s) => (t === top ? s : -1)).filter((s) => s >= 0);
  return top ? `${escapeHtml(best.map(ctx.seatName).join(" and "))} took ${top} trick${top === 1 ? "" : "s"}${best.length > 1 ? " each" : ""}.` : "";
}

// Who scored what and why: a trick is −1; no trick at all is rounced (+5); a fold scores nothing.
function result(view, r, ctx) {
  // the calls of the ended hand are known only while its board is shown
  const calls = ctx.ending && ctx.ending.before ? ctx.ending.before.calls || [] : null;
  const lines = r.changes.map((c, s) => {
    const who = `<b>${escapeHtml(ctx.seatName(s))}</b>`;
    let why;
    if (calls && calls[s] === "fold") why = "folded: no change";
    else if (c === 0 && r.tricks[s] === 0) why = calls ? "defended: no change" : "folded or defended: no change";
    else if (r.tricks[s] === 0) why = `took no trick and is rounced: ${signed(c)}`;
    else why = `took ${r.tricks[s]} trick${r.tricks[s] === 1 ? "" : "s"}: ${signed(c)}`;
    return `<li>${who} ${why} (now ${r.points[s]})</li>`;
  });
  return `<ul class="scored">${lines.join("")}</ul><p class="muted">Lowest wins; the game ends when someone reaches 0.</p>`;
}

function changes(r) {
  return r.changes;
}

export default { board, describe, ask, handMark, endView, headline, result, changes };
