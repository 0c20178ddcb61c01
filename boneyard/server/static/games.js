// Per-game table renderers. Each takes the seat's view (and a context) and returns HTML
// for the board; keys it does not draw are listed by the generic "public fields" block,
// so an engine's new fields always show up somewhere.
"use strict";
(function () {
  const { tileSVG, backsSVG, tileGroup, escapeHtml } = window.Tiles;
  const TILE_RE = /^\d+-\d+$/;
  // Fields the page itself shows (header, score panel, log, hand).
  const COMMON = new Set(["game", "players", "rules", "seat", "phase", "current_player", "scores", "is_over", "winners", "history", "hand"]);

  const isTile = (x) => typeof x === "string" && TILE_RE.test(x);
  const isTileList = (x) => Array.isArray(x) && x.length > 0 && x.every(isTile);
  const isGroupList = (x) => Array.isArray(x) && x.length > 0 && x.every((g) => Array.isArray(g) && g.every(isTile));

  function tiles(list, opts = {}) {
    return `<span class="tiles">${(list || []).map((t) => tileSVG(t, opts)).join("")}</span>`;
  }

  function value(v) {
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

  function publicFields(view, used) {
    const rows = Object.entries(view).filter(([k]) => !COMMON.has(k) && !used.has(k));
    if (!rows.length) return "";
    return `<details class="fields"><summary>More of the table</summary><dl>${rows
      .map(([k, v]) => `<dt>${escapeHtml(k.replace(/_/g, " "))}</dt><dd>${value(v)}</dd>`)
      .join("")}</dl></details>`;
  }

  // Seats placed around a table, the viewer at the bottom: returns seat -> area name.
  function placeSeats(n, me) {
    const base = me === null || me === undefined ? 0 : me;
    const areas = n === 2 ? ["s", "n"] : n === 3 ? ["s", "w", "e"] : ["s", "w", "n", "e"];
    const out = {};
    for (let i = 0; i < n; i++) out[(base + i) % n] = areas[i] || "n";
    return out;
  }

  function seatBox(view, ctx, s, inner) {
    const turn = view.current_player === s ? " turn" : "";
    const me = s === view.seat ? " mine" : "";
    const arrow = view.current_player === s ? "<span class='turnmark' title='to play'>▶</span> " : "";
    return `<div class="seatbox${turn}${me}" data-seatbox="${s}"><div class="who" title="${escapeHtml(ctx.seatName(s))}">${arrow}${escapeHtml(
      ctx.seatName(s))}</div>${inner}</div>`;
  }

  // An opponent's hidden hand: a row of backs on wide screens, a count on narrow ones.
  function hiddenHand(n) {
    if (n === null || n === undefined) return "";
    return `<div class="hidden-hand"><span class="backs">${backsSVG(n)}</span><span class="nback">${n} tile${n === 1 ? "" : "s"}</span></div>`;
  }

  function around(view, ctx, perSeat, center) {
    const pos = placeSeats(view.players, view.seat);
    let html = `<div class="around p${view.players}">`;
    for (let s = 0; s < view.players; s++) html += `<div class="pos-${pos[s]}">${seatBox(view, ctx, s, perSeat(s))}</div>`;
    return html + `<div class="pos-c">${center}</div></div>`;
  }

  // The trick in the middle of the table: each tile in front of the seat that played it.
  function trickHTML(view, trick, ctx) {
    const pos = placeSeats(view.players, view.seat);
    const plays = (trick || [])
      .map((p, i) => `<div class="play at-${pos[p.seat]}${i === 0 ? " lead" : ""}" data-trick-seat="${p.seat}" title="${escapeHtml(
        ctx.seatName(p.seat))}${i === 0 ? " led" : ""}">${tileSVG(p.tile, { vertical: pos[p.seat] === "s" || pos[p.seat] === "n" })}</div>`)
      .join("");
    return `<div class="trick" aria-label="the trick">${plays || "<span class='muted empty'>no tile played yet</span>"}</div>`;
  }

  function lastTrick(view, ctx) {
    const t = (view.tricks || [])[view.tricks.length - 1];
    if (!t) return "";
    return `<div class="lasttrick">Last trick, won by <b>${escapeHtml(ctx.seatName(t.winner))}</b>${
      t.points ? ` (${t.points} points)` : ""}: ${t.plays.map((p) => tileSVG(p.tile, { cls: "mini", title: `${p.tile} by ${ctx.seatName(p.seat)}` })).join("")}</div>`;
  }

  // ----- words for actions and log lines -------------------------------------------------
  const ARM_NAMES = { 0: "the spinner", 1: "arm 1 (left)", 2: "arm 2 (right)", 3: "arm 3 (top)", 4: "arm 4 (bottom)" };

  // A legal action in plain words (the notation stays in data-action and the tooltip).
  function describe(game, action, view) {
    const w = action.split(" ");
    const simple = {
      rounce: { pass: "Pass — play this hand", fold: "Fold — sit this hand out", dummy: "Dummy — take a new hand",
        defend: "Defend — stop the dummy player", take: "Take the turn-up" },
      twobox: { draw: "Draw from the boneyard", pass: "Pass" },
      eighty: { pass: "Pass" },
      montana: { out: "Go out on the pulled tile", pass: "Let the discard go", "claim out": "Go out on this discard",
        "claim triple": "Claim it for a triple", "claim quad": "Claim it for a quad", "claim pair": "Claim it for a pair" },
      rummikub: { draw: "Draw a tile", pass: "Pass" },
    };
    const known = (simple[game] || {})[action];
    if (known) return known;
    if (game === "twobox" && w[0] === "play") return `Play ${w[1]} on ${ARM_NAMES[w[3]] || `arm ${w[3]}`}`;
    if (game === "twobox" && w[0] === "stack") return `Stack ${w[1]} on ${ARM_NAMES[w[3]] || `arm ${w[3]}`}`;
    if (game === "eighty" && w[0] === "bid") return w[1] === "nel-o" ? "Bid Nel-O" : `Bid ${w[1]}`;
    if (game === "eighty" && w[0] === "trump") return `Trumps: ${suitName(Number(w[1]))}`;
    if (game === "rounce" && w[0] === "discard") return `Discard ${w[1]} face down`;
    if (game === "rounce" && w[0] === "play" && w[2] === "as") return `Lead ${w[1]} as ${suitName(Number(w[3]))}`;
    if (game === "montana" && w[0] === "discard") return `Discard ${w[1]}${w[2] === "ready" ? " and declare ready" : ""}`;
    if (game === "montana" && w[0] === "quad") return `Lay a concealed quad of ${w[1]}`;
    if (game === "montana" && w[0] === "add") return `Add ${w[1]} to your exposed triple`;
    if (game === "montana" && w[0] === "claim" && w[1] === "run") return `Claim it for a run with ${w.slice(2).join(" ")}`;
    if (game === "rummikub" && w[0] === "play") {
      // Name the tiles the play lays: the new table less the tiles already on it.
      const left = view && Array.isArray(view.table) ? view.table.flat().map(String) : [];
      const laid = w.slice(1).filter((t) => {
        if (t === "|") return false;
        const i = left.indexOf(t);
        if (i < 0) return true;
        left.splice(i, 1);
        return false;
      });
      return `Lay ${laid.join(" ")}`;
    }
    return action.charAt(0).toUpperCase() + action.slice(1);
  }

  // Seat numbers in the engine's log lines ("seat 2", "seats 0+2") as the players' names.
  function nameSeats(text, ctx) {
    return escapeHtml(text)
      .replace(/\bseats (\d+(?:\+\d+)+)/g, (_, list) => list.split("+").map((n) => `<b>${escapeHtml(ctx.seatName(Number(n)))}</b>`).join(" & "))
      .replace(/\bseat (\d+)\b/g, (_, n) => `<b>${escapeHtml(ctx.seatName(Number(n)))}</b>`);
  }

  // ----- hand results ------------------------------------------------------------------
  const SEAT_KEYS = new Set(["winner", "from", "dealer", "bidder", "seat", "loser", "setter", "shuffler", "leader"]);
  const HIDE_KEYS = new Set(["hand"]);
  const LIST_KEYS = new Set(["sets", "breakdown", "plays", "tricks_list"]); // lists that are not one entry per seat

  function label(k) {
    return escapeHtml(k.replace(/_/g, " "));
  }

  // A finished hand's result: facts first, then one column per seat (or per side).
  function resultHTML(view, r, ctx) {
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

  const PIPNAMES = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"];
  const suitName = (n) => (n === null || n === undefined ? "—" : PIPNAMES[n] || String(n));

  // ----- Rounce ------------------------------------------------------------------------
  function rounce(view, ctx) {
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

  // ----- Eighty ------------------------------------------------------------------------
  function eighty(view, ctx) {
    const used = new Set(["hand_number", "shuffler", "partners", "bids", "high_bid", "bidder", "trump", "hand_sizes",
      "trick", "tricks", "tricks_won", "sides", "points", "marks", "leader", "led_suit", "lying_out", "nello", "sitting_out", "last_result"]);
    const trump = view.nello ? "Nel-O (no trump)" : view.trump === null || view.trump === undefined ? "not named" : suitName(view.trump);
    const bid = view.high_bid ? `${escapeHtml(String(view.high_bid))} by ${escapeHtml(ctx.seatName(view.bidder))}` : "none yet";
    const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>High bid <b>${bid}</b></span>
      <span>Trump <b>${trump}</b></span><span>Lying out ${view.lying_out}</span>${view.led_suit !== null && view.led_suit !== undefined ? `<span>Led <b>${escapeHtml(suitName(view.led_suit))}</b></span>` : ""}</div>`;
    const side = (s) => (view.partners || []).findIndex((p) => p.includes(s));
    const perSeat = (s) =>
      `<div class="seatline"><span class="badge side${side(s)}">side ${side(s) + 1}</span>${
        view.bids && view.bids[s] !== null && view.bids[s] !== undefined ? `<span class="badge">bid ${escapeHtml(String(view.bids[s]))}</span>` : ""
      }${view.sitting_out === s ? "<span class='badge'>sits out</span>" : ""} tricks ${(view.tricks_won || [])[s] || 0}</div>${
        s === view.seat ? "" : hiddenHand(view.hand_sizes[s])
      }`;
    // one column per side (two), one row per figure: narrow enough for a phone
    const sd = view.sides || [];
    const heads = sd.map((x, i) => `<th><span class="badge side${i}">side ${i + 1}</span><br><small>${x.seats
      .map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</small></th>`).join("");
    const figures = [["tricks", "tricks"], ["count", "count tiles"], ["taken", "points taken"], ["points", "score"], ["marks", "marks"]];
    const rows = figures.map(([k, say]) => `<tr><th>${say}</th>${sd.map((x) => `<td class="num">${escapeHtml(String(x[k]))}</td>`).join("")}</tr>`).join("");
    const table = sd.length ? `<div class="scroll-x"><table class="list sides"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}</tbody></table></div>` : "";
    return facts + around(view, ctx, perSeat, trickHTML(view, view.trick, ctx)) + lastTrick(view, ctx) + table + publicFields(view, used);
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

  function labelBox(text, dir, edge, lane) {
    const w = text.length * 9 + 16;
    const h = 24;
    const gap = 6;
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

  function tileAt(first, second, rect, vertical, attrs, stackedBy, ctx) {
    const stacked = stackedBy !== null && stackedBy !== undefined;
    const shadow = stacked ? tileGroup(first, second, rect.x + 5, rect.y + 5, vertical, "", "stackshadow") : "";
    return shadow + tileGroup(first, second, rect.x, rect.y, vertical, attrs + (stacked ? ` data-stacked="${stackedBy}"` : "")) +
      (stacked ? stackMark(rect, stackedBy, ctx) : "");
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
    let body = tileAt(sp, sp, spinnerRect, true, `data-spinner="1"`, view.spinner_stacked_by, ctx);
    let labels = "";
    (view.arms || []).forEach((arm) => {
      const lay = layoutArm(arm, spinnerRect, runLimit);
      lay.placed.forEach((p) => {
        boxes.push(p.rect);
        body += tileAt(p.first, p.second, p.rect, p.vertical,
          `data-arm="${arm.arm}" data-index="${p.i}" data-tile="${p.t.tile}" data-dir="${p.dir}"`, p.t.stacked_by, ctx);
      });
      const open = arm.open_end === null || arm.open_end === undefined;
      // with a hand tile selected, the label of an arm it can go to plays it there on a tap
      const go = targets.find((a) => a.endsWith(` ${arm.arm}`));
      const text = go ? `${arm.arm}: ${go.split(" ")[0]} here` : open ? `${arm.arm}: not open` : `${arm.arm}: open ${arm.open_end}`;
      const box = labelBox(text, lay.dir, lay.edge, lay.lane);
      boxes.push(box);
      labels += `<g class="armlabel${open ? " closed" : ""}${go ? " go" : ""}" data-armlabel="${arm.arm}"${go ? ` data-board-action="${escapeHtml(go)}"` : ""}><rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="12"/>` +
        `<text x="${box.x + box.w / 2}" y="${box.y + 17}" text-anchor="middle">${escapeHtml(text)}</text></g>`;
    });
    const x0 = Math.min(...boxes.map((r) => r.x)) - 8;
    const y0 = Math.min(...boxes.map((r) => r.y)) - 8;
    const x1 = Math.max(...boxes.map((r) => r.x + r.w)) + 14;
    const y1 = Math.max(...boxes.map((r) => r.y + r.h)) + 14;
    const w = x1 - x0;
    const h = y1 - y0;
    return `<svg class="crosssvg" viewBox="${x0} ${y0} ${w} ${h}" width="${Math.round(w * SCALE)}" height="${Math.round(h * SCALE)}" role="img" aria-label="the layout">${body}${labels}</svg>`;
  }

  function twobox(view, ctx) {
    const used = new Set(["hand_number", "hand_sizes", "boneyard", "drawn", "spinner", "spinner_seat", "spinner_stacked_by",
      "arms", "open_ends", "count", "target", "passes", "last_play", "passed_on", "steal", "last_result"]);
    const lp = view.last_play
      ? `<span>Last: ${escapeHtml(ctx.seatName(view.last_play.seat))} — ${escapeHtml(describe("twobox", view.last_play.action))}${
        view.last_play.scored ? ` <b class="hot">+${view.last_play.scored}</b>` : ""}${
        view.last_play.stolen_from !== null && view.last_play.stolen_from !== undefined ? ` (stolen from ${escapeHtml(ctx.seatName(view.last_play.stolen_from))})` : ""}</span>`
      : "";
    const ends = (view.open_ends || []).filter((e) => e !== null && e !== undefined);
    const facts = `<div class="facts"><span>Hand ${view.hand_number}</span>
      <span class="count" title="the sum of the open ends; a play scores it when it is a multiple of 5">Count <b>${view.count}</b>${
        ends.length ? ` <small>(${ends.join(" + ")})</small>` : ""}</span>
      <span>Boneyard ${view.boneyard}</span><span>Target ${view.target}</span>${lp}</div>`;
    const seats = `<div class="seatrow">${Array.from({ length: view.players }, (_, s) =>
      seatBox(view, ctx, s, `<div class="seatline">${view.hand_sizes[s]} tiles · drew ${(view.drawn || [])[s] || 0}${
        view.spinner_seat === s ? " · <span class='badge'>set spinner</span>" : ""}</div>`)
    ).join("")}</div>`;
    return facts + seats + `<div class="cross">${crossSVG(view, ctx)}</div>` + publicFields(view, used);
  }

  // ----- Rummikub (click-to-build) ---------------------------------------------------------
  function tableKey(view) {
    for (const k of ["table", "groups", "melds", "sets"]) if (Array.isArray(view[k])) return k;
    return Object.keys(view).find((k) => !COMMON.has(k) && isGroupList(view[k])) || null;
  }

  function groupTiles(g) {
    return Array.isArray(g) ? g : g && Array.isArray(g.tiles) ? g.tiles : [];
  }

  function rummikub(view, ctx) {
    const key = tableKey(view);
    const used = new Set([key, "hand_sizes", "boneyard", "last_result", "opened", "hand_number", "dealer", "target", "passes"]);
    const b = ctx.builder;
    const groups = b.active ? b.groups : (view[key] || []).map((g) => groupTiles(g).map((t) => ({ t, hand: false })));
    const gHTML = groups
      .map(
        (g, i) => `<div class="group build${b.active ? " target" : ""}${b.active && g.length < 3 ? " invalid" : ""}" data-group="${i}">${g
          .map((x, j) => `<span class="gt${b.pick && b.pick.g === i && b.pick.j === j ? " picked" : ""}${x.hand ? " fromhand" : ""}" data-gtile="${i}:${j}"${
            b.active ? ` draggable="true"` : ""} title="${x.t}${x.hand ? " (from your hand)" : ""}">${tileSVG(x.t, { cls: "mid" })}</span>`)
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
      ? "<p class='muted help'>Select tiles in your hand, then tap a group (or “+ new group”) to put them there; or drag them. Tap a table tile, then a group, to move it. Tiles from your hand (pale green) can go back to your hand. Then “Play this table”.</p>"
      : "";
    return facts + `<div class="rk-table">${gHTML || "<p class='muted'>The table is empty.</p>"}</div>` + help + publicFields(view, used);
  }

  // ----- Montana -----------------------------------------------------------------------
  function montana(view, ctx) {
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

  function generic(view, ctx) {
    const sizes = view.hand_sizes;
    let html = "";
    if (Array.isArray(sizes)) {
      html += around(view, ctx, (s) => (s === view.seat ? "" : hiddenHand(sizes[s])), "");
    }
    return html + publicFields(view, new Set(["hand_sizes"])).replace("<details class=\"fields\">", "<details class=\"fields\" open>");
  }

  window.Games = { renderers: { rounce, eighty, twobox, rummikub, montana }, generic, tableKey, groupTiles, value, describe, nameSeats, resultHTML };
})();
