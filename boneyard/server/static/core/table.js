// The table page's shell: joins a seat, keeps a WebSocket to the server, draws the state it
// pushes through the game's module (core/registry.js), sends actions, and replays finished
// games. Everything drawn comes from the pushed state, which the server builds from this
// seat's view: the board from the view and its events, the words (the log, "Since your turn",
// the hand-end sentence) from the state's `log`, the server's sentence for each event, shown
// as it is and never read back. Nothing here knows any game by its id.
import { api as request, loadSeat, saveSeat, playerName, savePlayerName } from "./api.js";
import { tileSVG, escapeHtml, nameList, signed, handEnd, endingEvents } from "./board.js";
import { gameModule } from "./registry.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);

let me = loadSeat(tableId); // {token, seat} or null
let state = null; // the latest state pushed or fetched
let game = null; // the game's front-end module
let replay = null; // {step, steps, state} while replaying
let selected = null; // a hand tile picked when several actions use it
let ending = null; // while the hand-end panel shows: {hand, end, sentence, view} (the ended hand's event, its words, its board)
let autoNext = null; // the timer dealing the next hand on a one-human table
let since = null; // the view as it stood when this seat last acted: what changed after it is new
let sinceAt = null; // how many events this seat had seen then (events_from + events.length)
let ws = null;
let retry = 500;
let sending = false;

function api(path, options = {}) {
  return request(path, options, me ? me.token : null);
}

// A seat's player name as the server's words name it (`names`: two seats with the same name,
// three "random bot"s, get their seat number), without "(you)".
function plainName(s) {
  if (s === null || s === undefined) return "—";
  const names = state && state.names ? state.names : [];
  return names[s] !== undefined ? names[s] : `open seat ${s}`;
}

// What plays this page's seat while its player is away (friends/table.js sets body[data-away]
// to the stand-in bot's kind, or "resigned"): "" while the player plays it.
function away() {
  return state && state.seat !== null && !state.is_over ? document.body.dataset.away || "" : "";
}

// A seat's name on the board and in the panels: this page's own seat is marked "(you)", or,
// while a bot plays it, "(a bot plays for you)": the moves there are not the player's.
function seatName(s) {
  if (s === null || s === undefined) return "—";
  if (!state || s !== state.seat) return plainName(s);
  return away() ? `${plainName(s)} (a bot plays for you)` : `${plainName(s)} (you)`;
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
  const base = !replay && !ending && since && since.hand_number === shown.view.hand_number ? since : null;
  return { seatName, state: shown, selected, replaying: !!replay, boardWidth: $("board").clientWidth - 24, shell, since: base };
}

// The server's sentences for the events this seat's view gained after `count` events seen
// (events_from says how many of its earlier events the view no longer holds), less the
// private deal (this seat's own tiles, which the hand shows).
function sentencesSince(s, count) {
  const v = s.view;
  const from = Math.max(0, count - (v.events_from || 0));
  const out = [];
  for (let i = from; i < v.events.length; i++) if (v.events[i].kind !== "dealt") out.push(s.log[i]);
  return out;
}

// What happened since this seat last acted, in the server's words: "Since your turn: Bob plays 6-4. ...".
// A few lines show, the newest; "Show all" opens the whole of it (a phone cuts it short).
let sinceOpen = false;
function renderSince(s) {
  const box = $("since");
  const told = !replay && !ending && sinceAt !== null && s.seat !== null && s.log ? sentencesSince(s, sinceAt) : [];
  box.hidden = !told.length;
  if (!told.length) return;
  const shown = sinceOpen ? told : told.slice(-8);
  box.classList.toggle("open", sinceOpen);
  box.innerHTML = `<span class="told"><b>Since your turn:</b> ${told.length > shown.length ? "… " : ""}${shown.map(escapeHtml).join(" ")}</span>` +
    `<button id="since-more" class="small" type="button" aria-expanded="${sinceOpen}">${sinceOpen ? "Show less" : "Show all"}</button>`;
  const text = box.querySelector(".told");
  text.scrollTop = text.scrollHeight; // the newest news in view
  const more = $("since-more");
  more.hidden = !sinceOpen && told.length <= shown.length && text.scrollHeight <= text.clientHeight + 2;
  more.onclick = () => {
    sinceOpen = !sinceOpen;
    renderSince(state);
    $("since-more").focus();
  };
}

