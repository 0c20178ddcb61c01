// Two-box at the table: the cross (one SVG drawing), the count, the last play, and the
// seats with their tile counts; at a hand's end, the layout its hand_end event carries.
import { escapeHtml, tileGroup, publicFields, seatBox, tiles, lastOf } from "../core/board.js";

const ARM_NAMES = { 0: "the spinner", 1: "arm 1 (left)", 2: "arm 2 (right)", 3: "arm 3 (top)", 4: "arm 4 (bottom)" };
const SIMPLE = { draw: "Draw from the boneyard", pass: "Pass" };

function describe(action) {
  if (SIMPLE[action]) return SIMPLE[action];
  const w = action.split(" ");
  if (w[0] === "play") return `Play ${w[1]} on ${ARM_NAMES[w[3]] || `arm ${w[3]}`}`;
  if (w[0] === "stack") return `Stack ${w[1]} on ${ARM_NAMES[w[3]] || `arm ${w[3]}`}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return phase === "play" ? "play a tile on an arm (or draw)" : String(phase);
}

// ----- Two-box -----------------------------------------------------------------------
// The cross is one SVG drawing, laid out like tiles on a table: the spinner stands
// crosswise in the middle; arm 1 runs left, arm 2 right, arm 3 (tip) up, arm 4 down.
// Along an arm a non-double lies lengthwise with the end that matches the previous tile
// touching it; a double lies crosswise. A side arm longer than the board allows turns a
// corner (arm 1 up, arm 2 down, beside the tips, so arms never meet); the tips run
// straight. The drawing then scales down to fit the board.
const U = 40;
const SCALE = 0.8; // pixels per unit at natural size
const ARM_DIRS = { 1: "l", 2: "r", 3: "u", 4: "d" };
const TURN = { l: "u", r: "d" };
const HORIZ = (d) => d === "l" || d === "r";

// A tile's rectangle when its near edge is at `edge` along `dir`, centred on `lane`.
function placeRect(dir, edge, lane, len, wid) {
  if (dir === "r") return { x: edge, y: lane - wid / 2, w: len, h: wid };
  if (dir === "l") return { x: edge - len, y: lane - wid / 2, w: len, h: wid };
  if (dir === "d") return { x: lane - wid / 2, y: edge, w: wid, h: len };
  return { x: lane - wid / 2, y: edge - len, w: wid, h: len };
}

function farEdge(rect, dir) {
  return { r: rect.x + rect.w, l: rect.x, d: rect.y + rect.h, u: rect.y }[dir];
}

// Lay one arm out from the spinner: tiles with rectangles and pip order, and where its label goes.
function layoutArm(arm, spinnerRect, runLimit) {
  const d0 = ARM_DIRS[arm.arm];
  const d1 = TURN[d0];
  let dir = d0;
  let edge = farEdge(spinnerRect, dir);
  let lane = 0;
  let run = 0;
  let prev = null; // {rect, double, dir}
  const placed = [];
  (arm.tiles || []).forEach((t, i) => {
    const [a, b] = t.tile.split("-").map(Number);
    const isDouble = a === b;
    const inner = t.outer === a ? b : a;
    const len = isDouble ? U : 2 * U;
    if (d1 && dir === d0 && prev && run + len > runLimit) {
      // Turn the corner: continue from the side of the previous tile's far half.
      const next = d1;
      const r = prev.rect;
      const alongFar = farEdge(r, dir);
      // the centre of the far half (of a crosswise double: its middle) becomes the new lane
      lane = dir === "r" || dir === "d" ? alongFar - U / 2 : alongFar + U / 2;
      dir = next;
      edge = farEdge(r, dir);
      run = 0;
    }
    const rect = placeRect(dir, edge, lane, len, isDouble ? 2 * U : U);
    // Pip order for drawing: left/top half first. The inner end faces back along `dir`.
    const forward = dir === "r" || dir === "d";
    const first = isDouble ? a : forward ? inner : t.outer;
    const second = isDouble ? a : forward ? t.outer : inner;
    const vertical = isDouble ? HORIZ(dir) : !HORIZ(dir);
    placed.push({ t, i, rect, first, second, vertical, isDouble, dir });
    prev = { rect, double: isDouble };
    edge = farEdge(rect, dir);
    run += len;
  });
  return { placed, dir, edge, lane };
}

// An arm's label, just past its end; past a stacked end tile's ×2 mark (which stands out
// 9 units beyond the tile's corner), further out, so that the two never overlap.
function labelBox(text, dir, edge, lane, stackedEnd = false) {
  const w = text.length * 9 + 16;
  const h = 24;
  const gap = stackedEnd ? 22 : 6;
  if (dir === "r") return { x: edge + gap, y: lane - h / 2, w, h };
  if (dir === "l") return { x: edge - gap - w, y: lane - h / 2, w, h };
  if (dir === "d") return { x: lane - w / 2, y: edge + gap, w, h };
  return { x: lane - w / 2, y: edge - gap - h, w, h };
}

function stackMark(rect, by, ctx) {
  const who = escapeHtml(ctx.seatName(by));
  return `<g class="stackmark"><title>stacked by ${who}</title><circle cx="${rect.x + rect.w - 4}" cy="${rect.y + 4}" r="13"/>` +
    `<text x="${rect.x + rect.w - 4}" y="${rect.y + 9}" text-anchor="middle">×2</text></g>`;
}

// The square a tile's ×2 mark covers (its circle, as stackMark draws it, and a margin).
function markBox(rect) {
  return { x: rect.x + rect.w - 4 - 15, y: rect.y + 4 - 15, w: 30, h: 30 };
}

// A label moved out along its arm's direction until it covers no ×2 mark: a stacked double
// laid crosswise beside the spinner puts its mark where the next arm's label would stand.
function clearOf(box, dir, marks) {
  const meet = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const step = { r: [4, 0], l: [-4, 0], d: [0, 4], u: [0, -4] }[dir] || [0, -4];
  const out = { ...box };
  for (let i = 0; i < 40 && marks.some((m) => meet(out, m)); i++) {
    out.x += step[0];
    out.y += step[1];
  }
  return out;
}

// What each play of this hand scored, from the view's events (a score event follows the
// play, stack or spinner that made the count a multiple of 5): "arm|tile" -> points, the
// spinner's arm being 0.
function scoredPlays(view) {
  const out = new Map();
  let prev = null;
  let last = null; // the key of the hand's latest play
  (view.events || []).forEach((e) => {
    if (e.kind === "score" && prev) out.set(prev, e.points);
    prev = e.kind === "play" ? `${e.arm}|${e.tile}` : e.kind === "stack" ? `${e.on}|${e.tile}` : e.kind === "spinner" ? `0|${e.tile}` : null;
    if (prev) last = prev;
  });
  out.last = last;
  return out;
}

// Where "+15" goes beside a tile whose play scored: under a crosswise tile, right of an
// upright one, clear of its pips, of the spinner and of the ×2 mark (the tile's top right).
function scoreBox(rect) {
  return rect.w > rect.h
    ? { x: rect.x + rect.w / 2 - 20, y: rect.y + rect.h + 3, w: 40, h: 24 }
    : { x: rect.x + rect.w + 3, y: rect.y + rect.h / 2 - 12, w: 40, h: 24 };
}

function scoreMark(rect, points) {
  const b = scoreBox(rect);
  return `<g class="scoremark"><title>this play scored ${points}</title><rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="12"/>` +
    `<text x="${b.x + b.w / 2}" y="${b.y + 17}" text-anchor="middle">+${points}</text></g>`;
}

function tileAt(first, second, rect, vertical, attrs, stackedBy, ctx, fresh = false, scored = 0) {
  const stacked = stackedBy !== null && stackedBy !== undefined;
  const shadow = stacked ? tileGroup(first, second, rect.x + 5, rect.y + 5, vertical, "", "stackshadow") : "";
  return shadow + tileGroup(first, second, rect.x, rect.y, vertical, attrs + (stacked ? ` data-stacked="${stackedBy}"` : ""), fresh ? "new" : "") +
    (stacked ? stackMark(rect, stackedBy, ctx) : "") + (scored ? scoreMark(rect, scored) : "");
}

function crossSVG(view, ctx) {
  if (!view.spinner) return "<p class='muted'>No spinner yet: the highest double held is set first.</p>";
  const sp = Number(view.spinner.split("-")[0]);
  const spinnerRect = { x: -U / 2, y: -U, w: U, h: 2 * U };
  const legal = ctx.selected && ctx.state ? ctx.state.legal_actions || [] : [];
  const targets = legal.filter((a) => a.split(" ")[1] === ctx.selected && /^(play|stack) /.test(a));
  // How far a side arm runs before turning: half the board's width, less the spinner and a label.
  const avail = (ctx.boardWidth || 800) / SCALE;
  const runLimit = Math.max(3 * U, Math.min(10 * U, avail / 2 - U / 2 - 110));
  const boxes = [spinnerRect];
  // the plays since this player's last turn (and the last play) show what they scored
  const scored = view.ended ? new Map() : scoredPlays(view);
  const spinnerKey = `0|${view.spinner}`;
  const spinnerScored = scored.last === spinnerKey ? scored.get(spinnerKey) || 0 : 0;
  if (spinnerScored) boxes.push(scoreBox(spinnerRect));
  let body = tileAt(sp, sp, spinnerRect, true, `data-spinner="1" data-tile="${escapeHtml(view.spinner)}"`, view.spinner_stacked_by, ctx,
    false, spinnerScored);
  let labels = "";
  // every ×2 mark on the layout: the labels are placed clear of all of them, not only their own arm's
  const marks = [];
  if (view.spinner_stacked_by !== null && view.spinner_stacked_by !== undefined) marks.push(markBox(spinnerRect));
  const laid = (view.arms || []).map((arm) => {
    const lay = layoutArm(arm, spinnerRect, runLimit);
    lay.placed.forEach((p) => {
      boxes.push(p.rect);
      if (p.t.stacked_by !== null && p.t.stacked_by !== undefined) marks.push(markBox(p.rect));
      const fresh = !!p.t.last || (!!ctx.since && p.t.seat !== view.seat &&
        p.i >= ((ctx.since.arms || []).find((a) => a.arm === arm.arm) || { tiles: [] }).tiles.length);
      const points = fresh ? scored.get(`${arm.arm}|${p.t.tile}`) || 0 : 0;
      if (points) boxes.push(scoreBox(p.rect));
      body += tileAt(p.first, p.second, p.rect, p.vertical,
        `data-arm="${arm.arm}" data-index="${p.i}" data-tile="${p.t.tile}" data-dir="${p.dir}"${fresh ? " data-new=\"1\"" : ""}${
          p.t.last ? " data-last=\"1\"" : ""}`,
        p.t.stacked_by, ctx, fresh, points);
    });
    return { arm, lay };
  });
  if (!view.ended) { // once the hand is over no arm is open to play on: no labels
    laid.forEach(({ arm, lay }) => {
      const open = arm.open_end === null || arm.open_end === undefined;
      // with a hand tile selected, the label of an arm it can go to plays it there on a tap
      const go = targets.find((a) => a.endsWith(` ${arm.arm}`));
      const text = go ? `${arm.arm}: ${go.split(" ")[0]} here` : open ? `${arm.arm}: not open` : `${arm.arm}: open ${arm.open_end}`;
      const end = lay.placed.length ? lay.placed[lay.placed.length - 1].t.stacked_by : view.spinner_stacked_by;
      const box = clearOf(labelBox(text, lay.dir, lay.edge, lay.lane, end !== null && end !== undefined), lay.dir, marks);
      boxes.push(box);
      labels += `<g class="armlabel${open ? " closed" : ""}${go ? " go" : ""}" data-armlabel="${arm.arm}"${go ? ` data-board-action="${escapeHtml(go)}"` : ""}><rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="12"/>` +
        `<text x="${box.x + box.w / 2}" y="${box.y + 17}" text-anchor="middle">${escapeHtml(text)}</text></g>`;
    });
  }
  const x0 = Math.min(...boxes.map((r) => r.x)) - 8;
  const y0 = Math.min(...boxes.map((r) => r.y)) - 8;
  const x1 = Math.max(...boxes.map((r) => r.x + r.w)) + 14;
  const y1 = Math.max(...boxes.map((r) => r.y + r.h)) + 14;
  const w = x1 - x0;
  const h = y1 - y0;
  return `<svg class="crosssvg" viewBox="${x0} ${y0} ${w} ${h}" width="${Math.round(w * SCALE)}" height="${Math.round(h * SCALE)}" role="img" aria-label="the layout">${body}${labels}</svg>`;
}

// The count's terms, as the rules page says them: the outer end of each arm's last tile (a
// double there counts both halves), the spinner's two halves while at most one side holds a
// tile; an empty arm counts nothing. Returned only when they add up to the engine's count.
function countTerms(view) {
  if (!view.spinner) return null;
  const sp = Number(view.spinner.split("-")[0]);
  const arms = view.arms || [];
  const sidesFilled = arms.filter((a) => a.kind === "side" && a.tiles.length).length;
  const terms = [];
  if (sidesFilled <= 1) terms.push({ n: 2 * sp, what: `the spinner ${view.spinner}` });
  arms.forEach((a) => {
    const last = a.tiles[a.tiles.length - 1];
    if (!last) return;
    const [x, y] = last.tile.split("-").map(Number);
    terms.push({ n: x === y ? 2 * x : last.outer, what: `arm ${a.arm}: ${last.tile}` });
  });
  return terms.reduce((t, x) => t + x.n, 0) === view.count ? terms : null;
}

function board(view, ctx) {
  const used = new Set(["hand_number", "hand_sizes", "boneyard", "drawn", "spinner", "spinner_seat", "spinner_stacked_by",
    "arms", "open_ends", "count", "target", "passes", "last_play", "passed_on", "steal", "last_result", "ended", "hands"]);
  const lp = view.last_play
    ? `<span>Last: ${escapeHtml(ctx.seatName(view.last_play.seat))} — ${escapeHtml(describe(view.last_play.action))}${
      view.last_play.scored ? ` <b class="hot">+${view.last_play.scored}</b>` : ""}${
      view.last_play.stolen_from !== null && view.last_play.stolen_from !== undefined ? ` (stolen from ${escapeHtml(ctx.seatName(view.last_play.stolen_from))})` : ""}</span>`
    : "";
  const terms = countTerms(view);
  const breakdown = terms && terms.length > 1
    ? ` <small class="terms" title="${escapeHtml(terms.map((x) => `${x.what}: ${x.n}`).join("; "))}">(${terms.map((x) => x.n).join(" + ")})</small>` : "";
  const facts = view.ended ? `<div class="facts"><span>Hand ${view.hand_number}</span><span>Target ${view.target}</span>${lp}</div>`
    : `<div class="facts"><span>Hand ${view.hand_number}</span>
    <span class="count" title="the sum of the open ends; a play scores it when it is a multiple of 5">Count <b>${view.count === null ? "—" : view.count}</b>${breakdown}</span>
    <span>Boneyard ${view.boneyard}</span><span>Target ${view.target}</span>${lp}</div>`;
  const line = (s) => view.ended
    ? (view.hands ? `${view.hands[s].length} tile${view.hands[s].length === 1 ? "" : "s"} left` : "")
    : `${view.hand_sizes[s]} tile${view.hand_sizes[s] === 1 ? "" : "s"} · drew ${(view.drawn || [])[s] || 0}`;
  const seats = `<div class="seatrow">${Array.from({ length: view.players }, (_, s) =>
    seatBox(view, ctx, s, `<div class="seatline">${line(s)}${
      view.spinner_seat === s ? " · <span class='badge'>set spinner</span>" : ""}</div>`)
  ).join("")}</div>`;
  return facts + seats + `<div class="cross">${crossSVG(view, ctx)}</div>` + publicFields(view, used);
}

// The layout as the hand ended, from its hand_end event: the spinner and the four arms; the
// hand's last play (its last play or stack event still in the view, if any) is marked.
function endView(end, view, events) {
  const last = lastOf(events, ["play", "stack"]);
  const arms = end.arms.map((arm) => ({ arm: arm.arm, tiles: arm.tiles.map((t, i) => {
    const isLast = !!last && i === arm.tiles.length - 1 && t.tile === last.tile &&
      (last.kind === "play" ? last.arm === arm.arm : last.on === arm.arm);
    return isLast ? Object.assign({}, t, { last: true }) : t;
  }) }));
  const lastPlay = last ? { seat: last.seat, action: last.kind === "play" ? `play ${last.tile} to ${last.arm}` : `stack ${last.tile} on ${last.on}`,
    scored: null, stolen_from: null } : null;
  return { game: view.game, players: view.players, seat: view.seat, rules: view.rules, ended: true, current_player: null,
    hand_number: end.hand, spinner: end.spinner, spinner_seat: end.spinner_seat, spinner_stacked_by: end.spinner_stacked_by,
    arms, hands: end.hands, target: view.target, last_play: lastPlay };
}

// The hands as the hand ended (none when the target ended play), from the hand_end event.
function result(view, end, ctx) {
  if (!end.hands) return "";
  const rows = end.hands.map((h, s) => `<span><b>${escapeHtml(ctx.seatName(s))}</b></span><span>${h.length ? tiles(h, { cls: "mini" }) : "<i>no tiles</i>"} ${
    end.pips ? `<small>${end.pips[s]} pips</small>` : ""}</span>`).join("");
  return `<p>The hands as the hand ended:</p><div class="hands-shown">${rows}</div>`;
}

// A player who cannot play and may only draw draws at once (the rules' forced draw).
function autoAction(state) {
  const legal = state.legal_actions || [];
  return legal.length === 1 && legal[0] === "draw" ? "draw" : null;
}

export default { board, describe, ask, endView, result, autoAction };
