// Montana at the table: the woodpile, each seat's exposed sets and discards, the last
// discard in the middle, and claims.
import { tileSVG, escapeHtml, tiles, value, publicFields, hiddenHand, around, groupTiles } from "../core/board.js";

const SIMPLE = { out: "Go out on the pulled tile", pass: "Let the discard go", "claim out": "Go out on this discard",
  "claim triple": "Claim it for a triple", "claim quad": "Claim it for a quad", "claim pair": "Claim it for a pair" };
const ASK = { turn: "go out, or discard a tile", discard: "discard a tile", claim: "claim the discard or let it go" };

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

function board(view, ctx) {
  const used = new Set(["hand_sizes", "woodpile", "discards", "exposed", "dealer", "hand_number", "chips", "outs",
    "ready", "stakes", "claim", "pulled", "mode", "dead_hands", "deal_passes", "last_result"]);
  const discards = Array.isArray(view.discards) ? view.discards : [];
  const last = discards.length ? discards[discards.length - 1] : null;
  const html = `<div class="facts">${view.hand_number !== undefined ? `<span>Hand ${view.hand_number}</span>` : ""}${
    view.dealer !== undefined ? `<span>Dealer ${escapeHtml(ctx.seatName(view.dealer))}</span>` : ""
  }${view.woodpile !== undefined ? `<span>Woodpile ${view.woodpile}</span>` : ""}${view.mode ? `<span>Mode ${escapeHtml(view.mode)}</span>` : ""}${
    view.pulled && view.pulled.length ? `<span>you pulled ${tiles(view.pulled, { cls: "mini" })}</span>` : ""
  }${view.claim ? `<span class="hot">claim open: ${value(view.claim)}</span>` : ""}</div>`;
  const perSeat = (s) => {
    let inner = `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
      view.ready && view.ready[s] ? "<span class='badge'>ready</span>" : ""
    }${view.outs ? ` outs ${view.outs[s]}` : ""}</div>`;
    const sets = Array.isArray(view.exposed) ? view.exposed[s] || [] : [];
    if (sets.length) {
      inner += `<div class="sets"><small class="cap">sets</small>${sets
        .map((set) => `<span class="group" title="${escapeHtml(set.kind || "")}">${tiles(groupTiles(set), { cls: "mini" })}${
          set.concealed ? "<small>concealed</small>" : ""}</span>`)
        .join("")}</div>`;
    }
    const mine = discards.filter((d) => d[0] === s).map((d) => d[1]);
    if (mine.length) inner += `<div class="discards"><small class="cap">discards</small>${tiles(mine.slice(-12), { cls: "mini" })}</div>`;
    if (view.hand_sizes && s !== view.seat) inner += hiddenHand(view.hand_sizes[s]);
    return inner;
  };
  const center = last ? `<div class="lastdiscard">last discard<br>${tileSVG(last[1])}<br><small>by ${escapeHtml(ctx.seatName(last[0]))}</small></div>` : "";
  return html + around(view, ctx, perSeat, center) + publicFields(view, used);
}

export default { board, describe, ask };
