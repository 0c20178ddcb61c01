// The table page's shell: joins a seat, keeps a WebSocket to the server, draws the state it
// pushes through the game's module (core/registry.js), sends actions, and replays finished
// games. Everything drawn comes from the pushed state, which the server builds from this
// seat's view. Nothing here knows any game by its id.
import { api as request, loadSeat, saveSeat, playerName, savePlayerName } from "./api.js";
import { tileSVG, escapeHtml, nameSeats, nameList, signed, linesSince } from "./board.js";
import { gameModule } from "./registry.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);

let me = loadSeat(tableId); // {token, seat} or null
let state = null; // the latest state pushed or fetched
let game = null; // the game's front-end module
let replay = null; // {step, steps, state} while replaying
let selected = null; // a hand tile picked when several actions use it
let ending = null; // while the hand-end panel shows: {result, before, view} (the ended hand's board)
let autoNext = null; // the timer dealing the next hand on a one-human table
let since = null; // the view as it stood when this seat last acted: what changed after it is new
let ws = null;
let retry = 500;
let sending = false;
let pending = null; // {action, from}: the action in flight and the version it was sent from

function api(path, options = {}) {
  return request(path, options, me ? me.token : null);
}

// A seat's player name; two seats with the same name (three "random bot"s) get their seat number.
function seatName(s) {
  if (s === null || s === undefined) return "—";
  const seats = state && state.seats ? state.seats : [];
  const info = seats[s];
  let name = info && info.name ? info.name : `open seat ${s}`;
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

// What the coach's module (core/coach.js) reads of the table, and the replay it opens at a decision.
window.boneyardTable = {
  tableId, seatName, showStep: (step) => showStep(step), send: (action) => send(action),
  api: (path, options) => api(path, options), state: () => state, replay: () => replay, game: () => game,
};

function context(shown) {
  const base = !replay && since && since.hand_number === shown.view.hand_number ? since : null;
  return { seatName, state: shown, selected, replaying: !!replay, boardWidth: $("board").clientWidth - 24, shell, since: base };
}

// What the others did since this seat last acted, from the log: "Since your turn: Bob plays 6-4; ...".
function renderSince(s, ctx) {
  const box = $("since");
  const lines = !replay && !ending && since && s.seat !== null ? linesSince(since, s.view, null) : [];
  const theirs = lines.filter((l) => !/\bholds\b/.test(l));
  box.hidden = !theirs.length;
  if (!theirs.length) return;
  const shown = theirs.slice(-8);
  box.innerHTML = `<b>Since your turn:</b> ${theirs.length > shown.length ? "… " : ""}${shown.map((l) => nameSeats(l, ctx)).join("; ")}.`;
}

// ----- drawing -------------------------------------------------------------------

function render() {
  const shown = replay ? replay.state : state;
  if (!shown || !game) return;
  const ctx = context(shown);
  const view = ending && !replay ? ending.view : shown.view;
  ctx.ending = ending && !replay ? ending : null;
  document.body.dataset.game = shown.game;
  document.body.dataset.version = String(shown.version);
  document.body.dataset.ending = ctx.ending ? String(ctx.ending.result.hand) : "";
  $("title").textContent = gameName(shown.game) + (shown.fixed_deal ? " (practice: fixed deal)" : "");
  $("table-id").textContent = `table ${tableId}`;
  document.title = `${gameName(shown.game)} — boneyard`;
  $("rules-link").href = `/rules/${encodeURIComponent(shown.game)}`;
  $("board").innerHTML = game.board(view, ctx);
  renderPlayers(shown);
  renderResult(shown.view, ctx);
  renderHandEnd(shown, ctx);
  renderOver(shown, ctx);
  renderLog(shown.view.history || []);
  renderHand(shown, ctx);
  $("tools").innerHTML = game.tools && !ctx.ending ? game.tools(ctx) : "";
  renderActions(shown, ctx);
  renderStatus(shown);
  renderSince(shown, ctx);
  renderJoin();
  bindBoard(ctx);
  $("replay").hidden = !replay;
  showHandsFaceUp();
  revealLastPlay();
  autoPlay(shown);
  pressNext(shown);
  document.dispatchEvent(new CustomEvent("boneyard:render")); // the coach (core/coach.js) marks the board anew
}

// When a hand's end is first shown, scroll the page so that the last play on the board is
// not hidden under the result panel.
function revealLastPlay() {
  if (!ending || ending.revealed || replay) return;
  ending.revealed = true;
  const last = document.querySelectorAll("#board [data-last]");
  const marked = last.length ? [...last] : [...document.querySelectorAll("#board .new, #board [data-new], #board .trick.done")];
  const sheet = document.querySelector(".sheet:not([hidden])");
  if (!marked.length || !sheet) return;
  const box = marked[marked.length - 1].getBoundingClientRect();
  const top = sheet.getBoundingClientRect().top;
  if (box.bottom > top - 8) window.scrollBy(0, box.bottom - top + 16);
}

// A forced step the game's module names (a draw when drawing is all the rules allow) is
// played by the page itself, a moment after the state that forces it is drawn.
let autoVersion = -1;
function autoPlay(s) {
  if (replay || ending || s.between_hands || !game.autoAction || s.seat === null || s.current_player !== s.seat || s.is_over) return;
  const action = game.autoAction(s);
  if (!action || autoVersion === s.version) return;
  autoVersion = s.version;
  setTimeout(() => {
    if (state && state.version === s.version && !ending) send(action, true);
  }, 300);
}

const infos = {};
function gameName(id) {
  return infos[id] ? infos[id].name : id;
}

function renderStatus(s) {
  const v = s.view;
  let text;
  const b = s.between_hands;
  if (ending && !replay && !s.is_over) text = `Hand ${ending.result.hand} is over.`;
  else if (b && !replay) text = `Hand ${b.hand} is over: the next hand starts when ${b.waiting.map(seatName).join(" and ") || "everyone"} ${b.waiting.length === 1 ? "presses" : "press"} Next hand (or in ${Math.max(1, Math.round(b.until - Date.now() / 1000))} s).`;
  else if (replay) text = replayWords();
  else if (s.is_over) text = `Game over. Winner${s.winners.length > 1 ? "s" : ""}: ${s.winners.map(seatName).join(", ") || "nobody"}.`;
  else if (s.current_player === s.seat && s.seat !== null) text = `Your turn: ${game.ask(v.phase, v)}.`;
  else text = `Waiting for ${seatName(s.current_player)} to ${game.ask(v.phase, v)}.`;
  const waiting = s.seats.filter((x) => !x.joined).length;
  if (!s.is_over && waiting) text += ` ${waiting === 1 ? "One seat is" : `${waiting} seats are`} still open — share the link.`;
  if (!$("banner").hidden) text = "Reconnecting… " + text.replace(/^Your turn: /, "Your turn (once reconnected): ");
  if (replay) $("status").innerHTML = text;
  else $("status").textContent = text;
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
  const head = game.headline ? game.headline(r, ctx) : "";
  $("result").innerHTML = `<h3>Hand result${r.hand ? ` — hand ${r.hand}` : ""}</h3>${head ? `<p>${head}</p>` : ""}${game.result(view, r, ctx)}`;
}

// ----- the end of a hand and of the game -------------------------------------------

const seenKey = `boneyard.seen.${tableId}`;
function seenHand() {
  return Number(localStorage.getItem(seenKey) || 0);
}

// Notice a hand that has just ended: the state before it ended is kept so that the board
// can show the hand as it ended (the last play included) until the player presses Next.
function noticeHandEnd(before, s, sent) {
  const r = s.view.last_result;
  if (!r || typeof r.hand !== "number" || r.hand <= seenHand() || (ending && ending.result.hand === r.hand)) return;
  const witnessed = before && before.view.hand_number === r.hand &&
    !(before.view.last_result && before.view.last_result.hand === r.hand);
  if (witnessed) {
    const mine = sent || (pending && pending.from === before.version ? pending.action : null);
    const view = game.endView ? game.endView(before.view, s.view, mine) : before.view;
    ending = { result: r, before: before.view, view };
  } else if (fromServer(s, r)) {
    // a reload, or a page that joined after the hand ended: the server kept the hand as it ended
  } else if (s.is_over) {
    ending = { result: r, before: null, view: s.view };
  } else {
    localStorage.setItem(seenKey, String(r.hand)); // it ended before this page saw it
  }
}

// The hand-end panel from the state's `ended_hand` (this seat's view just before the hand's
// last action, and the log lines that action added), while the table still waits for this
// player's "Next hand" or the game is over. Returns whether it was shown.
function fromServer(s, r) {
  const e = s.ended_hand;
  const b = s.between_hands;
  const waiting = b && b.hand === r.hand && (s.seat === null || b.waiting.includes(s.seat));
  if (!e || e.hand !== r.hand || !(waiting || s.is_over)) return false;
  const seen = (e.before.history_start || 0) + (e.before.history || []).length;
  const after = Object.assign({}, s.view, { history: e.lines, history_start: seen, last_result: e.result });
  const view = game.endView ? game.endView(e.before, after, null) : e.before;
  ending = { result: e.result || r, before: e.before, view };
  return true;
}

// "Next hand": the server deals on once every human has pressed it; this page shows the new hand at once.
function nextHand() {
  const hand = ending ? ending.result.hand : null;
  if (ending) localStorage.setItem(seenKey, String(hand));
  ending = null;
  clearTimeout(autoNext);
  autoNext = null;
  render();
}

// Tell the server this player is ready for the next hand, once per hand, whenever the table
// waits for this seat and no hand-end panel is up (pressed, timed out, or nothing to show).
let nextSent = 0;
function pressNext(s) {
  const b = s.between_hands;
  if (replay || ending || !me || !b || !b.waiting.includes(me.seat) || nextSent === b.hand) return;
  nextSent = b.hand;
  api(`/api/tables/${tableId}/next`, { method: "POST", body: JSON.stringify({ hand: b.hand }) })
    .then(accept)
    .catch((e) => flash(inWords(e.message)));
}

// Seconds before the next hand is dealt by itself at a table with one human (0: never).
function autoNextDelay() {
  const v = localStorage.getItem("boneyard.autoNext");
  return v === null ? 12 : Number(v) || 0;
}

// The running totals: one row per seat, the hand's change when the game says it.
function totalsHTML(s, r) {
  const changes = game.changes ? game.changes(r, s.view) : null;
  const rows = s.seats.map((x) => `<tr><th>${escapeHtml(seatName(x.seat))}</th>${changes ? `<td class="num">${escapeHtml(signed(changes[x.seat]))}</td>` : ""}<td class="num">${
    escapeHtml(String(s.scores[x.seat]))}</td></tr>`).join("");
  return `<table class="list totals"><thead><tr><th></th>${changes ? "<th>this hand</th>" : ""}<th>total</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function handEndBody(s, ctx) {
  const r = ending.result;
  const head = game.headline ? game.headline(r, ctx) : "";
  return `<h2>Hand ${r.hand} is over</h2>${head ? `<p class="headline">${head}</p>` : ""}<div class="why">${game.result(ending.view, r, ctx)}</div>${totalsHTML(s, r)}`;
}

function renderHandEnd(s, ctx) {
  const box = $("handend");
  if (!ctx.ending || s.is_over) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const humans = s.seats.filter((x) => x.kind === "human").length;
  const delay = humans <= 1 ? autoNextDelay() : 0;
  const choices = [...new Set([0, 6, 12, 30, autoNextDelay()])].sort((a, b) => a - b).map((n) => `<option value="${n}"${n === autoNextDelay() ? " selected" : ""}>${n ? `after ${n} s` : "never"}</option>`);
  box.innerHTML = `${handEndBody(s, ctx)}<p class="next"><button id="next-hand" class="primary" type="button">Next hand</button>${
    humans <= 1 ? ` <label class="muted">by itself <select id="auto-next">${choices.join("")}</select></label>` : ""}</p>`;
  $("next-hand").onclick = nextHand;
  const pick = $("auto-next");
  if (pick) {
    pick.onchange = () => {
      localStorage.setItem("boneyard.autoNext", pick.value);
      clearTimeout(autoNext);
      autoNext = null;
      render();
    };
  }
  if (delay && !autoNext) autoNext = setTimeout(nextHand, delay * 1000);
}

// Which way scores rank: the game's declared fact, else read from the winners' scores.
function lowerIsBetter(s) {
  const info = infos[s.game] || {};
  if (typeof info.lower_is_better === "boolean") return info.lower_is_better;
  if (!s.winners.length) return false;
  const w = s.scores[s.winners[0]];
  return w === Math.min(...s.scores) && w !== Math.max(...s.scores);
}

// "Ann wins with 0; Bob 4; Cy 12.": players (or sides) ranked by their final score.
function rankingWords(s) {
  const groups = game.sides ? game.sides(s.view) : s.seats.map((x) => [x.seat]);
  const low = lowerIsBetter(s);
  const ranked = groups.map((g) => ({ seats: g, score: s.scores[g[0]], won: g.some((x) => s.winners.includes(x)) }))
    .sort((a, b) => (b.won - a.won) || (low ? a.score - b.score : b.score - a.score));
  const who = (g) => escapeHtml(nameList(g.seats, { seatName }));
  const winners = ranked.filter((g) => g.won);
  const rest = ranked.filter((g) => !g.won);
  const many = winners.length > 1 || (winners[0] && winners[0].seats.length > 1);
  const first = winners.length
    ? `<b>${winners.map(who).join(" and ")}</b> ${many ? "win" : "wins"} with ${winners.map((g) => escapeHtml(String(g.score))).join(" and ")}`
    : "Nobody wins";
  return [first, ...rest.map((g) => `${who(g)} ${escapeHtml(String(g.score))}`)].join("; ") + ".";
}

// The game-over panel: the ranking in words, the last hand's result, the replay.
function renderOver(s, ctx) {
  const box = $("over");
  if (!s.is_over || replay) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const mine = s.seat !== null && s.winners.includes(s.seat);
  const last = ctx.ending ? `<details class="lasthand"${window.innerWidth >= 760 ? " open" : ""}><summary>The last hand</summary>${handEndBody(s, ctx)}</details>` : "";
  box.innerHTML = `<h2>${mine ? "You won!" : "Game over"}</h2><p class="ranking">${rankingWords(s)}</p>${last}
    <p><button id="open-replay" class="primary" type="button">Replay this game</button> <a class="button" href="/">New game in the lobby</a></p>`;
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
    .map((line) => `<li>${nameSeats(line, { seatName })}</li>`)
    .join("");
  $("log").scrollTop = $("log").scrollHeight;
}

function tileWords(action) {
  return action.split(" ").filter((w) => /^\d+-\d+$/.test(w));
}

let handMarkup = null; // the hand's tiles as last drawn (null: draw them anew)
let handCtx = null; // the context the hand's tiles act in: the newest render's

function renderHand(s, ctx) {
  const hand = s.view.hand;
  if (ctx.ending || !hand) {
    handMarkup = null;
    $("hand").innerHTML = !ctx.ending && s.seat === null ? "<p class='muted'>You are watching.</p>" : "";
    return;
  }
  const legal = replay ? [] : s.legal_actions;
  const usable = new Set(legal.flatMap(tileWords));
  const own = game.hand ? game.hand(ctx) : null;
  const handTiles = own ? own.tiles : hand;
  // tiles that came into the hand since this seat last acted (drawn, dealt) are marked new
  const old = ctx.since && ctx.since.hand && !own ? ctx.since.hand.slice() : null;
  const fresh = handTiles.map((t) => {
    if (!old) return false;
    const at = old.indexOf(t);
    if (at >= 0) old.splice(at, 1);
    return at < 0;
  });
  const markup = handTiles
    .map((t, i) => {
      const mark = (game.handMark ? game.handMark(t, s.view, i, handTiles) : null) || (fresh[i] ? { cls: "new", label: "new" } : null);
      const cls = [usable.has(t) ? "playable" : "", selected === t || (own && own.selected.has(i)) ? "selected" : "", mark ? mark.cls : ""].join(" ");
      const drag = own && own.draggable ? " drag" : ""; // the module drags it with pointer events
      const label = mark ? `<span class="mark">${escapeHtml(mark.label)}</span>` : "";
      return `<button class="handtile ${cls}${drag}" data-hand="${escapeHtml(t)}" data-index="${i}" type="button" aria-label="tile ${t}${
        mark ? `, ${escapeHtml(mark.label)}` : ""}">${tileSVG(t)}${label}</button>`;
    })
    .join("");
  handCtx = ctx;
  // a push that changes nothing in the hand (a presence, a chat line, another seat's play
  // that leaves this hand as it was) keeps its tiles: a tap landing as the push arrives
  // must not fall on a tile that was just replaced. A module that binds its own handlers
  // to the hand's tiles (own) gets them anew each time.
  if (!own && markup === handMarkup && $("hand").querySelector("[data-hand]")) return;
  handMarkup = own ? null : markup;
  $("hand").innerHTML = markup;
  $("hand").querySelectorAll("[data-hand]").forEach((b) => {
    b.addEventListener("click", () => clickHand(b.dataset.hand, Number(b.dataset.index), handCtx));
  });
}

