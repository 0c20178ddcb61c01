// Learn to play (/learn/<game>): a game's lessons, one small scripted deal at a time, drawn
// with the same game modules as a table (core/registry.js), so that the lesson's board is the
// table's. Every step comes from the server (/api/lessons/...), which deals it through the
// engine and judges the learner's move: the move taught plays on, another legal move gets
// the step's friendly explanation (422), and a move against the rules the engine's (400).
// The page keeps no rules: which tiles can be played is the state's legal_actions, the words
// of what happened its log. The lesson and step are in the address (#lesson/step), so a
// reload or the Back button keeps the learner's place.
import { api } from "../core/api.js";
import { tileSVG, escapeHtml, handEnd, endingEvents } from "../core/board.js";
import { gameModule } from "../core/registry.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);

let catalogue = null; // {game, name, lessons: [{id, title, intro, steps}]}
let game = null; // the game's front-end module
let state = null; // the step as the server last answered it
let selected = null; // a hand tile picked when several moves use it
let feedback = null; // {kind: "wrong" | "illegal" | "show", text}
let sending = false;
let showing = false; // "Show me" pressed: the move's tiles are outlined
let answers = 0; // the server's answers to moves so far (body[data-answers]: tests wait on it)

const seatName = (s) => (state && state.names[s] !== undefined ? state.names[s] : `Player ${s + 1}`);

const shell = {
  tableId: "lesson",
  render: () => render(),
  send: (action) => send(action),
  flash: (message) => flash(message),
  // the only request a game module makes itself is a play builder's hint: in a lesson the
  // hint is the step's own move, and a quiz has none
  api: async () => {
    const show = state && state.lesson.show;
    throw new Error(show && show.length ? `Hint: ${game.describe(show[0], state.view)}.` : "No hint in a quiz: find the move yourself.");
  },
};

function flash(message) {
  $("error").textContent = message || "";
  if (message) $("me").hidden = false;
}

function tileWords(action) {
  return action.split(" ").filter((w) => /^\d+-\d+$/.test(w));
}

function where() {
  const [lesson, step] = decodeURIComponent(location.hash.slice(1)).split("/");
  const found = catalogue && catalogue.lessons.find((x) => x.id === lesson);
  const n = Number(step) || 1;
  return found ? { lesson: found, step: Math.max(1, Math.min(found.steps, n)) } : null;
}

// ----- the list of lessons -------------------------------------------------------------

function renderPicker(others) {
  $("picker").hidden = false;
  $("lesson").hidden = true;
  $("table").hidden = true;
  $("title").textContent = `Learn to play ${catalogue.name}`;
  document.title = `Learn ${catalogue.name} — boneyard`;
  const list = catalogue.lessons.map((x, i) => `<li><a class="button${i === 0 ? " primary" : ""}" href="#${encodeURIComponent(x.id)}/1"
    data-lesson="${escapeHtml(x.id)}">${escapeHtml(x.title)}</a> <span class="muted">${x.steps} steps</span><p>${escapeHtml(x.intro)}</p></li>`).join("");
  const more = others.filter((g) => g.game !== gameId).map((g) => `<a href="/learn/${encodeURIComponent(g.game)}">${escapeHtml(g.name)}</a>`);
  $("picker").innerHTML = `<h2>Learn ${escapeHtml(catalogue.name)} at the table</h2>
    <p>Each lesson is a few small deals played with the real rules. Each step says what to do and why; you
    play the move on the board, as at a real table. The last step of a lesson is a quiz.</p>
    <p class="muted">New to dominoes? Each tile has two ends, each showing 0 (blank) to 6 spots; 6-4 is the
    tile with six spots on one end and four on the other. A double, like 5-5, shows the same number twice,
    and a tile's pips are all its spots (6-4 has 10).</p>
    ${list ? `<ol class="lessons">${list}</ol>` : "<p>This game has no lessons yet: read its rules page.</p>"}
    <p class="muted">The whole rules: <a href="/rules/${encodeURIComponent(gameId)}">${escapeHtml(catalogue.name)} rules</a>${
      more.length ? ` · Learn another game: ${more.join(" · ")}` : ""} · <a href="/">the lobby</a></p>`;
}

// ----- a step --------------------------------------------------------------------------

