// Rummikub at the table: the groups on the table, and the builder in which the player
// lays out the whole new table (the action is that table). The play notation
// ("play 5-3 5-4 5-5 | 4-3 5-2 6-1") is written and read only by playText/parseplay here.
import { tileSVG, escapeHtml, tiles, publicFields, seatBox, groupTiles, lastOf } from "../core/board.js";

// The builder: groups of {t, hand} (hand: the tile came from this player's hand, so it may
// go back), the hand tiles not yet placed, the selected hand tiles and a picked table tile.
const builder = { active: false, groups: [], hand: [], sel: [], pick: null };

// ----- the notation --------------------------------------------------------------------

export function playText(groups) {
  return `play ${groups.map((g) => g.join(" ")).join(" | ")}`;
}

// The groups of a play action, or null when the text is not a play.
export function parsePlay(action) {
  if (!action.startsWith("play ")) return null;
  return action.slice(5).split("|").map((g) => g.trim().split(/\s+/).filter(Boolean));
}

function tableGroups(view) {
  return (view.table || []).map((g) => groupTiles(g).slice());
}

// The tiles a play adds to the view's table (the new table less the tiles already on it).
function laidTiles(action, view) {
  const left = tableGroups(view).flat();
  return (parsePlay(action) || []).flat().filter((t) => {
    const i = left.indexOf(t);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

function describe(action, view) {
  if (action === "draw") return "Draw a tile";
  if (action === "pass") return "Pass";
  if (parsePlay(action)) return `Lay ${laidTiles(action, view || {}).join(" ")}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return phase === "play" ? "play tiles to the table, or draw" : String(phase);
}

// Many plays may be listed: draw/pass and a few plays get buttons; the builder and the hint do the rest.
function actionList(legal, ctx) {
  if (ctx.selected) return legal;
  return legal.filter((a) => !a.startsWith("play ")).concat(legal.filter((a) => a.startsWith("play ")).slice(0, 6));
}

// ----- the board -----------------------------------------------------------------------

function board(view, ctx) {
  const used = new Set(["table", "hand_sizes", "boneyard", "last_result", "opened", "hand_number", "dealer", "target", "passes", "laid",
    "ended"]);
  const b = builder;
  // at a hand's end, the tiles its last play laid are marked where they lie
  const laid = (view.laid || []).slice();
  const fresh = (t) => {
    const i = laid.indexOf(t);
    if (i >= 0) laid.splice(i, 1);
    return i >= 0;
  };
  const groups = b.active ? b.groups : tableGroups(view).map((g) => g.map((t) => ({ t, hand: false, last: fresh(t) })));
  const gHTML = groups
    .map(
      (g, i) => `<div class="group build${b.active ? " target" : ""}${b.active && g.length < 3 ? " invalid" : ""}${
        !b.active && changed(g, ctx) ? " changed" : ""}" data-group="${i}">${g
        .map((x, j) => `<span class="gt${b.pick && b.pick.g === i && b.pick.j === j ? " picked" : ""}${x.hand ? " fromhand" : ""}${
          isJoker(x.t) ? " joker" : ""}${x.last ? " new" : ""}" data-gtile="${i}:${j}" title="${x.t}${
          isJoker(x.t) ? " (joker)" : ""}${x.hand ? " (from your hand)" : ""}">${tileSVG(x.t, { cls: "mid" })}${isJoker(x.t) ? "<span class='jk'>J</span>" : ""}</span>`)
        .join("")}</div>`
    )
    .join("") + (b.active ? `<div class="group newgroup target" data-group="new">+ new group</div>` : "");
  const opened = Array.isArray(view.opened) ? view.opened : null;
  const perSeat = Array.from({ length: view.players }, (_, s) => seatBox(view, ctx, s, `<div class="seatline">${
    (view.hand_sizes || [])[s] !== undefined ? `${view.hand_sizes[s]} tile${view.hand_sizes[s] === 1 ? "" : "s"}` : ""}${
    view.dealer === s ? " <span class='badge'>dealer</span>" : ""}${
    opened ? ` · ${opened[s] ? "opened" : "<span class='badge'>not opened</span>"}` : ""}</div>`)).join("");
  const facts = `<div class="facts">${view.hand_number !== undefined ? `<span>Hand ${view.hand_number}</span>` : ""}${
    view.boneyard !== undefined ? `<span>Boneyard ${view.boneyard}</span>` : ""}${view.target !== undefined ? `<span>Target ${view.target}</span>` : ""}${
    view.passes ? `<span>${view.passes} pass${view.passes === 1 ? "" : "es"} in a row</span>` : ""}</div><div class="seatrow">${perSeat}</div>`;
  const help = b.active
    ? "<p class='muted help'>Select tiles in your hand, then tap a group (or “+ new group”) to put them there, or drag them there. Tap a table tile, then a group, to move it (or drag it). Tiles from your hand (pale green) can go back to your hand. Then “Play this table”.</p>"
    : "";
  const moved = b.active ? 0 : groups.filter((g) => changed(g, ctx)).length;
  const note = moved ? `<p class="help changed-note">${moved} group${moved === 1 ? "" : "s"} outlined in blue: new or rearranged since your turn.</p>` : "";
  return facts + `<div class="rk-table">${gHTML || "<p class='muted'>The table is empty.</p>"}</div>` + note + help + publicFields(view, used);
}

// A group that was not on the table when this seat last acted (a bot's play or rearrangement).
function changed(group, ctx) {
  if (!ctx.since || group.some((x) => x.last)) return false;
  const key = (g) => g.slice().sort().join(" ");
  const before = new Set(tableGroups(ctx.since).map(key));
  return !before.has(key(group.map((x) => x.t)));
}

// ----- the builder ---------------------------------------------------------------------

function myTurn(s) {
  return s.seat !== null && s.current_player === s.seat && !s.is_over;
}

function tools(ctx) {
  const s = ctx.state;
  if (ctx.replaying || !myTurn(s)) {
    builder.active = false;
    return "";
  }
  return builder.active
    ? `<button id="rk-new" type="button">New group</button><button id="rk-back" type="button">Back to hand</button>
       <button id="rk-play" class="primary" type="button">Play this table</button>
       <button id="rk-reset" type="button">Reset</button><button id="rk-hint" type="button">Hint</button>`
    : `<button id="rk-build" class="primary" type="button">Build a play</button><button id="rk-hint" type="button">Hint</button>`;
}

function startBuild(ctx) {
  const view = ctx.state.view;
  builder.active = true;
  builder.groups = tableGroups(view).map((g) => g.map((t) => ({ t, hand: false })));
  builder.hand = view.hand.slice();
  builder.sel = [];
  builder.pick = null;
  ctx.shell.render();
}

function takeSelected() {
  const idx = builder.sel.slice().sort((a, b) => b - a);
  const taken = idx.map((i) => builder.hand[i]).reverse();
  idx.forEach((i) => builder.hand.splice(i, 1));
  builder.sel = [];
  return taken.map((t) => ({ t, hand: true }));
}

// Move the picked table tile, or else the selected hand tiles, to group g ("new": a new group).
function moveTo(g, ctx) {
  let moving = [];
  if (builder.pick) {
    moving = builder.groups[builder.pick.g].splice(builder.pick.j, 1);
    builder.pick = null;
  } else if (builder.sel.length) {
    moving = takeSelected();
  }
  if (!moving.length) return;
  if (g === "new" || builder.groups[g] === undefined) builder.groups.push(moving);
  else builder.groups[g].push(...moving);
  builder.groups = builder.groups.filter((x) => x.length);
  ctx.shell.render();
}

// Return the picked tile to the hand: only tiles that came from the hand may go back.
function toHand(ctx) {
  const { g, j } = builder.pick;
  const tile = builder.groups[g][j];
  if (!tile.hand) {
    ctx.shell.flash("That tile was on the table: it must stay on the table.");
    return;
  }
  builder.groups[g].splice(j, 1);
  builder.hand.push(tile.t);
  builder.groups = builder.groups.filter((x) => x.length);
  builder.pick = null;
  ctx.shell.render();
}

// The solver's hint, from the server (built from this seat's view), loaded into the builder.
async function hint(ctx) {
  let h;
  try {
    const answer = await ctx.shell.api(`/api/tables/${ctx.shell.tableId}/hint`);
    h = answer.solver || answer; // the solver's arrangement (the coach's ranking is core/coach.js's)
  } catch (e) {
    return ctx.shell.flash(e.message);
  }
  if (!h.action) return ctx.shell.flash(`Hint: ${h.why}.`);
  startBuild(ctx);
  const fromHand = h.tiles.slice();
  builder.groups = parsePlay(h.action).map((g) => g.map((t) => {
    const i = fromHand.indexOf(t);
    if (i >= 0) fromHand.splice(i, 1);
    return { t, hand: i >= 0 };
  }));
  const rest = ctx.state.view.hand.slice();
  h.tiles.forEach((t) => rest.splice(rest.indexOf(t), 1));
  builder.hand = rest;
  ctx.shell.render();
  ctx.shell.flash(`Hint: this table lays ${h.count} of your tiles (${h.tiles.join(" ")}). Press “Play this table” to play it.`);
}

function bind(ctx) {
  const $ = (id) => document.getElementById(id);
  const on = (id, fn) => {
    const el = $(id);
    if (el) el.addEventListener("click", fn);
  };
  const flash = ctx.shell.flash;
  on("rk-build", () => startBuild(ctx));
  on("rk-reset", () => startBuild(ctx));
  on("rk-new", () => {
    if (builder.pick) return moveTo("new", ctx);
    if (!builder.sel.length) return flash("Select tiles from your hand (or a tile on the table) first.");
    moveTo("new", ctx);
  });
  on("rk-back", () => {
    if (!builder.pick) return flash("Pick a tile you placed from your hand, then “Back to hand”.");
    toHand(ctx);
  });
  on("rk-play", () => {
    const groups = builder.groups.filter((g) => g.length);
    if (!groups.length) return flash("The table would be empty.");
    const short = groups.find((g) => g.length < 3);
    if (short) return flash(`Every group needs three or more tiles: ${short.map((x) => x.t).join(" ")} has ${short.length}.`);
    ctx.shell.send(playText(groups.map((g) => g.map((x) => x.t))));
  });
  on("rk-hint", () => hint(ctx));
  if (!builder.active) return;
  document.querySelectorAll("[data-gtile]").forEach((el) => {
    const [g, j] = el.dataset.gtile.split(":").map(Number);
    el.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (suppressClick) return;
      // with hand tiles selected, a tap anywhere on a group (its tiles too) puts them there
      if (builder.sel.length) return moveTo(g, ctx);
      builder.pick = builder.pick && builder.pick.g === g && builder.pick.j === j ? null : { g, j };
      ctx.shell.render();
    });
    draggable(el, () => {
      builder.pick = { g, j };
      builder.sel = [];
    }, ctx);
  });
  document.querySelectorAll("[data-group]").forEach((el) => {
    const target = el.dataset.group === "new" ? "new" : Number(el.dataset.group);
    el.addEventListener("click", () => !suppressClick && moveTo(target, ctx));
  });
  document.querySelectorAll("#hand [data-index]").forEach((el) => {
    // dragging a hand tile moves it with the other selected ones
    draggable(el, () => {
      const i = Number(el.dataset.index);
      if (!builder.sel.includes(i)) builder.sel.push(i);
      builder.pick = null;
    }, ctx);
  });
}

// ----- dragging with pointer events (mouse, pen and touch alike) ----------------------------

let drag = null;
let suppressClick = false;

// Make `el` draggable: past a few pixels of movement `begin()` says what is being moved,
// a ghost tile follows the pointer, and letting go over a group (or the hand) moves it there.
function draggable(el, begin, ctx) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, begin, el, ghost: null, ctx, id: ev.pointerId };
  });
}

function dropTarget(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit ? hit.closest("[data-group], #hand") : null;
}

document.addEventListener("pointermove", (ev) => {
  if (!drag || ev.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 8) return;
    drag.begin();
    const svg = drag.el.querySelector("svg");
    drag.ghost = document.createElement("div");
    drag.ghost.className = "drag-ghost";
    drag.ghost.innerHTML = svg ? svg.outerHTML : "";
    document.body.appendChild(drag.ghost);
    drag.el.classList.add("dragging");
  }
  ev.preventDefault();
  drag.ghost.style.left = `${ev.clientX}px`;
  drag.ghost.style.top = `${ev.clientY}px`;
  document.querySelectorAll(".dragover").forEach((x) => x.classList.remove("dragover"));
  const over = dropTarget(ev.clientX, ev.clientY);
  if (over) over.classList.add("dragover");
}, { passive: false });

function endDrag(ev) {
  if (!drag || ev.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return; // a tap: the click handlers do the rest
  d.ghost.remove();
  suppressClick = true; // the click that follows a drag is not a tap
  setTimeout(() => (suppressClick = false), 0);
  const over = ev.type === "pointerup" ? dropTarget(ev.clientX, ev.clientY) : null;
  if (!over) return d.ctx.shell.render();
  if (over.id === "hand") {
    if (builder.pick) toHand(d.ctx);
    else d.ctx.shell.render();
    return;
  }
  moveTo(over.dataset.group === "new" ? "new" : Number(over.dataset.group), d.ctx);
}

document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", endDrag);

// While building, the hand shows the tiles not yet placed, the selected ones marked.
function hand() {
  if (!builder.active) return null;
  return { tiles: builder.hand, selected: new Set(builder.sel), draggable: true };
}

function clickHand(tile, index, ctx) {
  if (!builder.active) return false;
  if (builder.pick) {
    toHand(ctx);
    return true;
  }
  const at = builder.sel.indexOf(index);
  if (at >= 0) builder.sel.splice(at, 1);
  else builder.sel.push(index);
  ctx.shell.render();
  return true;
}

// A new state (another version) ends any build in progress.
function reset() {
  builder.active = false;
}

// Both 0-0 and both 6-6 are jokers: they stand for any tile.
function isJoker(t) {
  return t === "0-0" || t === "6-6";
}

function handMark(tile) {
  return isJoker(tile) ? { cls: "joker", label: "joker" } : null;
}

// ----- the end of a hand ---------------------------------------------------------------

// The table as the hand ended, from its hand_end event; the tiles of its last play (the
// play event still in the view before it, if any) are marked.
function endView(end, view, events) {
  const last = lastOf(events, ["play"]);
  return { game: view.game, players: view.players, seat: view.seat, rules: view.rules, ended: true, current_player: null,
    hand_number: end.hand, table: end.table, hand_sizes: end.hands.map((h) => h.length), laid: last ? last.tiles : null };
}

// The hands as the hand ended, from the hand_end event.
function result(view, end, ctx) {
  const rows = end.hands.map((h, s) => `<span><b>${escapeHtml(ctx.seatName(s))}</b></span><span>${
    h.length ? tiles(h, { cls: "mini" }) : "<i>no tiles</i>"} <small>${end.pips[s]} pips</small></span>`).join("");
  return `<p>The hands as the hand ended (jokers count their pips):</p><div class="hands-shown">${rows}</div>`;
}

export default { tileButtons: true, board, describe, ask, actionList, tools, bind, hand, clickHand, reset, handMark, endView, result };
