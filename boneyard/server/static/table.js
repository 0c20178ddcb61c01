// The table page: joins a seat, keeps a WebSocket to the server, draws the state it pushes,
// sends actions, and replays finished games. Everything drawn comes from the pushed state,
// which the server builds from this seat's view.
"use strict";
(function () {
  const { tileSVG, escapeHtml } = window.Tiles;
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const tokenKey = `boneyard.token.${tableId}`;
  const $ = (id) => document.getElementById(id);

  let me = loadToken(); // {token, seat} or null
  let state = null; // the latest state pushed or fetched
  let replay = null; // {step, steps, state} while replaying
  let selected = null; // a hand tile picked when several actions use it
  let ws = null;
  let retry = 500;
  let sending = false;
  const builder = { active: false, groups: [], hand: [], sel: [], pick: null };

  function loadToken() {
    try {
      return JSON.parse(localStorage.getItem(tokenKey) || "null");
    } catch (e) {
      return null;
    }
  }

  function headers() {
    const h = { "Content-Type": "application/json" };
    if (me) h.Authorization = `Bearer ${me.token}`;
    return h;
  }

  async function api(path, options = {}) {
    const res = await fetch(path, Object.assign({ headers: headers() }, options));
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(body.detail || `${res.status} ${res.statusText}`);
      err.status = res.status;
      err.state = body.state; // 409 from a stale view: the table's current state
      throw err;
    }
    return body;
  }

  // A seat's player name; two seats with the same name (three "random bot"s) get their seat number.
  function seatName(s) {
    if (s === null || s === undefined) return "—";
    const seats = state && state.seats ? state.seats : [];
    const info = seats[s];
    let name = info && info.name ? info.name : `seat ${s}`;
    if (info && info.name && seats.filter((x) => x.name === info.name).length > 1) name = `${name} ${s}`;
    return state && s === state.seat ? `${name} (you)` : name;
  }

  // What the seat to act is asked to do, per game and phase.
  const ASK = {
    rounce: { call: "make a call", discard: "discard face down", play: "play a tile to the trick" },
    eighty: { bid: "bid or pass", trump: "name trumps", play: "play a tile to the trick" },
    twobox: { play: "play a tile on an arm (or draw)" },
    montana: { turn: "go out, or discard a tile", discard: "discard a tile", claim: "claim the discard or let it go" },
    rummikub: { play: "play tiles to the table, or draw" },
  };

  function ask(game, phase) {
    const text = (ASK[game] || {})[phase];
    return text ? `${text}` : String(phase);
  }

  // ----- drawing -------------------------------------------------------------------

  function render() {
    const shown = replay ? replay.state : state;
    if (!shown) return;
    const view = shown.view;
    const ctx = { seatName, builder, send, selected, state: shown, boardWidth: $("board").clientWidth - 24 };
    const renderer = window.Games.renderers[shown.game] || window.Games.generic;
    document.body.dataset.game = shown.game;
    $("title").textContent = gameName(shown.game) + (shown.fixed_deal ? " (practice: fixed deal)" : "");
    $("table-id").textContent = `table ${tableId}`;
    document.title = `${gameName(shown.game)} — boneyard`;
    $("board").innerHTML = renderer(view, ctx);
    renderPlayers(shown);
    renderResult(view);
    renderOver(shown);
    renderLog(view.history || []);
    renderHand(shown);
    renderTools(shown);
    renderActions(shown);
    renderStatus(shown);
    renderJoin();
    bindBoard();
    $("replay").hidden = !replay;
  }

  const names = {};
  function gameName(id) {
    return names[id] || id;
  }

  function renderStatus(s) {
    const v = s.view;
    let text;
    if (replay) text = `Replay: step ${replay.step} of ${replay.steps}${replay.state.action ? ` — ${replay.state.action}` : ""}`;
    else if (s.is_over) text = `Game over. Winner${s.winners.length > 1 ? "s" : ""}: ${s.winners.map(seatName).join(", ") || "nobody"}.`;
    else if (s.current_player === s.seat && s.seat !== null) text = `Your turn: ${ask(s.game, v.phase)}.`;
    else text = `Waiting for ${seatName(s.current_player)} to ${ask(s.game, v.phase)}.`;
    const waiting = s.seats.filter((x) => !x.joined).map((x) => x.seat);
    if (!s.is_over && waiting.length) text += ` Open seat${waiting.length > 1 ? "s" : ""}: ${waiting.join(", ")} — share the link.`;
    $("status").textContent = text;
    $("status").classList.toggle("yours", !replay && !s.is_over && s.current_player === s.seat && s.seat !== null);
  }

  function renderPlayers(s) {
    const rows = s.seats
      .map((x) => {
        const turn = s.current_player === x.seat ? " class='turn'" : "";
        const tag = x.kind === "bot" ? `<span class="badge">bot</span>` : x.joined ? "" : `<span class="badge open">open</span>`;
        const won = s.is_over && s.winners.includes(x.seat) ? " <span class='star' title='winner'>★</span>" : "";
        return `<tr${turn}><td>${x.seat}</td><td>${escapeHtml(seatName(x.seat))} ${tag}${won}</td><td class="num">${escapeHtml(
          String(s.scores[x.seat])
        )}</td></tr>`;
      })
      .join("");
    $("players").innerHTML = `<table class="list scores"><thead><tr><th>#</th><th>player</th><th>score</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  function renderResult(view) {
    const r = view.last_result;
    $("result").hidden = !r;
    if (!r) return;
    $("result").innerHTML = `<h3>Hand result${r.hand ? ` — hand ${r.hand}` : ""}</h3>${window.Games.resultHTML(view, r, { seatName })}`;
  }

  // The game-over panel: winners, final scores and the replay.
  function renderOver(s) {
    const box = $("over");
    if (!s.is_over || replay) {
      box.hidden = true;
      return;
    }
    if (!box.hidden && box.dataset.version === String(s.version)) return;
    box.dataset.version = String(s.version);
    box.hidden = false;
    const won = s.winners.length ? s.winners.map((w) => `<b>${escapeHtml(seatName(w))}</b>`).join(" & ") : "nobody";
    const mine = s.seat !== null && s.winners.includes(s.seat);
    const rows = s.seats
      .map((x) => `<li${s.winners.includes(x.seat) ? " class='winner'" : ""}>${escapeHtml(seatName(x.seat))}: ${escapeHtml(String(s.scores[x.seat]))}${
        s.winners.includes(x.seat) ? " <span class='star' title='winner'>★</span>" : ""}</li>`)
      .join("");
    box.innerHTML = `<h2>${mine ? "You won!" : "Game over"}</h2><p>Winner${s.winners.length > 1 ? "s" : ""}: ${won}</p>
      <ol class="final">${rows}</ol><p><button id="open-replay" type="button">Replay this game</button> <a class="button" href="/">New game in the lobby</a></p>`;
    $("open-replay").onclick = () => showStep(0);
  }

  let logKey = "";
  function renderLog(history) {
    const key = `${(state && state.history_from) || 0}+${history.length}|${(state && state.seats ? state.seats : []).map((x) => x.name).join(",")}`;
    if (key === logKey) return;
    logKey = key;
    const start = Math.max(0, history.length - 200);
    $("log").innerHTML = history
      .slice(start)
      .map((line) => `<li>${window.Games.nameSeats(line, { seatName })}</li>`)
      .join("");
    $("log").scrollTop = $("log").scrollHeight;
  }

  function tileWords(action) {
    return action.split(" ").filter((w) => /^\d+-\d+$/.test(w));
  }

  function renderHand(s) {
    const hand = s.view.hand;
    if (!hand) {
      $("hand").innerHTML = s.seat === null ? "<p class='muted'>You are watching.</p>" : "";
      return;
    }
    const legal = replay ? [] : s.legal_actions;
    const usable = new Set(legal.flatMap(tileWords));
    const inBuild = builder.active ? builder.sel : [];
    const handTiles = builder.active ? builder.hand : hand;
    $("hand").innerHTML = handTiles
      .map((t, i) => {
        const cls = [usable.has(t) ? "playable" : "", selected === t || inBuild.includes(i) ? "selected" : ""].join(" ");
        const drag = builder.active ? ` draggable="true"` : "";
        return `<button class="handtile ${cls}" data-hand="${escapeHtml(t)}" data-index="${i}" type="button" aria-label="tile ${t}"${drag}>${tileSVG(t)}</button>`;
      })
      .join("");
    $("hand").querySelectorAll("[data-hand]").forEach((b) => {
      b.addEventListener("click", () => clickHand(b.dataset.hand, Number(b.dataset.index)));
      b.addEventListener("dragstart", (ev) => {
        // dragging a hand tile moves it with the other selected ones
        const i = Number(b.dataset.index);
        if (!builder.sel.includes(i)) builder.sel.push(i);
        builder.pick = null;
        ev.dataTransfer.setData("text/plain", "hand");
      });
    });
  }

  function renderActions(s) {
    const legal = replay ? [] : s.legal_actions;
    let list = legal;
    if (selected) list = legal.filter((a) => tileWords(a).includes(selected));
    // Rummikub may list many plays: show a few; the builder and the hint do the rest.
    if (s.game === "rummikub" && !selected) list = legal.filter((a) => !a.startsWith("play ")).concat(legal.filter((a) => a.startsWith("play ")).slice(0, 6));
    const say = (a) => window.Games.describe(s.game, a, s.view);
    $("actions").innerHTML =
      list.map((a) => `<button class="action" data-action="${escapeHtml(a)}" title="${escapeHtml(a)}" type="button">${escapeHtml(say(a))}</button>`).join("") +
      (selected ? `<button class="action cancel" data-cancel="1" type="button">cancel</button>` : "");
    $("actions").querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", () => send(b.dataset.action)));
    $("actions").querySelectorAll("[data-cancel]").forEach((b) =>
      b.addEventListener("click", () => {
        selected = null;
        render();
      })
    );
  }

  // Rummikub's builder (other games have none). The builder holds the table being built:
  // groups of {t, hand} (hand: the tile came from this player's hand, so it may go back),
  // the hand tiles not yet placed, the selected hand tiles and a picked table tile.
  function renderTools(s) {
    const tools = $("tools");
    if (s.game !== "rummikub" || replay || s.current_player !== s.seat || s.seat === null || s.is_over) {
      tools.innerHTML = "";
      builder.active = false;
      return;
    }
    tools.innerHTML = builder.active
      ? `<button id="rk-new" type="button">New group</button><button id="rk-back" type="button">Back to hand</button>
         <button id="rk-play" class="primary" type="button">Play this table</button>
         <button id="rk-reset" type="button">Reset</button><button id="rk-hint" type="button">Hint</button>`
      : `<button id="rk-build" class="primary" type="button">Build a play</button><button id="rk-hint" type="button">Hint</button>`;
    const on = (id, fn) => {
      const el = $(id);
      if (el) el.addEventListener("click", fn);
    };
    on("rk-build", () => startBuild(s));
    on("rk-reset", () => startBuild(s));
    on("rk-new", () => {
      if (builder.pick) return moveTo("new");
      if (!builder.sel.length) return flash("Select tiles from your hand (or a tile on the table) first.");
      moveTo("new");
    });
    on("rk-back", () => {
      if (!builder.pick) return flash("Pick a tile you placed from your hand, then “Back to hand”.");
      toHand();
    });
    on("rk-play", () => {
      const groups = builder.groups.filter((g) => g.length);
      if (!groups.length) return flash("The table would be empty.");
      const short = groups.find((g) => g.length < 3);
      if (short) return flash(`Every group needs three or more tiles: ${short.map((x) => x.t).join(" ")} has ${short.length}.`);
      send(`play ${groups.map((g) => g.map((x) => x.t).join(" ")).join(" | ")}`);
    });
    on("rk-hint", () => hint(s));
  }

  function startBuild(s) {
    const key = window.Games.tableKey(s.view);
    builder.active = true;
    builder.groups = (key ? s.view[key] : []).map((g) => window.Games.groupTiles(g).map((t) => ({ t, hand: false })));
    builder.hand = s.view.hand.slice();
    builder.sel = [];
    builder.pick = null;
    render();
  }

  function takeSelected() {
    const idx = builder.sel.slice().sort((a, b) => b - a);
    const taken = idx.map((i) => builder.hand[i]).reverse();
    idx.forEach((i) => builder.hand.splice(i, 1));
    builder.sel = [];
    return taken.map((t) => ({ t, hand: true }));
  }

  // Move the picked table tile, or else the selected hand tiles, to group g ("new": a new group).
  function moveTo(g) {
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
    render();
  }

  // Return the picked tile to the hand: only tiles that came from the hand may go back.
  function toHand() {
    const { g, j } = builder.pick;
    const tile = builder.groups[g][j];
    if (!tile.hand) {
      flash("That tile was on the table: it must stay on the table.");
      return;
    }
    builder.groups[g].splice(j, 1);
    builder.hand.push(tile.t);
    builder.groups = builder.groups.filter((x) => x.length);
    builder.pick = null;
    render();
  }

  // The solver's hint, from the server (built from this seat's view), loaded into the builder.
  async function hint(s) {
    let h;
    try {
      h = await api(`/api/tables/${tableId}/hint`);
    } catch (e) {
      return flash(e.message);
    }
    if (!h.action) return flash(`Hint: ${h.why}.`);
    startBuild(s);
    const fromHand = h.tiles.slice();
    builder.groups = h.action.slice(5).split("|").map((g) => g.trim().split(/\s+/).filter(Boolean).map((t) => {
      const i = fromHand.indexOf(t);
      if (i >= 0) fromHand.splice(i, 1);
      return { t, hand: i >= 0 };
    }));
    const rest = s.view.hand.slice();
    h.tiles.forEach((t) => rest.splice(rest.indexOf(t), 1));
    builder.hand = rest;
    render();
    flash(`Hint: this table lays ${h.count} of your tiles (${h.tiles.join(" ")}). Press “Play this table” to play it.`);
  }

  function bindBoard() {
    document.querySelectorAll("#board [data-board-action]").forEach((el) => el.addEventListener("click", () => send(el.dataset.boardAction)));
    if (!builder.active) return;
    document.querySelectorAll("[data-gtile]").forEach((el) => {
      el.addEventListener("click", (ev) => {
        ev.stopPropagation();
        const [g, j] = el.dataset.gtile.split(":").map(Number);
        builder.pick = builder.pick && builder.pick.g === g && builder.pick.j === j ? null : { g, j };
        builder.sel = [];
        render();
      });
      el.addEventListener("dragstart", (ev) => {
        const [g, j] = el.dataset.gtile.split(":").map(Number);
        builder.pick = { g, j };
        builder.sel = [];
        ev.dataTransfer.setData("text/plain", "table");
      });
    });
    document.querySelectorAll("[data-group]").forEach((el) => {
      const target = el.dataset.group === "new" ? "new" : Number(el.dataset.group);
      el.addEventListener("click", () => moveTo(target));
      el.addEventListener("dragover", (ev) => {
        ev.preventDefault();
        el.classList.add("dragover");
      });
      el.addEventListener("dragleave", () => el.classList.remove("dragover"));
      el.addEventListener("drop", (ev) => {
        ev.preventDefault();
        moveTo(target);
      });
    });
    const hand = $("hand");
    hand.ondragover = (ev) => builder.pick && ev.preventDefault();
    hand.ondrop = (ev) => {
      ev.preventDefault();
      if (builder.pick) toHand();
    };
  }

  function clickHand(tile, index) {
    if (!state || replay) return;
    if (builder.active) {
      if (builder.pick) return toHand();
      const at = builder.sel.indexOf(index);
      if (at >= 0) builder.sel.splice(at, 1);
      else builder.sel.push(index);
      render();
      return;
    }
    const options = state.legal_actions.filter((a) => tileWords(a).includes(tile));
    if (options.length === 1) send(options[0]);
    else if (options.length > 1) {
      selected = selected === tile ? null : tile;
      render();
    } else flash(state.current_player === state.seat ? `No legal action uses ${tile} now.` : "It is not your turn.");
  }

  function flash(message) {
    $("error").textContent = message;
  }

  // ----- talking to the server -------------------------------------------------------

  async function send(action) {
    if (sending) return;
    sending = true;
    flash("");
    try {
      const body = JSON.stringify({ action, expected_version: state ? state.version : undefined });
      const s = await api(`/api/tables/${tableId}/actions`, { method: "POST", body });
      selected = null;
      builder.active = false;
      accept(s);
    } catch (e) {
      if (e.status === 409 && e.state) accept(e.state); // the table moved on: show where it is now
      flash(e.message);
    } finally {
      sending = false;
    }
  }

  function accept(s) {
    if (state && s.version < state.version) return; // an older push arriving late
    if (state && s.version !== state.version) {
      selected = null;
      builder.active = false;
    }
    state = s;
    if (s.view.hand && selected && !s.view.hand.includes(selected)) selected = null;
    render();
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = me ? `?token=${encodeURIComponent(me.token)}` : "";
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`);
    ws.onopen = () => {
      retry = 500;
      $("conn").classList.add("live");
    };
    ws.onmessage = (ev) => accept(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      $("conn").classList.remove("live");
      if (ev.code === 4403) {
        localStorage.removeItem(tokenKey);
        me = null;
      }
      if (ev.code === 4404) return flash("There is no such table.");
      if (ev.code === 4410) return flash(ev.reason || "This table is closed.");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function renderJoin() {
    const box = $("join");
    const open = state && !state.is_over ? state.seats.filter((x) => !x.joined) : [];
    if (me || !open.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const name = localStorage.getItem("boneyard.name") || "";
    box.innerHTML = `<label>Your name <input id="join-name" maxlength="40" value="${escapeHtml(name)}"></label> ${open
      .map((x) => `<button class="primary" data-join="${x.seat}" type="button">Take seat ${x.seat}</button>`)
      .join(" ")} <span class="muted">or just watch</span>`;
    box.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", () => join(Number(b.dataset.join))));
  }

  async function join(seat) {
    const name = $("join-name").value.trim();
    if (!name) return flash("Enter a name to take a seat.");
    localStorage.setItem("boneyard.name", name);
    try {
      me = await api(`/api/tables/${tableId}/join`, { method: "POST", body: JSON.stringify({ seat, name }) });
      localStorage.setItem(tokenKey, JSON.stringify(me));
      if (ws) {
        // the watcher's socket is done: a message still in flight on it would draw the
        // spectator's view (no hand) over the seat's
        ws.onmessage = null;
        ws.onclose = null;
        ws.close();
      }
      state = await api(`/api/tables/${tableId}`);
      render();
      connect();
    } catch (e) {
      flash(e.message);
    }
  }

  // ----- replay ----------------------------------------------------------------------

  async function showStep(step) {
    const steps = state.version;
    step = Math.max(0, Math.min(steps, step));
    const s = await api(`/api/tables/${tableId}/replay?step=${step}`);
    replay = { step, steps, state: s };
    $("rp-step").max = String(steps);
    $("rp-step").value = String(step);
    $("rp-label").textContent = `${step}/${steps}`;
    render();
  }

  function bindReplay() {
    $("rp-start").onclick = () => showStep(0);
    $("rp-prev").onclick = () => showStep(replay.step - 1);
    $("rp-next").onclick = () => showStep(replay.step + 1);
    $("rp-end").onclick = () => showStep(replay.steps);
    $("rp-step").oninput = () => showStep(Number($("rp-step").value));
    $("rp-close").onclick = () => {
      replay = null;
      render();
    };
  }

  async function main() {
    $("share").onclick = () => {
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
      $("share").textContent = "copied";
    };
    bindReplay();
    let resizing = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(render, 100); // the two-box cross is laid out for the board's width
    });
    try {
      (await api("/api/games")).forEach((g) => (names[g.id] = g.name));
      try {
        state = await api(`/api/tables/${tableId}`);
      } catch (e) {
        if (e.status !== 403) throw e;
        localStorage.removeItem(tokenKey); // a token from another database: watch instead
        me = null;
        state = await api(`/api/tables/${tableId}`);
      }
      render();
      connect();
    } catch (e) {
      flash(e.message);
    }
  }

  main();
})();