// Remember what this seat has seen when it acts: later events are "since your turn".
function markSeen(s) {
  sinceOpen = false;
  since = s.view;
  sinceAt = (s.view.events_from || 0) + (s.view.events || []).length;
}

// ----- drawing -------------------------------------------------------------------

function render() {
  const shown = replay ? replay.state : state;
  if (!shown || !game) return;
  const ctx = context(shown);
  const view = ending && !replay ? ending.view : replay && replay.ended ? replay.ended.view : shown.view;
  ctx.ending = ending && !replay ? ending : null;
  document.body.dataset.game = shown.game;
  document.body.dataset.version = String(shown.version);
  document.body.dataset.ending = ctx.ending ? String(ctx.ending.hand) : "";
  $("title").textContent = gameName(shown.game) + (shown.fixed_deal ? " (practice: fixed deal)" : "");
  $("table-id").textContent = `table ${tableId}`;
  document.title = `${gameName(shown.game)} — boneyard`;
  $("rules-link").href = `/rules/${encodeURIComponent(shown.game)}`;
  $("board").innerHTML = game.board(view, ctx);
  renderPlayers(shown);
  renderResult(shown, ctx);
  renderHandEnd(shown, ctx);
  renderOver(shown, ctx);
  renderLog(shown);
  renderHand(shown, ctx);
  $("tools").innerHTML = game.tools && !ctx.ending ? game.tools(ctx) : "";
  renderActions(shown, ctx);
  // at a hand's end the hand and its buttons are empty: no blank panel under the board
  // an empty panel (the hand over, or a Rounce hand folded) is not drawn as a blank box
  $("me").hidden = !$("hand").innerHTML.trim() && !$("tools").innerHTML.trim() &&
    !$("actions").innerHTML.trim() && !$("error").textContent;
  renderStatus(shown);
  renderSince(shown);
  renderJoin();
  bindBoard(ctx);
  $("replay").hidden = !replay;
  showHandsFaceUp();
  revealLastPlay();
  autoPlay(shown);
  pressNext(shown);
  keepFocus(shown);
  document.dispatchEvent(new CustomEvent("boneyard:render")); // the coach (core/coach.js) marks the board anew
}

// The keyboard stays in play: once this page has played a move, a focus that fell to the
// page body (the tile or button pressed was drawn anew) goes to what comes next: "Next hand"
// when a hand is over, the choices for a picked tile, else the first tile that can be played
// (or the first action) when it is this seat's turn.
let played = false; // this page has played a move: before that, the focus is the player's own
function keepFocus(s) {
  const now = document.activeElement;
  if (!played || replay || (now && now !== document.body)) return;
  const next = ending ? $("next-hand") : null;
  const mine = !away() && s.seat !== null && s.current_player === s.seat && !s.is_over;
  const target = next || (!mine ? null : selected ? document.querySelector("#actions [data-action]")
    : document.querySelector("#hand .handtile.playable") || document.querySelector("#actions [data-action]"));
  if (target) target.focus({ preventScroll: true });
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
  const panel = sheet.getBoundingClientRect();
  if (box.right <= panel.left || box.left >= panel.right) return; // beside the panel (a laptop): in view already
  const top = panel.top;
  if (box.bottom > top - 8) window.scrollBy(0, box.bottom - top + 16);
}

// A forced step the game's module names (a draw when drawing is all the rules allow) is
// played by the page itself, a moment after the state that forces it is drawn.
let autoVersion = -1;
function autoPlay(s) {
  if (replay || ending || away() || s.between_hands || !game.autoAction || s.seat === null || s.current_player !== s.seat || s.is_over) return;
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
  let turn = "Your turn";
  const b = s.between_hands;
  if (away() === "resigned" && !replay) text = "You resigned: a bot plays your seat to the end.";
  else if (away() && !replay) text = `A ${away()} bot plays your seat while you are away.`;
  else if (ending && !replay && !s.is_over) text = `Hand ${ending.hand} is over.`;
  else if (b && !replay) text = `Hand ${b.hand} is over: the next hand starts when ${b.waiting.map(seatName).join(" and ") || "everyone"} ${b.waiting.length === 1 ? "presses" : "press"} Next hand (or in ${Math.max(1, Math.round(b.until - Date.now() / 1000))} s).`;
  else if (replay) text = replayWords();
  else if (s.is_over) text = `Game over. Winner${s.winners.length > 1 ? "s" : ""}: ${s.winners.map(seatName).join(", ") || "nobody"}.`;
  else if (s.current_player === s.seat && s.seat !== null) text = `${turn}: ${game.ask(v.phase, v)}.`;
  else text = `Waiting for ${seatName(s.current_player)} to ${game.ask(v.phase, v)}.`;
  const waiting = s.seats.filter((x) => !x.joined).length;
  if (!s.is_over && waiting) text += ` ${waiting === 1 ? "One seat is" : `${waiting} seats are`} still open — share the link.`;
  if (!$("banner").hidden && text.startsWith(`${turn}: `)) {
    turn = "Your turn (once reconnected)";
    text = `${turn}: ${game.ask(v.phase, v)}.`;
  }
  if (!$("banner").hidden) text = "Reconnecting… " + text;
  if (replay) $("status").innerHTML = text;
  else $("status").textContent = text;
  $("status").classList.toggle("yours", !replay && !s.is_over && !away() && !ending && !s.between_hands &&
    s.current_player === s.seat && s.seat !== null);
}

