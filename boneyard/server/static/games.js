// Per-game table renderers. Each takes the seat's view (and a context) and returns HTML
// for the board; keys it does not draw are listed by the generic "public fields" block,
// so an engine's new fields always show up somewhere.
"use strict";
(function () {
  const { tileSVG, backsSVG, lineTileSVG, escapeHtml } = window.Tiles;
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
    return `<div class="seatbox${turn}" data-seatbox="${s}"><div class="who">${escapeHtml(ctx.seatName(s))}</div>${inner}</div>`;
  }

  function around(view, ctx, perSeat, center) {
    const pos = placeSeats(view.players, view.seat);
    let html = `<div class="around p${view.players}">`;
    for (let s = 0; s < view.players; s++) html += `<div class="pos-${pos[s]}">${seatBox(view, ctx, s, perSeat(s))}</div>`;
    return html + `<div class="pos-c">${center}</div></div>`;
  }

  function trickHTML(view, trick) {
    const pos = placeSeats(view.players, view.seat);
    return `<div class="trick">${(trick || [])
      .map((p) => `<div class="play at-${pos[p.seat]}">${tileSVG(p.tile, { vertical: pos[p.seat] === "s" || pos[p.seat] === "n" })}</div>`)
      .join("")}</div>`;
  }

  function lastTrick(view, ctx) {
    const t = (view.tricks || [])[view.tricks.length - 1];
    if (!t) return "";
    return `<div class="lasttrick">last trick, won by ${escapeHtml(ctx.seatName(t.winner))}: ${t.plays
      .map((p) => tileSVG(p.tile, { cls: "mini" }))
      .join("")}</div>`;
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
      } tricks ${view.tricks_won[s]}</div>${s === view.seat ? "" : backsSVG(view.hand_sizes[s])}`;
    const mine = view.discarded && view.discarded.length ? `<div class="muted">your discards ${tiles(view.discarded, { cls: "mini" })}</div>` : "";
    return info + around(view, ctx, perSeat, trickHTML(view, view.trick)) + lastTrick(view, ctx) + mine + publicFields(view, used);
  }

  // ----- Eighty ------------------------------------------------------------------------
  function eighty(view, ctx) {
    const used = new Set(["hand_number", "shuffler", "partners", "bids", "high_bid", "bidder", "trump", "hand_sizes",
      "trick", "tricks", "tricks_won", "sides", "points", "marks", "leader", "led_suit", "lying_out", "nello", "sitting_out", "last_result"]);
    const trump = view.nello ? "Nel-O (no trump)" : view.trump === null || view.trump === undefined ? "not named" : suitName(view.trump);
    const bid = view.high_bid ? `${escapeHtml(String(view.high_bid))} by ${escapeHtml(ctx.seatName(view.bidder))}` : "none yet";
    const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>High bid <b>${bid}</b></span>
      <span>Trump <b>${trump}</b></span><span>Lying out ${view.lying_out}</span>${view.led_suit !== null && view.led_suit !== undefined ? `<span>led ${escapeHtml(String(view.led_suit))}</span>` : ""}</div>`;
    const side = (s) => (view.partners || []).findIndex((p) => p.includes(s));
    const perSeat = (s) =>
      `<div class="seatline"><span class="badge side${side(s)}">side ${side(s) + 1}</span>${
        view.bids && view.bids[s] !== null && view.bids[s] !== undefined ? `<span class="badge">bid ${escapeHtml(String(view.bids[s]))}</span>` : ""
      }${view.sitting_out === s ? "<span class='badge'>sits out</span>" : ""} tricks ${(view.tricks_won || [])[s] || 0}</div>${
        s === view.seat ? "" : backsSVG(view.hand_sizes[s])
      }`;
    const sides = (view.sides || [])
      .map((sd, i) => `<tr><td><span class="badge side${i}">side ${i + 1}</span> ${sd.seats.map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</td>
        <td>${sd.tricks}</td><td>${sd.count}</td><td>${sd.taken}</td><td>${sd.points}</td><td>${sd.marks}</td></tr>`)
      .join("");
    const table = `<table class="list sides"><thead><tr><th>side</th><th>tricks</th><th>count</th><th>taken</th><th>points</th><th>marks</th></tr></thead><tbody>${sides}</tbody></table>`;
    return facts + around(view, ctx, perSeat, trickHTML(view, view.trick)) + lastTrick(view, ctx) + table + publicFields(view, used);
  }

  // ----- Two-box -----------------------------------------------------------------------
  function armHTML(arm, dir) {
    const horizontal = dir === "l" || dir === "r";
    const out = (arm.tiles || []).map((t) => {
      const [a, b] = t.tile.split("-").map(Number);
      const inner = t.outer === a ? b : a;
      const first = dir === "l" || dir === "u" ? t.outer : inner;
      const stack = t.stacked_by !== null && t.stacked_by !== undefined ? " stacked" : "";
      return `<span class="armtile${stack}" title="${t.tile}${stack ? " (stacked)" : ""}">${lineTileSVG(t.tile, first, horizontal)}</span>`;
    });
    return `<div class="arm arm-${dir}" data-arm="${arm.arm}"><span class="armlabel">${arm.arm} · open ${arm.open_end ?? "—"}</span>${out.join("")}</div>`;
  }

  function twobox(view, ctx) {
    const used = new Set(["hand_number", "hand_sizes", "boneyard", "drawn", "spinner", "spinner_seat", "spinner_stacked_by",
      "arms", "open_ends", "count", "target", "passes", "last_play", "passed_on", "steal", "last_result"]);
    const arms = {};
    (view.arms || []).forEach((a) => (arms[a.arm] = a));
    const dirs = { 1: "l", 2: "r", 3: "u", 4: "d" };
    const cell = (n) => (arms[n] ? armHTML(arms[n], dirs[n]) : "");
    const spinner = view.spinner
      ? `<div class="spinner">${tileSVG(view.spinner, { vertical: true, title: `spinner ${view.spinner}` })}${
          view.spinner_stacked_by !== null && view.spinner_stacked_by !== undefined ? "<span class='badge'>stacked</span>" : ""
        }</div>`
      : "<div class='spinner muted'>no spinner yet</div>";
    const cross = `<div class="cross"><div class="c-u">${cell(3)}</div><div class="c-l">${cell(1)}</div><div class="c-c">${spinner}</div>
      <div class="c-r">${cell(2)}</div><div class="c-d">${cell(4)}</div></div>`;
    const lp = view.last_play
      ? `<span>last: ${escapeHtml(ctx.seatName(view.last_play.seat))} ${escapeHtml(view.last_play.action)}${view.last_play.scored ? ` <b>+${view.last_play.scored}</b>` : ""}</span>`
      : "";
    const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>Count <b>${view.count}</b></span><span>Boneyard ${view.boneyard}</span>
      <span>Target ${view.target}</span>${lp}</div>`;
    const seats = `<div class="seatrow">${Array.from({ length: view.players }, (_, s) =>
      seatBox(view, ctx, s, `<div class="seatline">${view.hand_sizes[s]} tiles · drew ${(view.drawn || [])[s] || 0}</div>`)
    ).join("")}</div>`;
    return facts + seats + cross + publicFields(view, used);
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
    const used = new Set(key ? [key, "hand_sizes", "boneyard"] : ["hand_sizes", "boneyard"]);
    const b = ctx.builder;
    const groups = b.active ? b.groups : (view[key] || []).map(groupTiles);
    const gHTML = groups
      .map(
        (g, i) => `<div class="group build${b.active ? " target" : ""}" data-group="${i}">${g
          .map((t, j) => `<span class="gt${b.pick && b.pick.g === i && b.pick.j === j ? " picked" : ""}" data-gtile="${i}:${j}">${tileSVG(t, { cls: "mid" })}</span>`)
          .join("")}</div>`
      )
      .join("");
    const facts = `<div class="facts">${view.boneyard !== undefined ? `<span>Boneyard ${view.boneyard}</span>` : ""}${(view.hand_sizes || [])
      .map((n, s) => `<span>${escapeHtml(ctx.seatName(s))}: ${n}</span>`)
      .join("")}</div>`;
    const help = b.active
      ? "<p class='muted'>Select tiles from your hand, then click a group to add them or “New group”. Click a tile on the table to move it.</p>"
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
    }${view.woodpile !== undefined ? `<span>Woodpile ${view.woodpile}</span>` : ""}${view.mode ? `<span>${escapeHtml(view.mode)}</span>` : ""}${
      view.pulled && view.pulled.length ? `<span>you pulled ${tiles(view.pulled, { cls: "mini" })}</span>` : ""
    }${view.claim ? `<span class="hot">claim open: ${value(view.claim)}</span>` : ""}</div>`;
    const perSeat = (s) => {
      let inner = `<div class="seatline">${view.dealer === s ? "<span class='badge'>dealer</span>" : ""}${
        view.ready && view.ready[s] ? "<span class='badge'>ready</span>" : ""
      }${view.outs ? ` outs ${view.outs[s]}` : ""}</div>`;
      const sets = Array.isArray(view.exposed) ? view.exposed[s] || [] : [];
      if (sets.length) {
        inner += `<div class="sets">${sets
          .map((set) => `<span class="group" title="${escapeHtml(set.kind || "")}">${tiles(groupTiles(set), { cls: "mini" })}${
            set.concealed ? "<small>concealed</small>" : ""}</span>`)
          .join("")}</div>`;
      }
      const mine = discards.filter((d) => d[0] === s).map((d) => d[1]);
      if (mine.length) inner += `<div class="discards">${tiles(mine.slice(-12), { cls: "mini" })}</div>`;
      if (view.hand_sizes && s !== view.seat) inner += backsSVG(view.hand_sizes[s]);
      return inner;
    };
    const center = last ? `<div class="lastdiscard">last discard<br>${tileSVG(last[1])}<br><small>by ${escapeHtml(ctx.seatName(last[0]))}</small></div>` : "";
    return html + around(view, ctx, perSeat, center) + publicFields(view, used);
  }

  function generic(view, ctx) {
    const sizes = view.hand_sizes;
    let html = "";
    if (Array.isArray(sizes)) {
      html += around(view, ctx, (s) => (s === view.seat ? "" : backsSVG(sizes[s])), "");
    }
    return html + publicFields(view, new Set(["hand_sizes"])).replace("<details class=\"fields\">", "<details class=\"fields\" open>");
  }

  window.Games = { renderers: { rounce, eighty, twobox, rummikub, montana }, generic, tableKey, groupTiles, value };
})();