let actionsMarkup = null; // the action buttons as last drawn

function renderActions(s, ctx) {
  const legal = replay || ctx.ending ? [] : s.legal_actions;
  // actions naming a hand tile are played by tapping the tile (the tile's own choices then
  // show here); the others (draw, pass, calls) are buttons
  const inHand = new Set(s.view.hand || []);
  let list = game.actionList(legal, ctx).filter((a) => !tileWords(a).some((t) => inHand.has(t)) || !!game.tileButtons);
  if (selected) list = legal.filter((a) => tileWords(a).includes(selected));
  const tapHint = !selected && !ctx.ending && legal.some((a) => tileWords(a).some((t) => inHand.has(t))) && !game.tileButtons;
  const say = (a) => game.describe(a, s.view);
  const markup = (tapHint ? `<span class="taphint">Tap a tile with a green edge to play it${list.length ? ", or:" : "."}</span>` : "") +
    list.map((a) => `<button class="action" data-action="${escapeHtml(a)}" title="${escapeHtml(a)}" type="button">${escapeHtml(say(a))}</button>`).join("") +
    (selected ? `<button class="action cancel" data-cancel="1" type="button">cancel</button>` : "");
  if (markup === actionsMarkup) return; // as the hand: a push that changes nothing keeps the buttons under the finger
  actionsMarkup = markup;
  $("actions").innerHTML = markup;
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

// A server message in a player's words: seats become names, "not your turn" says whose turn it is.
function inWords(message) {
  const turn = () => (state && state.current_player !== null && state.current_player !== undefined
    ? (state.current_player === state.seat ? "it is your turn now." : `it is ${seatName(state.current_player).replace(/ \(you\)$/, "")}'s turn.`)
    : "");
  if (/^not your turn/.test(message) && turn()) return turn().charAt(0).toUpperCase() + turn().slice(1);
  if (/^the table has moved on/.test(message)) return `The table had moved on: ${turn() || "this is where it is now."}`;
  return message
    .replace(/\bseats (\d+(?:\+\d+)+)/g, (_, list) => nameList(list.split("+").map(Number), { seatName }))
    .replace(/\bseat (\d+)\b/g, (_, n) => seatName(Number(n)));
}

// Fetch the table again (after a refusal, a reconnect, or a tab coming back into view).
async function resync() {
  try {
    accept(await api(`/api/tables/${tableId}`));
  } catch (e) {
    if (e.status === 404) notFound();
  }
}

// ----- talking to the server -------------------------------------------------------

// Play an action; `forced` (a step the page took by itself) keeps "since your turn" where it was.
async function send(action, forced = false) {
  if (sending) return;
  sending = true;
  // the push of the new state may arrive before this request's answer: remember what was sent
  pending = { action, from: state ? state.version : -1 };
  flash("");
  try {
    // the version this action was chosen from: a repeat is not played twice, a stale view gets 409 and the state
    const body = JSON.stringify({ action, expected_version: state ? state.version : undefined });
    const s = await api(`/api/tables/${tableId}/actions`, { method: "POST", body });
    selected = null;
    if (game.reset) game.reset();
    accept(s, action);
    if (!forced) since = s.view;
    render();
  } catch (e) {
    // a refusal may come from a stale view: draw the table as it is now, then say why
    if (e.status === 409 && e.state) accept(e.state);
    else if (e.status && e.status < 500) await resync();
    flash(inWords(e.message));
  } finally {
    sending = false;
  }
}

// Take a state pushed or answered by the server; `sent` is the action this page just played.
function accept(s, sent = null) {
  // a push carries only the newest part of the log: its views know where their lines start
  s.view.history_start = s.history_from || 0;
  if (state && s.version < state.version) return; // an older push arriving late
  if (state && s.version !== state.version) {
    selected = null;
    if (game.reset) game.reset();
  }
  const before = state;
  state = s;
  noticeHandEnd(before, s, sent);
  if (s.view.hand && selected && !s.view.hand.includes(selected)) selected = null;
  render();
}

// The dot by the title: its colour and its words (hover, screen readers) say whether moves
// reach the table now or the page is reconnecting.
function connState(live) {
  const dot = $("conn");
  const words = live ? "live connection" : "connection lost: reconnecting";
  dot.classList.toggle("live", live);
  dot.title = words;
  dot.setAttribute("aria-label", words);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = me ? `?token=${encodeURIComponent(me.token)}` : "";
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`);
  ws.onopen = () => {
    retry = 500;
    connState(true);
    $("banner").hidden = true;
  };
  ws.onmessage = (ev) => accept(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    connState(false);
    if (ev.code === 4403) {
      saveSeat(tableId, null);
      me = null;
    }
    if (ev.code === 4404) return notFound();
    if (ev.code === 4410) {
      $("banner").hidden = false;
      $("banner").textContent = ev.reason || "This table is closed.";
      return;
    }
    $("banner").hidden = false;
    $("banner").textContent = "Connection lost: reconnecting… The table will catch up by itself.";
    render();
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
  // every push redraws the page: rebuild the box only when the open seats change, and keep
  // what the player has typed (a presence or chat push must not wipe a name half written)
  const seatsKey = open.map((x) => x.seat).join(",");
  if (box.dataset.seats === seatsKey && $("join-name")) return;
  const typed = $("join-name");
  const name = typed ? typed.value : playerName();
  const focused = typed && document.activeElement === typed;
  box.dataset.seats = seatsKey;
  box.innerHTML = `<label>Your name <input id="join-name" maxlength="40" value="${escapeHtml(name)}"></label> ${open
    // one open seat is "the open seat"; several are named as the board names them
    .map((x) => `<button class="primary" data-join="${x.seat}" type="button">Take ${
      open.length === 1 ? "the open seat" : escapeHtml(seatName(x.seat))}</button>`)
    .join(" ")} <span class="muted">or just watch</span>`;
  box.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", () => join(Number(b.dataset.join))));
  if (focused) $("join-name").focus();
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
// A finished game, step by step: every hand face up, each step named with who played it,
// a jump to any hand's start, and the keyboard's arrows (left/right: a step; up/down or
// page up/down: a hand; home/end).

let replayFacts = null; // {steps, plays: [{seat, action, hand}], hand_starts}
let showing = 0; // the latest step asked for: older answers arriving late are dropped

async function showStep(step) {
  const steps = state.version;
  step = Math.max(0, Math.min(steps, step));
  showing = step;
  if (!replayFacts) replayFacts = await api(`/api/tables/${tableId}/replay/steps`);
  const [s, faceUp] = await Promise.all([
    api(`/api/tables/${tableId}/replay?step=${step}`),
    api(`/api/tables/${tableId}/replay/hands?step=${step}`),
  ]);
  if (step !== showing) return;
  replay = { step, steps, state: s, hands: faceUp.hands };
  $("rp-step").max = String(steps);
  $("rp-step").value = String(step);
  $("rp-label").textContent = `${step}/${steps}`;
  const starts = replayFacts.hand_starts;
  $("rp-hand").innerHTML = starts.map((at, i) => `<option value="${at}"${handIndex(step) === i ? " selected" : ""}>hand ${i + 1}</option>`).join("");
  render();
}

// Which hand (0-based) a step belongs to.
function handIndex(step) {
  const starts = replayFacts ? replayFacts.hand_starts : [0];
  let i = 0;
  while (i + 1 < starts.length && starts[i + 1] <= step) i += 1;
  return i;
}

function jumpHand(delta) {
  const starts = replayFacts.hand_starts;
  const i = handIndex(replay.step);
  const at = starts[i];
  // "back" from inside a hand goes to its own start first
  const target = delta < 0 && replay.step > at ? at : starts[Math.max(0, Math.min(starts.length - 1, i + delta))];
  showStep(target);
}

// The replay's status line: the step, who played it and what, in words.
function replayWords() {
  const play = replayFacts && replay.step ? replayFacts.plays[replay.step - 1] : null;
  const what = play ? ` — ${escapeHtml(seatName(play.seat).replace(/ \(you\)$/, ""))}: ${escapeHtml(game.describe(play.action, replay.state.view))}` : " — the deal";
  return `Replay, hand ${handIndex(replay.step) + 1}: step ${replay.step} of ${replay.steps}${what}`;
}

// Every hand face up: each seat's box on the board shows its tiles.
function showHandsFaceUp() {
  if (!replay || !replay.hands) return;
  replay.hands.forEach((hand, s) => {
    const box = document.querySelector(`#board [data-seatbox="${s}"]`);
    if (!box || !hand) return;
    const row = `<div class="faceup" data-faceup="${s}">${hand.map((t) => tileSVG(t, { cls: "mini" })).join("")}</div>`;
    const hidden = box.querySelector(".hidden-hand");
    if (hidden) hidden.outerHTML = row;
    else if (s !== replay.state.seat) box.insertAdjacentHTML("beforeend", row);
  });
}

