// Shared drawing helpers for the game modules: tiles in rows, seats around the table, the
// trick, hidden hands, plain-words values, the events of a view (the hand's end), and the
// generic hand-result table. Nothing here knows any game by its id, and nothing here reads
// the log's sentences: they are the server's words for people, drawn as they are.
import { tileSVG, backsSVG, tileGroup, escapeHtml } from "./tiles.js";

export { tileSVG, tileGroup, escapeHtml };
export const TILE_RE = /^\d+-\d+$/;
// Fields the page itself shows (header, score panel, log, hand).
export const COMMON = new Set(["game", "players", "rules", "seat", "phase", "current_player", "scores", "is_over", "winners", "events",
  "events_from", "partners", "hand"]);

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
  // a bot account (a program its owner connects) is marked as a bot wherever its name appears
  const seat = ctx.state && ctx.state.seats ? ctx.state.seats[s] : null;
  const bot = seat && seat.account === "bot" ? " <span class='badge' title='a bot account'>bot</span>" : "";
  return `<div class="seatbox${turn}${me}" data-seatbox="${s}"><div class="who" title="${escapeHtml(ctx.seatName(s))}">${arrow}${escapeHtml(
    ctx.seatName(s))}${bot}</div>${inner}</div>`;
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

// The trick in the middle of the table, each tile in front of the seat that played it.
// While nobody has led to the next trick, the trick just won stays in place, marked with
// its winner; `lead` (optional) says what the lead was played as ("led as fours").
export function trickHTML(view, ctx, lead = "") {
  const pos = placeSeats(view.players, view.seat);
  let trick = view.trick || [];
  let winner = null;
  const last = (view.tricks || [])[(view.tricks || []).length - 1];
  if (view.final_trick) ({ plays: trick, winner } = view.final_trick);
  else if (!trick.length && last) ({ plays: trick, winner } = last);
  // plays by the others since this seat last acted are outlined
  const before = ctx.since ? ctx.since.trick || [] : null;
  const mark = (p) => before !== null && p.seat !== view.seat && !before.some((q) => q.seat === p.seat && q.tile === p.tile);
  const plays = trick
    .map((p, i) => `<div class="play at-${pos[p.seat]}${i === 0 ? " lead" : ""}${mark(p) ? " new" : ""}" data-trick-seat="${p.seat}" data-tile="${
      escapeHtml(p.tile)}" title="${escapeHtml(
      ctx.seatName(p.seat))}${i === 0 ? " led" : ""}">${tileSVG(p.tile, { vertical: pos[p.seat] === "s" || pos[p.seat] === "n" })}</div>`)
    .join("");
  const caption = winner !== null && winner !== undefined
    ? `<span class="caption">won by <b>${escapeHtml(ctx.seatName(winner))}</b></span>`
    : lead ? `<span class="caption">${escapeHtml(lead)}</span>` : "";
  const cls = winner !== null && winner !== undefined ? " done" : "";
  return `<div class="trick${cls}" aria-label="the trick" data-trick-winner="${winner === null ? "" : winner}">${
    plays ? plays + caption : "<span class='muted empty'>no tile played yet</span>"}</div>`;
}

// ----- the events of a view ------------------------------------------------------------

// The newest hand_end event of a view, with its place in view.events: {event, index}, or null.
// A view keeps the previous hand's end through the next hand, so this is the hand that ended last.
export function handEnd(view) {
  const events = (view && view.events) || [];
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === "hand_end") return { event: events[i], index: i };
  return null;
}

// The events of the ended hand that lie before its hand_end in the view, back to that hand's
// deal (after the next deal the view keeps only what the hand's last action logged).
export function endingEvents(view, index) {
  const events = (view.events || []).slice(0, index);
  let start = events.length;
  while (start > 0 && events[start - 1].kind !== "deal" && events[start - 1].kind !== "hand_end") start -= 1;
  return events.slice(start);
}

// The last event of the given kinds among `events`, or null.
export function lastOf(events, kinds) {
  for (let i = events.length - 1; i >= 0; i--) if (kinds.includes(events[i].kind)) return events[i];
  return null;
}

// Every trick of a hand as it was played (a hand_end's `played`: its trick events, `seat` the winner).
export function tricksHTML(played, ctx) {
  if (!played || !played.length) return "";
  const rows = played.map((t, i) => `<li data-trick="${i + 1}" data-trick-winner="${t.seat}"><span class="num">${i + 1}</span> ${
    t.plays.map((p) => `<span title="${escapeHtml(ctx.seatName(p.seat))}" data-tile="${escapeHtml(p.tile)}">${tileSVG(p.tile, { cls: "mini" })}</span>`).join("")}
    <small>won by <b>${escapeHtml(ctx.seatName(t.seat))}</b></small></li>`).join("");
  return `<details class="played"><summary>The tricks of the hand</summary><ol class="tricklist">${rows}</ol></details>`;
}

// ----- hand results ------------------------------------------------------------------
const SEAT_KEYS = new Set(["winner", "from", "dealer", "bidder", "seat", "loser", "setter", "shuffler", "leader"]);
// the kind, the hand's number and the figures of the totals table are shown elsewhere
const HIDE_KEYS = new Set(["kind", "hand", "points", "totals"]);
const LIST_KEYS = new Set(["sets", "breakdown", "plays", "tricks_list"]); // lists that are not one entry per seat

export function label(k) {
  return escapeHtml(k.replace(/_/g, " "));
}

// A finished hand's result (its hand_end event): facts first, then one row per seat (or per side).
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

// the suits as boneyard/words names them (Words.suit), so the board and the sentences agree
export const PIPNAMES = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"];
export const suitName = (n) => (n === null || n === undefined ? "—" : PIPNAMES[n] || String(n));

// The tiles of a group, whether the engine sends it as a list or as {tiles: [...]}.
export function groupTiles(g) {
  return Array.isArray(g) ? g : g && Array.isArray(g.tiles) ? g.tiles : [];
}

// Seats by name, for a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy".
export function nameList(seats, ctx) {
  const names = seats.map((s) => ctx.seatName(s));
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// A signed change: "+5", "−3", "0".
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}