function renderPlayers(s) {
  const rows = s.seats
    .map((x) => {
      // between hands (the panel up, or the table waiting for Next) nobody is to play
      const turn = s.current_player === x.seat && !ending && !s.between_hands && !s.is_over ? " class='turn'" : "";
      // a server bot, or a bot account (a program its owner connects): both are marked "bot"
      const tag = x.kind === "bot" || x.account === "bot" ? `<span class="badge">bot</span>` : x.joined ? "" : x.reserved_for
        ? `<span class="badge">kept for ${escapeHtml(x.reserved_for)}</span>` : `<span class="badge open">open</span>`;
      const won = s.is_over && s.winners.includes(x.seat) ? " <span class='star' title='winner'>★</span>" : "";
      return `<tr${turn}><td>${x.seat}</td><td>${escapeHtml(seatName(x.seat))} ${tag}${won}</td><td class="num">${escapeHtml(
        String(s.scores[x.seat])
      )}</td></tr>`;
    })
    .join("");
  $("players").innerHTML = `<table class="list scores"><thead><tr><th>#</th><th>player</th><th>score</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// The last hand's result beside the table: the server's sentence for its hand_end, then the details.
function renderResult(shown, ctx) {
  const found = handEnd(shown.view);
  $("result").hidden = !found;
  if (!found) return;
  const end = found.event;
  const sentence = (shown.log || [])[found.index] || "";
  $("result").innerHTML = `<h3>Hand result — hand ${end.hand}</h3>${sentence ? `<p>${escapeHtml(sentence)}</p>` : ""}${
    game.result(shown.view, end, ctx)}`;
}

// ----- the end of a hand and of the game -------------------------------------------

const seenKey = `boneyard.seen.${tableId}`;
function seenHand() {
  return Number(localStorage.getItem(seenKey) || 0);
}

// The hand-end panel of the view's newest hand_end: the event, the server's sentence for it,
// and the board as the hand ended (drawn from the event's final position).
function endingOf(s, found) {
  const view = game.endView ? game.endView(found.event, s.view, endingEvents(s.view, found.index)) : s.view;
  return { hand: found.event.hand, end: found.event, sentence: (s.log || [])[found.index] || "", view };
}

// Notice a hand that has just ended: its hand_end event is in the view (views keep it
// through the next hand), and the panel shows it until the player presses Next. A page that
// did not see the hand end (a reload, a late join) shows it while the table still waits for
// this player's "Next hand", or once the game is over.
function noticeHandEnd(before, s) {
  const found = handEnd(s.view);
  if (!found) return;
  const hand = found.event.hand;
  if (hand <= seenHand() || (ending && ending.hand === hand)) return;
  const prior = before ? handEnd(before.view) : null;
  const witnessed = before && before.view.hand_number === hand && !(prior && prior.event.hand === hand);
  const b = s.between_hands;
  const waiting = b && b.hand === hand && (s.seat === null || b.waiting.includes(s.seat));
  if (witnessed || waiting || s.is_over) ending = endingOf(s, found);
  else localStorage.setItem(seenKey, String(hand)); // it ended before this page saw it
}

// "Next hand": the server deals on once every human has pressed it; this page shows the new hand at once.
function nextHand() {
  const hand = ending ? ending.hand : null;
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
    .catch((e) => flash(refusal(e)));
}

// Seconds before the next hand is dealt by itself at a table with one human (0: never).
function autoNextDelay() {
  const v = localStorage.getItem("boneyard.autoNext");
  return v === null ? 12 : Number(v) || 0;
}

// The hand's figures from its hand_end event: each seat's points this hand and its total after it.
function totalsHTML(s, end) {
  const rows = s.seats.map((x) => `<tr data-seat="${x.seat}"><th>${escapeHtml(seatName(x.seat))}</th><td class="num">${
    escapeHtml(signed(end.points[x.seat]))}</td><td class="num">${escapeHtml(String(end.totals[x.seat]))}</td></tr>`).join("");
  return `<table class="list totals"><thead><tr><th></th><th>this hand</th><th>total</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// The hand-end panel: the server's sentence for the hand_end as its heading, the details the
// board does not show, and the totals.
function handEndBody(s, ctx) {
  const e = ending;
  const head = e.sentence ? `<h2 class="headline">${escapeHtml(e.sentence)}</h2>` : `<h2>Hand ${e.hand} is over</h2>`;
  return `${head}<div class="why">${game.result(s.view, e.end, ctx)}</div>${totalsHTML(s, e.end)}`;
}

// The sheets (the hand-end and game-over panels) can be folded to one line, so that the
// board and the coach's review under them can be seen: which one is folded now.
let folded = ""; // "" | "hand N" | "over"

function foldButton(key, isFolded, what) {
  return isFolded
    ? `<button id="sheet-show" class="small" type="button" data-fold="" aria-expanded="false">Show ${what}</button>`
    : `<button id="sheet-hide" class="small sheet-hide" type="button" data-fold="${key}" aria-expanded="true" title="Hide this panel (Esc)">Hide</button>`;
}

function bindFold(box) {
  box.querySelectorAll("[data-fold]").forEach((b) => (b.onclick = () => {
    folded = b.dataset.fold;
    render();
    const again = box.querySelector("[data-fold]");
    if (again) again.focus(); // the keyboard stays on the panel's own button
  }));
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
  const key = `hand ${ctx.ending.hand}`;
  const isFolded = folded === key;
  box.classList.toggle("folded", isFolded);
  const body = isFolded ? `<p class="foldline"><b>Hand ${ctx.ending.hand} is over.</b></p>` : handEndBody(s, ctx);
  box.innerHTML = `${foldButton(key, isFolded, "the result")}${body}<p class="next"><button id="next-hand" class="primary" type="button">Next hand</button>${
    humans <= 1 && !isFolded ? ` <label class="muted">by itself <select id="auto-next">${choices.join("")}</select></label>` : ""}</p>`;
  bindFold(box);
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

// "Ann wins with 0; Bob 4; Cy 12.": players (or sides, the game's declared partners) ranked
// by their final totals (the last hand_end's, else the scores).
function rankingWords(s) {
  const groups = s.view.partners || s.seats.map((x) => [x.seat]);
  const last = handEnd(s.view);
  const totals = last ? last.event.totals : s.scores;
  const low = lowerIsBetter(s);
  const ranked = groups.map((g) => ({ seats: g, score: totals[g[0]], won: g.some((x) => s.winners.includes(x)) }))
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
  const isFolded = folded === "over";
  box.classList.toggle("folded", isFolded);
  const last = ctx.ending && !isFolded ? `<details class="lasthand"${window.innerWidth >= 760 ? " open" : ""}><summary>The last hand</summary>${handEndBody(s, ctx)}</details>` : "";
  // the buttons have a row of their own (#over-actions), where the coach adds "Review my game"
  box.innerHTML = `${foldButton("over", isFolded, "the result")}<h2>${mine ? "You won!" : "Game over"}</h2>${
    isFolded ? "" : `<p class="ranking">${rankingWords(s)}</p>`}${last}
    <p id="over-actions" class="over-actions"><button id="open-replay" class="primary" type="button">Replay this game</button> <a class="button" href="/">New game in the lobby</a></p>`;
  bindFold(box);
  $("open-replay").onclick = () => showStep(0);
}

// The log: the server's sentence for each event of the shown view (this hand, and the last
// one's end), newest at the bottom.
let logKey = "";
function renderLog(shown) {
  const log = shown.log || [];
  const key = `${shown.version}|${shown.step}|${shown.view.events_from || 0}+${log.length}|${(shown.names || []).join(",")}`;
  if (key === logKey) return;
  logKey = key;
  $("log").innerHTML = log.map((line) => `<li>${escapeHtml(line)}</li>`).join("");
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
  const legal = replay || away() ? [] : s.legal_actions;
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
  const legal = replay || ctx.ending || away() ? [] : s.legal_actions;
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
  if (away()) return flash('A bot plays your seat: press "Take my seat back" to play again.');
  if (game.clickHand && game.clickHand(tile, index, ctx)) return;
  const options = state.legal_actions.filter((a) => tileWords(a).includes(tile));
  if (options.length === 1) send(options[0]);
  else if (options.length > 1) {
    selected = selected === tile ? null : tile;
    played = true; // the keyboard goes on to the tile's choices
    render();
  } else flash(state.current_player === state.seat ? `No legal action uses ${tile} now.` : "It is not your turn.");
}

function flash(message) {
  $("error").textContent = message;
  if (message) $("me").hidden = false; // the panel holds the message even with no hand
}

// A refusal in a player's words. The server's messages already speak to the player; a
// refusal that came because the table had moved on (a stale view, or not this seat's turn
// any more) says whose turn it is now, from the state the page has just been given.
function refusal(e, acting = false) {
  const now = state && state.current_player !== null && state.current_player !== undefined
    ? (state.current_player === state.seat ? "it is your turn now." : `it is ${plainName(state.current_player)}'s turn.`)
    : "";
  if (e.status === 409 && e.state) return `The table had moved on: ${now || "this is where it is now."}`;
  if (acting && now && state.current_player !== state.seat) return now.charAt(0).toUpperCase() + now.slice(1);
  const message = String(e.message || "");
  return message.charAt(0).toUpperCase() + message.slice(1);
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
  if (!forced) played = true;
  flash("");
  try {
    // the version this action was chosen from: a repeat is not played twice, a stale view gets 409 and the state
    const body = JSON.stringify({ action, expected_version: state ? state.version : undefined });
    const s = await api(`/api/tables/${tableId}/actions`, { method: "POST", body });
    selected = null;
    if (game.reset) game.reset();
    accept(s);
    if (!forced) markSeen(s);
    render();
  } catch (e) {
    // a refusal may come from a stale view: draw the table as it is now, then say why
    if (e.status === 409 && e.state) accept(e.state);
    else if (e.timedOut || (e.status && e.status < 500)) await resync();
    flash(e.timedOut ? "The server did not answer in time: your move may not have been played. The table is shown as it is now."
      : refusal(e, true));
  } finally {
    sending = false;
  }
}

// Take a state pushed or answered by the server.
function accept(s) {
  if (state && s.version < state.version) return; // an older push arriving late
  if (state && s.version !== state.version) {
    selected = null;
    if (game.reset) game.reset();
  }
  const before = state;
  state = s;
  noticeHandEnd(before, s);
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
  // a rematch seat kept for its last player (reserved_for) is not offered to anyone else
  const open = state && !state.is_over ? state.seats.filter((x) => !x.joined && !x.reserved_for) : [];
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
  // a name typed answers "Enter a name to take a seat.": the red line goes
  $("join-name").addEventListener("input", () => $("join-name").value.trim() && flash(""));
  if (focused) $("join-name").focus();
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) return flash("Enter a name to take a seat.");
  savePlayerName(name);
  try {
    me = await api(`/api/tables/${tableId}/join`, { method: "POST", body: JSON.stringify({ seat, name }) });
    saveSeat(tableId, me);
    flash(""); // seated: no earlier refusal stays under the hand
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
// page up/down: a hand; home/end). A step whose action ended a hand is shown twice, as
// the table showed it: first the hand as it ended (its hand_end event's final position,
// the last play on the board), then the next hand's deal.

let replayFacts = null; // {steps, plays: [{seat, action, hand}], hand_starts}
let asked = 0; // the latest request: older answers arriving late are dropped

// Show the game after `step` actions; `end`: when that step ended a hand, its end rather than the next deal.
async function showStep(step, end = false) {
  const steps = state.version;
  step = Math.max(0, Math.min(steps, step));
  const ask = ++asked;
  if (!replayFacts) replayFacts = await api(`/api/tables/${tableId}/replay/steps`);
  const [s, faceUp] = await Promise.all([
    api(`/api/tables/${tableId}/replay?step=${step}`),
    api(`/api/tables/${tableId}/replay/hands?step=${step}`),
  ]);
  if (ask !== asked) return;
  const found = s.ends_hand !== null && s.ends_hand !== undefined ? handEnd(s.view) : null;
  const ended = (end || s.is_over) && found && found.event.hand === s.ends_hand && game.endView
    ? { hand: s.ends_hand, view: game.endView(found.event, s.view, endingEvents(s.view, found.index)) } : null;
  replay = { step, steps, state: s, hands: faceUp.hands, ended };
  $("rp-step").max = String(steps);
  $("rp-step").value = String(step);
  $("rp-label").textContent = `${step}/${steps}`;
  const starts = replayFacts.hand_starts;
  $("rp-hand").innerHTML = starts.map((at, i) => `<option value="${at}"${shownHand() === i ? " selected" : ""}>hand ${i + 1}</option>`).join("");
  render();
}

// Which hand (0-based) a step belongs to.
function handIndex(step) {
  const starts = replayFacts ? replayFacts.hand_starts : [0];
  let i = 0;
  while (i + 1 < starts.length && starts[i + 1] <= step) i += 1;
  return i;
}

// The hand (0-based) the replay shows: a hand's end belongs to the hand that ended.
function shownHand() {
  return replay.ended && replay.step > 0 ? handIndex(replay.step - 1) : handIndex(replay.step);
}

function jumpHand(delta) {
  const starts = replayFacts.hand_starts;
  const i = shownHand();
  const at = starts[i];
  // "back" from inside a hand goes to its own start first
  const target = delta < 0 && replay.step > at ? at : starts[Math.max(0, Math.min(starts.length - 1, i + delta))];
  showStep(target);
}

// One step on: a step that ended a hand shows its end, then the next deal.
function stepOn() {
  if (replay.ended && replay.step < replay.steps) showStep(replay.step, false);
  else showStep(replay.step + 1, true);
}

// One step back: from a deal to the end of the hand before it, else to the step before.
function stepBack() {
  const s = replay.state;
  if (!replay.ended && s.ends_hand !== null && s.ends_hand !== undefined) showStep(replay.step, true);
  else showStep(replay.step - 1, false);
}

// The replay's status line: the step, who played it and what, in words.
function replayWords() {
  const hand = shownHand() + 1;
  // the first step of a hand after the first shows its deal (its action, the last one of the hand before, was shown with that hand's end)
  const deal = !replay.ended && replay.step > 0 && replayFacts.hand_starts[hand - 1] === replay.step;
  const play = replayFacts && replay.step && !deal ? replayFacts.plays[replay.step - 1] : null;
  const what = play ? ` — ${escapeHtml(plainName(play.seat))}: ${escapeHtml(game.describe(play.action, replay.state.view))}` : " — the deal";
  return `Replay, hand ${hand}: step ${replay.step} of ${replay.steps}${what}${replay.ended ? "; the hand is over" : ""}`;
}

// Every hand face up: each seat's box on the board shows its tiles.
function showHandsFaceUp() {
  if (!replay || !replay.hands || replay.ended) return; // a hand's end shows its own position
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
  $("rp-prev").onclick = stepBack;
  $("rp-next").onclick = stepOn;
  $("rp-end").onclick = () => showStep(replay.steps, true);
  $("rp-prev-hand").onclick = () => jumpHand(-1);
  $("rp-next-hand").onclick = () => jumpHand(1);
  $("rp-hand").onchange = () => showStep(Number($("rp-hand").value));
  $("rp-step").oninput = () => showStep(Number($("rp-step").value), true);
  $("rp-close").onclick = () => {
    replay = null;
    render();
  };
  document.addEventListener("keydown", (ev) => {
    if (!replay || ev.target.closest("input, select, textarea")) return;
    const keys = {
      ArrowLeft: stepBack, ArrowRight: stepOn,
      ArrowUp: () => jumpHand(-1), ArrowDown: () => jumpHand(1), PageUp: () => jumpHand(-1), PageDown: () => jumpHand(1),
      Home: () => showStep(0), End: () => showStep(replay.steps, true),
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
  document.addEventListener("boneyard:away", render); // a bot took this seat, or gave it back
  document.addEventListener("keydown", (ev) => {
    // Esc folds the open sheet (the hand-end or game-over panel) to one line
    if (ev.key !== "Escape" || replay || ev.target.closest("input, select, textarea")) return;
    const open = document.querySelector(".sheet:not([hidden]) #sheet-hide");
    if (open) open.click();
  });
  document.addEventListener("click", (ev) => {
    // the coach's review opens under the game-over panel: fold it out of the way
    if (ev.target.closest && ev.target.closest("#coach-review-btn")) {
      folded = "over";
      render();
    }
  });
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
    markSeen(first);
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
