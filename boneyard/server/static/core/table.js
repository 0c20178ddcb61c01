// The table page's shell: joins a seat, keeps a WebSocket to the server, draws the state it
// pushes through the game's module (core/registry.js), sends actions, and replays finished
// games. Everything drawn comes from the pushed state, which the server builds from this
// seat's view. Nothing here knows any game by its id.
import { api as request, loadSeat, saveSeat, playerName, savePlayerName } from "./api.js";
import { tileSVG, escapeHtml, nameSeats } from "./board.js";
import { gameModule } from "./registry.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);

let me = loadSeat(tableId); // {token, seat} or null
let state = null; // the latest state pushed or fetched
let game = null; // the game's front-end module
let replay = null; // {step, steps, state} while replaying
let selected = null; // a hand tile picked when several actions use it
let ws = null;
let retry = 500;
let sending = false;

function api(path, options = {}) {
  return request(path, options, me ? me.token : null);
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

const shell = {
  tableId,
  render: () => render(),
  send: (action) => send(action),
  flash: (message) => flash(message),
  api: (path, options) => api(path, options),
};

function context(shown) {
  return { seatName, state: shown, selected, replaying: !!replay, boardWidth: $("board").clientWidth - 24, shell };
}

// ----- drawing -------------------------------------------------------------------

function render() {
  const shown = replay ? replay.state : state;
  if (!shown || !game) return;
  const view = shown.view;
  const ctx = context(shown);
  document.body.dataset.game = shown.game;
  $("title").textContent = gameName(shown.game);
  $("table-id").textContent = `table ${tableId}`;
  document.title = `${gameName(shown.game)} — boneyard`;
  $("board").innerHTML = game.board(view, ctx);
  renderPlayers(shown);
  renderResult(view, ctx);
  renderOver(shown);
  renderLog(view.history || []);
  renderHand(shown, ctx);
  $("tools").innerHTML = game.tools ? game.tools(ctx) : "";
  renderActions(shown, ctx);
  renderStatus(shown);
  renderJoin();
  bindBoard(ctx);
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
  else if (s.current_player === s.seat && s.seat !== null) text = `Your turn: ${game.ask(v.phase, v)}.`;
  else text = `Waiting for ${seatName(s.current_player)} to ${game.ask(v.phase, v)}.`;
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

function renderResult(view, ctx) {
  const r = view.last_result;
  $("result").hidden = !r;
  if (!r) return;
  $("result").innerHTML = `<h3>Hand result${r.hand ? ` — hand ${r.hand}` : ""}</h3>${game.result(view, r, ctx)}`;
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
  const key = `${history.length}|${(state && state.seats ? state.seats : []).map((x) => x.name).join(",")}`;
  if (key === logKey) return;
  logKey = key;
  const start = Math.max(0, history.length - 200);
  $("log").innerHTML = history
    .slice(start)
    .map((line) => `<li>${nameSeats(line, { seatName })}</li>`)
    .join("");
  $("log").scrollTop = $("log").scrollHeight;
}

function tileWords(action) {
  return action.split(" ").filter((w) => /^\d+-\d+$/.test(w));
}

function renderHand(s, ctx) {
  const hand = s.view.hand;
  if (!hand) {
    $("hand").innerHTML = s.seat === null ? "<p class='muted'>You are watching.</p>" : "";
    return;
  }
  const legal = replay ? [] : s.legal_actions;
  const usable = new Set(legal.flatMap(tileWords));
  const own = game.hand ? game.hand(ctx) : null;
  const handTiles = own ? own.tiles : hand;
  $("hand").innerHTML = handTiles
    .map((t, i) => {
      const cls = [usable.has(t) ? "playable" : "", selected === t || (own && own.selected.has(i)) ? "selected" : ""].join(" ");
      const drag = own && own.draggable ? ` draggable="true"` : "";
      return `<button class="handtile ${cls}" data-hand="${escapeHtml(t)}" data-index="${i}" type="button" aria-label="tile ${t}"${drag}>${tileSVG(t)}</button>`;
    })
    .join("");
  $("hand").querySelectorAll("[data-hand]").forEach((b) => {
    b.addEventListener("click", () => clickHand(b.dataset.hand, Number(b.dataset.index), ctx));
  });
}

function renderActions(s, ctx) {
  const legal = replay ? [] : s.legal_actions;
  let list = game.actionList(legal, ctx);
  if (selected) list = legal.filter((a) => tileWords(a).includes(selected));
  const say = (a) => game.describe(a, s.view);
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

function bindBoard(ctx) {
  document.querySelectorAll("#board [data-board-action]").forEach((el) => el.addEventListener("click", () => send(el.dataset.boardAction)));
  if (game.bind) game.bind(ctx);
}

function clickHand(tile, index, ctx) {
  if (!state || replay) return;
  if (game.clickHand && game.clickHand(tile, index, ctx)) return;
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
    const s = await api(`/api/tables/${tableId}/actions`, { method: "POST", body: JSON.stringify({ action }) });
    selected = null;
    if (game.reset) game.reset();
    accept(s);
  } catch (e) {
    flash(e.message);
  } finally {
    sending = false;
  }
}

function accept(s) {
  if (state && s.version < state.version) return; // an older push arriving late
  if (state && s.version !== state.version) {
    selected = null;
    if (game.reset) game.reset();
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
      saveSeat(tableId, null);
      me = null;
    }
    if (ev.code === 4404) return flash("There is no such table.");
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
  box.innerHTML = `<label>Your name <input id="join-name" maxlength="40" value="${escapeHtml(playerName())}"></label> ${open
    .map((x) => `<button class="primary" data-join="${x.seat}" type="button">Take seat ${x.seat}</button>`)
    .join(" ")} <span class="muted">or just watch</span>`;
  box.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", () => join(Number(b.dataset.join))));
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) return flash("Enter a name to take a seat.");
  savePlayerName(name);
  try {
    me = await api(`/api/tables/${tableId}/join`, { method: "POST", body: JSON.stringify({ seat, name }) });
    saveSeat(tableId, me);
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
    resizing = setTimeout(render, 100); // drawings such as the two-box cross are laid out for the board's width
  });
  try {
    (await api("/api/games")).forEach((g) => (names[g.id] = g.name));
    let first;
    try {
      first = await api(`/api/tables/${tableId}`);
    } catch (e) {
      if (e.status !== 403) throw e;
      saveSeat(tableId, null); // a token from another database: watch instead
      me = null;
      first = await api(`/api/tables/${tableId}`);
    }
    game = await gameModule(first.game);
    accept(first);
    connect();
  } catch (e) {
    flash(e.message);
  }
}

main();
