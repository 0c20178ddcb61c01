// Shared drawing helpers for the game modules: tiles in rows, seats around the table, the
// trick, hidden hands, plain-words values, seat names in log lines, and the generic
// hand-result table. Nothing here knows any game by its id.
import { tileSVG, backsSVG, tileGroup, escapeHtml } from "./tiles.js";

export { tileSVG, tileGroup, escapeHtml };
export const TILE_RE = /^\d+-\d+$/;
// Fields the page itself shows (header, score panel, log, hand).
export const COMMON = new Set(["game", "players", "rules", "seat", "phase", "current_player", "scores", "is_over", "winners", "history", "hand"]);

export const isTile = (x) => typeof x === "string" && TILE_RE.test(x);
export const isTileList = (x) => Array.isArray(x) && x.length > 0 && x.every(isTile);
export const isGroupList = (x) => Array.isArray(x) && x.length > 0 && x.every((g) => Array.isArray(g) && g.every(isTile));

export function tiles(list, opts = {}) {
  return `<span class="tiles">${(list || []).map((t) => tileSVG(t, opts)).join("")}</span>`;
}

export function value(v) {
  if (v === null || v === undefined) return "<span class='muted'>—</span>";
  if (isTile(v)) return tileSVG(v, { cls: "mini" });
  if (isTileList(v)) return tiles(v, { cls: "mini" });
  if (isGroupList(v)) return v.map((g) => `<span class="group">${tiles(g, { cls: "mini" })}</span>`).join(" ");
  if (Array.isArray(v)) return v.map(value).join(", ");
  if (typeof v === "object") {
    return `<span class="obj">${Object.entries(v)
      .map(([k, x]) => `<span><b>${escapeHtml(k)}</b> ${value(x)}</span>`)
      .join(" ")}</span>`;
  }
  return escapeHtml(String(v));
}

export function publicFields(view, used) {
  const rows = Object.entries(view).filter(([k]) => !COMMON.has(k) && !used.has(k));
  if (!rows.length) return "";
  return `<details class="fields"><summary>More of the table</summary><dl>${rows
    .map(([k, v]) => `<dt>${escapeHtml(k.replace(/_/g, " "))}</dt><dd>${value(v)}</dd>`)
    .join("")}</dl></details>`;
}

// Seats placed around a table, the viewer at the bottom: returns seat -> area name.
export function placeSeats(n, me) {
  const base = me === null || me === undefined ? 0 : me;
  const areas = n === 2 ? ["s", "n"] : n === 3 ? ["s", "w", "e"] : ["s", "w", "n", "e"];
  const out = {};
  for (let i = 0; i < n; i++) out[(base + i) % n] = areas[i] || "n";
  return out;
}

export function seatBox(view, ctx, s, inner) {
  const turn = view.current_player === s ? " turn" : "";
  const me = s === view.seat ? " mine" : "";
  const arrow = view.current_player === s ? "<span class='turnmark' title='to play'>▶</span> " : "";
  return `<div class="seatbox${turn}${me}" data-seatbox="${s}"><div class="who" title="${escapeHtml(ctx.seatName(s))}">${arrow}${escapeHtml(
    ctx.seatName(s))}</div>${inner}</div>`;
}

// An opponent's hidden hand: a row of backs on wide screens, a count on narrow ones.
export function hiddenHand(n) {
  if (n === null || n === undefined) return "";
  return `<div class="hidden-hand"><span class="backs">${backsSVG(n)}</span><span class="nback">${n} tile${n === 1 ? "" : "s"}</span></div>`;
}

export function around(view, ctx, perSeat, center) {
  const pos = placeSeats(view.players, view.seat);
  let html = `<div class="around p${view.players}">`;
  for (let s = 0; s < view.players; s++) html += `<div class="pos-${pos[s]}">${seatBox(view, ctx, s, perSeat(s))}</div>`;
  return html + `<div class="pos-c">${center}</div></div>`;
}

// The trick in the middle of the table: each tile in front of the seat that played it.
export function trickHTML(view, trick, ctx) {
  const pos = placeSeats(view.players, view.seat);
  const plays = (trick || [])
    .map((p, i) => `<div class="play at-${pos[p.seat]}${i === 0 ? " lead" : ""}" data-trick-seat="${p.seat}" title="${escapeHtml(
      ctx.seatName(p.seat))}${i === 0 ? " led" : ""}">${tileSVG(p.tile, { vertical: pos[p.seat] === "s" || pos[p.seat] === "n" })}</div>`)
    .join("");
  return `<div class="trick" aria-label="the trick">${plays || "<span class='muted empty'>no tile played yet</span>"}</div>`;
}