function bindReplay() {
  $("rp-start").onclick = () => showStep(0);
  $("rp-prev").onclick = () => showStep(replay.step - 1);
  $("rp-next").onclick = () => showStep(replay.step + 1);
  $("rp-end").onclick = () => showStep(replay.steps);
  $("rp-prev-hand").onclick = () => jumpHand(-1);
  $("rp-next-hand").onclick = () => jumpHand(1);
  $("rp-hand").onchange = () => showStep(Number($("rp-hand").value));
  $("rp-step").oninput = () => showStep(Number($("rp-step").value));
  $("rp-close").onclick = () => {
    replay = null;
    render();
  };
  document.addEventListener("keydown", (ev) => {
    if (!replay || ev.target.closest("input, select, textarea")) return;
    const keys = {
      ArrowLeft: () => showStep(replay.step - 1), ArrowRight: () => showStep(replay.step + 1),
      ArrowUp: () => jumpHand(-1), ArrowDown: () => jumpHand(1), PageUp: () => jumpHand(-1), PageDown: () => jumpHand(1),
      Home: () => showStep(0), End: () => showStep(replay.steps),
    };
    if (keys[ev.key]) {
      ev.preventDefault();
      keys[ev.key]();
    }
  });
}

async function main() {
  $("share").onclick = () => {
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    $("share").textContent = "copied";
  };
  bindReplay();
  let resizing = null;
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    // drawings such as the two-box cross are laid out for the board's width; a phone's
    // toolbar showing or hiding changes only the height, which needs no new drawing
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    clearTimeout(resizing);
    resizing = setTimeout(render, 100);
  });
  try {
    (await api("/api/games")).forEach((g) => (infos[g.id] = g));
    let first;
    try {
      first = await api(`/api/tables/${tableId}`);
    } catch (e) {
      if (e.status === 404) return notFound();
      if (e.status !== 403) throw e;
      saveSeat(tableId, null); // a token from another database: watch instead
      me = null;
      first = await api(`/api/tables/${tableId}`);
    }
    game = await gameModule(first.game);
    accept(first);
    since = first.view;
    render();
    connect();
    // a tab that comes back (sleep, a lost network) fetches the table rather than trusting its socket
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && resync());
    window.addEventListener("online", resync);
  } catch (e) {
    flash(e.message);
  }
}

// An unknown table: a page that says so, with the way back to the lobby.
function notFound() {
  document.title = "No such table — boneyard";
  $("title").textContent = "No such table";
  document.querySelector("main.layout").innerHTML = `<section class="panel notfound"><h2>There is no table “${escapeHtml(tableId)}”</h2>
    <p>The link may be mistyped, or the table was never created on this server.</p>
    <p><a class="button primary" href="/">Go to the lobby</a></p></section>`;
  ["status", "join", "replay", "over", "handend", "banner"].forEach((id) => ($(id).hidden = true));
  $("status").textContent = "";
  if (ws) {
    ws.onclose = null;
    ws.close();
  }
}

main();