async function loadStep(lesson, n) {
  try {
    state = await api(`/api/lessons/${encodeURIComponent(gameId)}/${encodeURIComponent(lesson.id)}/${n}`);
  } catch (e) {
    $("picker").hidden = false;
    $("picker").innerHTML = `<p class="error">${escapeHtml(e.message)}</p><p><a href="#">All lessons</a></p>`;
    return;
  }
  selected = null;
  feedback = null;
  showing = false;
  if (game.reset) game.reset();
  render();
  focusNext();
}

function context() {
  return { seatName, state, selected, replaying: false, boardWidth: $("board").clientWidth - 24, shell, since: null, ending: null };
}

// The board: the position, or, when the step's move ended a hand, the hand as it ended.
function boardView(ctx) {
  const v = state.view;
  const lesson = state.lesson;
  if (!lesson.complete || !game.endView) return { view: v, end: null };
  const found = handEnd(v);
  if (!found || found.index < v.events.length - lesson.new_events) return { view: v, end: null };
  ctx.ending = { hand: found.event.hand, end: found.event };
  return { view: game.endView(found.event, v, endingEvents(v, found.index)), end: found.event };
}

function render() {
  if (!state) return;
  const lesson = state.lesson;
  const ctx = context();
  $("picker").hidden = true;
  $("lesson").hidden = false;
  $("table").hidden = false;
  document.body.dataset.game = state.game;
  document.body.dataset.step = `${lesson.id}/${lesson.step}`;
  document.body.dataset.complete = lesson.complete ? "1" : "";
  $("title").textContent = `Learn ${catalogue.name}`;
  document.title = `${lesson.title} — learn ${catalogue.name} — boneyard`;
  $("lesson-title").textContent = lesson.title;
  $("lesson-progress").textContent = lesson.quiz ? `· quiz (step ${lesson.step} of ${lesson.steps})` : `· step ${lesson.step} of ${lesson.steps}`;
  // the lesson's introduction opens its first step
  $("lesson-intro").hidden = lesson.step !== 1 || lesson.complete;
  $("lesson-intro").textContent = lesson.intro;
  $("lesson-text").textContent = lesson.text;
  $("lesson-text").hidden = lesson.complete; // done: the words of what it did take its place
  $("lesson").classList.toggle("quiz", lesson.quiz);
  renderSoFar(lesson);
  const { view, end } = boardView(ctx);
  $("board").innerHTML = game.board(view, ctx);
  renderFeedback(lesson);
  $("lesson-result").hidden = !end;
  $("lesson-result").innerHTML = end && game.result ? game.result(state.view, end, ctx) : "";
  renderButtons(lesson);
  renderPlayers();
  $("log").innerHTML = state.log.map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  $("log").scrollTop = $("log").scrollHeight;
  renderHand(ctx);
  $("tools").innerHTML = game.tools && !lesson.complete ? game.tools(ctx) : "";
  $("tools").classList.remove("showme");
  renderActions(ctx);
  $("me").hidden = !$("hand").innerHTML.trim() && !$("tools").innerHTML.trim() && !$("actions").innerHTML.trim() && !$("error").textContent;
  document.querySelectorAll("#board [data-board-action]").forEach((el) => el.addEventListener("click", () => send(el.dataset.boardAction)));
  if (game.bind && !lesson.complete) game.bind(ctx);
  markShown();
}

// What the moves before this turn did ("So far"), or what the learner's move led to ("Then"),
// in the server's words: the log's last sentences.
function renderSoFar(lesson) {
  const events = state.view.events;
  const first = events.length - lesson.new_events;
  const told = [];
  for (let i = Math.max(0, first); i < events.length; i++) {
    if (events[i].kind === "dealt") continue;
    told.push(state.log[i]);
    if (events[i].kind === "hand_end") break; // what the next deal brings is not this lesson's
  }
  $("lesson-sofar").hidden = !told.length;
  $("lesson-sofar").innerHTML = told.length ? `<b>${lesson.complete ? "What happened:" : "So far:"}</b> ${told.map(escapeHtml).join(" ")}` : "";
}

function renderFeedback(lesson) {
  const box = $("lesson-feedback");
  let kind = feedback ? feedback.kind : "";
  let text = feedback ? feedback.text : "";
  if (lesson.complete) {
    kind = "ok";
    text = `${lesson.quiz ? "Well done! " : "Yes. "}${lesson.done}`;
  }
  box.hidden = !text;
  box.className = `feedback ${kind}`;
  box.textContent = text;
}