export function lastTrick(view, ctx) {
  const t = (view.tricks || [])[view.tricks.length - 1];
  if (!t) return "";
  return `<div class="lasttrick">Last trick, won by <b>${escapeHtml(ctx.seatName(t.winner))}</b>${
    t.points ? ` (${t.points} points)` : ""}: ${t.plays.map((p) => tileSVG(p.tile, { cls: "mini", title: `${p.tile} by ${ctx.seatName(p.seat)}` })).join("")}</div>`;
}

// ----- words for actions and log lines -------------------------------------------------

export function nameSeats(text, ctx) {
  return escapeHtml(text)
    .replace(/\bseats (\d+(?:\+\d+)+)/g, (_, list) => list.split("+").map((n) => `<b>${escapeHtml(ctx.seatName(Number(n)))}</b>`).join(" & "))
    .replace(/\bseat (\d+)\b/g, (_, n) => `<b>${escapeHtml(ctx.seatName(Number(n)))}</b>`);
}

// ----- hand results ------------------------------------------------------------------
const SEAT_KEYS = new Set(["winner", "from", "dealer", "bidder", "seat", "loser", "setter", "shuffler", "leader"]);
const HIDE_KEYS = new Set(["hand"]);
const LIST_KEYS = new Set(["sets", "breakdown", "plays", "tricks_list"]); // lists that are not one entry per seat

export function label(k) {
  return escapeHtml(k.replace(/_/g, " "));
}

// A finished hand's result: facts first, then one column per seat (or per side).
export function resultHTML(view, r, ctx) {
  const n = view.players;
  const sides = Array.isArray(view.partners) ? view.partners : null;
  const facts = [];
  const perSeat = [];
  const perSide = [];
  Object.entries(r).forEach(([k, v]) => {
    if (HIDE_KEYS.has(k) || v === null || v === undefined) return;
    if (SEAT_KEYS.has(k) && typeof v === "number") facts.push(`<span><b>${label(k)}</b> ${escapeHtml(ctx.seatName(v))}</span>`);
    else if (k.endsWith("_by") && Array.isArray(v) && v.every((x) => typeof x === "number"))
      facts.push(`<span><b>${label(k)}</b> ${v.map((x) => escapeHtml(ctx.seatName(x))).join(" & ")}</span>`);
    else if (Array.isArray(v) && !isTileList(v) && !LIST_KEYS.has(k) && v.length === n) perSeat.push([k, v]);
    else if (sides && Array.isArray(v) && !isTileList(v) && !LIST_KEYS.has(k) && v.length === sides.length) perSide.push([k, v]);
    else if (typeof v === "boolean") facts.push(`<span><b>${label(k)}</b> ${v ? "yes" : "no"}</span>`);
    else facts.push(`<span><b>${label(k)}</b> ${value(v)}</span>`);
  });
  const cell = (x) => `<td class="${typeof x === "number" ? "num" : ""}">${value(x)}</td>`;
  // one row per seat (or side), one column per figure: narrow panels stay readable
  // tile lists (the hands left) go on a full-width line under their seat's figures
  const isTiles = ([, v]) => v.some((x) => Array.isArray(x) && x.length && x.every(isTile));
  const grid = (heads, all) => {
    const cols = all.filter((c) => !isTiles(c));
    const tileCols = all.filter(isTiles);
    if (!all.length) return "";
    const under = (i) => tileCols.map(([k, v]) => v[i] && v[i].length
      ? `<tr class="under"><td colspan="${cols.length + 1}"><small>${label(k)}</small> ${value(v[i])}</td></tr>` : "").join("");
    return `<div class="scroll-x"><table class="list result"><thead><tr><th></th>${cols.map(([k]) => `<th>${label(k)}</th>`).join("")}</tr></thead><tbody>${heads
      .map((h, i) => `<tr><th>${h}</th>${cols.map(([, v]) => cell(v[i])).join("")}</tr>${under(i)}`).join("")}</tbody></table></div>`;
  };
  const seatHeads = Array.from({ length: n }, (_, s) => escapeHtml(ctx.seatName(s)));
  const sideHeads = (sides || []).map((seats) => seats.map((s) => escapeHtml(ctx.seatName(s))).join(" & "));
  return `<div class="facts dark">${facts.join("")}</div>${grid(sideHeads, perSide)}${grid(seatHeads, perSeat)}`;
}

export const PIPNAMES = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"];
export const suitName = (n) => (n === null || n === undefined ? "—" : PIPNAMES[n] || String(n));

// The tiles of a group, whether the engine sends it as a list or as {tiles: [...]}.
export function groupTiles(g) {
  return Array.isArray(g) ? g : g && Array.isArray(g.tiles) ? g.tiles : [];
}