function nextLesson() {
  const i = catalogue.lessons.findIndex((x) => x.id === state.lesson.id);
  return catalogue.lessons[i + 1] || null;
}

function renderButtons(lesson) {
  const parts = [];
  if (lesson.complete && lesson.step < lesson.steps) {
    parts.push(`<a id="next-step" class="button primary" href="#${encodeURIComponent(lesson.id)}/${lesson.step + 1}">Next step</a>`);
  } else if (lesson.complete) {
    const next = nextLesson();
    parts.push(`<span class="done-line"><b>Lesson complete.</b></span>`);
    if (next) parts.push(`<a id="next-lesson" class="button primary" href="#${encodeURIComponent(next.id)}/1">Next lesson: ${escapeHtml(next.title)}</a>`);
    parts.push(`<a id="all-lessons" class="button${next ? "" : " primary"}" href="#">All lessons</a>`);
    if (!next) parts.push(`<a class="button" href="/">Play a real game in the lobby</a>`);
  } else {
    if (!lesson.quiz && lesson.show.length) parts.push(`<button id="show-me" type="button">Show me</button>`);
    parts.push(`<button id="restart" class="small" type="button">Start again</button>`);
    if (lesson.step > 1) parts.push(`<a class="button small" href="#${encodeURIComponent(lesson.id)}/${lesson.step - 1}">Back a step</a>`);
    parts.push(`<a class="button small" href="#">All lessons</a>`);
  }
  $("lesson-buttons").innerHTML = parts.join(" ");
  const show = $("show-me");
  if (show) show.onclick = () => {
    showing = true;
    feedback = { kind: "show", text: `The move: ${game.describe(lesson.show[0], state.view)}. It is outlined in orange.` };
    render();
    const marked = document.querySelector(".showme");
    if (marked) (marked.matches("button") ? marked : marked.querySelector("button, input") || marked).focus({ preventScroll: true });
  };
  const again = $("restart");
  if (again) again.onclick = () => loadStep({ id: lesson.id }, lesson.step);
}

// "Show me": the tiles and buttons of the move taught are outlined.
function markShown() {
  if (!showing || state.lesson.complete) return;
  let marked = 0;
  for (const action of state.lesson.show) {
    const found = [...document.querySelectorAll(`[data-action="${CSS.escape(action)}"], [data-board-action="${CSS.escape(action)}"]`)];
    tileWords(action).forEach((t) => found.push(...document.querySelectorAll(`#hand [data-hand="${t}"]`)));
    found.forEach((el) => el.classList.add("showme"));
    marked += found.length;
  }
  // a move made with the game module's own controls (a stepper): those controls are outlined
  if (!marked && $("tools").innerHTML.trim()) $("tools").classList.add("showme");
}

function renderPlayers() {
  const rows = state.seats.map((x) => {
    const turn = !state.lesson.complete && state.current_player === x.seat ? " class='turn'" : "";
    return `<tr${turn}><td>${escapeHtml(seatName(x.seat))}${x.kind === "bot" ? " <span class='badge'>bot</span>" : ""}</td><td class="num">${
      escapeHtml(String(state.scores[x.seat]))}</td></tr>`;
  }).join("");
  $("players").innerHTML = `<table class="list"><thead><tr><th>player</th><th>score</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderHand(ctx) {
  const hand = state.view.hand;
  if (!hand || state.lesson.complete) { // once the move is made, the board shows what it did
    $("hand").innerHTML = "";
    return;
  }
  const legal = state.lesson.complete ? [] : state.legal_actions;
  const usable = new Set(legal.flatMap(tileWords));
  const own = game.hand ? game.hand(ctx) : null;
  const tiles = own ? own.tiles : hand;
  $("hand").innerHTML = tiles.map((t, i) => {
    const mark = game.handMark ? game.handMark(t, state.view, i, tiles) : null;
    const cls = [usable.has(t) ? "playable" : "", selected === t || (own && own.selected.has(i)) ? "selected" : "", mark ? mark.cls : "",
      own && own.draggable ? "drag" : ""].join(" ");
    return `<button class="handtile ${cls}" data-hand="${escapeHtml(t)}" data-index="${i}" type="button" aria-label="tile ${t}${
      mark ? `, ${escapeHtml(mark.label)}` : ""}">${tileSVG(t)}${mark ? `<span class="mark">${escapeHtml(mark.label)}</span>` : ""}</button>`;
  }).join("");
  $("hand").querySelectorAll("[data-hand]").forEach((b) => b.addEventListener("click", () => clickHand(b.dataset.hand, Number(b.dataset.index), ctx)));
}

function renderActions(ctx) {
  const legal = state.lesson.complete ? [] : state.legal_actions;
  const inHand = new Set(state.view.hand || []);
  let list = game.actionList(legal, ctx).filter((a) => !tileWords(a).some((t) => inHand.has(t)) || !!game.tileButtons);
  if (selected) list = legal.filter((a) => tileWords(a).includes(selected));
  // two notations of one move (a table of groups written in another order) get one button
  const said = new Set();
  list = list.filter((a) => {
    const words = game.describe(a, state.view);
    if (said.has(words)) return false;
    said.add(words);
    return true;
  });
  const tapHint = !selected && legal.some((a) => tileWords(a).some((t) => inHand.has(t))) && !game.tileButtons;
  $("actions").innerHTML = (tapHint ? `<span class="taphint">Tap a tile with a green edge to play it${list.length ? ", or:" : "."}</span>` : "") +
    list.map((a) => `<button class="action" data-action="${escapeHtml(a)}" title="${escapeHtml(a)}" type="button">${escapeHtml(game.describe(a, state.view))}</button>`).join("") +
    (selected ? `<button class="action cancel" data-cancel="1" type="button">cancel</button>` : "");
  $("actions").querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", () => send(b.dataset.action)));
  $("actions").querySelectorAll("[data-cancel]").forEach((b) => b.addEventListener("click", () => {
    selected = null;
    render();
  }));
}

function clickHand(tile, index, ctx) {
  if (!state || state.lesson.complete) return;
  if (game.clickHand && game.clickHand(tile, index, ctx)) return;
  const options = state.legal_actions.filter((a) => tileWords(a).includes(tile));
  if (options.length === 1) send(options[0]);
  else if (options.length > 1) {
    selected = selected === tile ? null : tile;
    render();
    const first = document.querySelector("#actions [data-action]");
    if (first) first.focus({ preventScroll: true });
  } else flash(`No move uses ${tile} now.`);
}

async function send(action) {
  if (sending || !state || state.lesson.complete) return;
  sending = true;
  flash("");
  const lesson = state.lesson;
  try {
    state = await api(`/api/lessons/${encodeURIComponent(gameId)}/${encodeURIComponent(lesson.id)}/${lesson.step}`,
      { method: "POST", body: JSON.stringify({ action }) });
    feedback = null;
  } catch (e) {
    // the position stays as it was: only the words change
    feedback = { kind: e.status === 422 ? "wrong" : "illegal", text: e.status === 422 ? `Not this time: ${e.message}` : `That move is not allowed: ${e.message}` };
  } finally {
    sending = false;
  }
  selected = null;
  if (game.reset) game.reset();
  document.body.dataset.answers = String(++answers);
  render();
  focusNext();
}

// The keyboard goes to what comes next: "Next step" once the move is made, else the first
// tile that can be played (or the first move's button).
function focusNext() {
  const target = $("next-step") || $("next-lesson") || $("all-lessons") ||
    document.querySelector("#hand .handtile.playable") || document.querySelector("#actions [data-action]") || document.querySelector("#tools button");
  if (target) target.focus({ preventScroll: true });
}

async function route() {
  const at = where();
  if (!at) {
    state = null;
    const all = await api("/api/lessons").catch(() => []);
    renderPicker(all);
    const first = document.querySelector("#picker [data-lesson]");
    if (first) first.focus({ preventScroll: true });
    return;
  }
  await loadStep(at.lesson, at.step);
  window.scrollTo(0, 0);
}

async function main() {
  $("rules-link").href = `/rules/${encodeURIComponent(gameId)}`;
  try {
    catalogue = await api(`/api/lessons/${encodeURIComponent(gameId)}`);
  } catch (e) {
    document.title = "No such game — boneyard";
    $("title").textContent = "No such game";
    $("picker").hidden = false;
    $("picker").innerHTML = `<h2>There is no game “${escapeHtml(gameId)}” here</h2><p><a class="button primary" href="/">Go to the lobby</a></p>`;
    return;
  }
  game = await gameModule(gameId);
  window.addEventListener("hashchange", route);
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    render();
  });
  await route();
}

main();
