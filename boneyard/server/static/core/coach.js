// The coach at the table: a Hint button in the top bar on your turn (every game; hidden at rated tables,
// whose deal is not fixed) showing the coach's best three actions with their values, the
// best one marked on the board; and, once the game is over, a Review of your decisions that
// marks inaccuracies, mistakes and blunders and opens the replay at each one with the
// better move marked. The table page (core/table.js) draws everything else; this module
// reads it through window.boneyardTable and marks the board again after each drawing.
import { escapeHtml, signed } from "./board.js";

const T = () => window.boneyardTable;
const $ = (id) => document.getElementById(id);
const MARKS = { blunder: "Blunder", mistake: "Mistake", inaccuracy: "Inaccuracy" };

let hint = null; // {version, data} of the latest hint answer
let asking = false;
let review = null; // the finished review's answer
let reviewing = false; // a review is being worked out (polling)
let showAll = false; // the review lists every decision, not only the marked ones
let focus = null; // the reviewed decision the replay is showing

function points(v) {
  const x = Math.abs(v) < 1 ? Math.round(v * 100) / 100 : Math.round(v * 10) / 10;
  return signed(x);
}

function describe(action) {
  const s = T().state();
  const game = T().game();
  if (!game || !s) return action;
  try {
    return game.describe(action, s.view);
  } catch (e) {
    return action;
  }
}

// ----- the boxes this module owns ----------------------------------------------------

function hintBox() {
  let box = $("coach");
  if (!box) {
    box = document.createElement("div");
    box.id = "coach";
    box.className = "coach";
    box.innerHTML = `<div id="coach-hint" class="coach-hint" role="status" aria-live="polite" hidden></div>`;
    $("me").prepend(box);
    // the button sits in the top bar, beside the rules: it takes no room from the table
    const button = document.createElement("button");
    button.id = "coach-hint-btn";
    button.type = "button";
    button.className = "small coach-btn";
    button.title = "the coach's best actions here (key H)";
    button.textContent = "Hint";
    button.hidden = true;
    const rules = $("rules-link");
    if (rules) rules.before(button);
    else box.prepend(button);
    button.addEventListener("click", askHint);
  }
  return box;
}

function reviewBox() {
  let box = $("coach-review");
  if (!box) {
    box = document.createElement("section");
    box.id = "coach-review";
    box.className = "panel coach-review";
    box.setAttribute("aria-label", "the coach's review");
    box.hidden = true;
    $("replay").after(box);
  }
  return box;
}

// ----- the hint ----------------------------------------------------------------------

function canHint(s) {
  return !!s && !T().replay() && s.seat !== null && s.seat !== undefined && !s.is_over && s.fixed_deal &&
    s.current_player === s.seat && !s.between_hands && !document.body.dataset.ending && s.legal_actions.length > 0;
}

async function askHint() {
  const s = T().state();
  if (!canHint(s) || asking) return;
  asking = true;
  const version = s.version;
  hintBox().hidden = false;
  const panel = $("coach-hint");
  panel.hidden = false;
  panel.innerHTML = `<p class="coach-thinking"><span class="coach-spin" aria-hidden="true"></span> The coach is thinking…</p>`;
  $("coach-hint-btn").disabled = true;
  try {
    const data = await T().api(`/api/tables/${encodeURIComponent(T().tableId)}/hint`);
    hint = { version, data };
  } catch (e) {
    hint = { version, error: e.message };
  } finally {
    asking = false;
    $("coach-hint-btn").disabled = false;
  }
  update();
}

function hintHTML(h) {
  if (h.error) return `<p class="error">${escapeHtml(h.error)}</p>`;
  const d = h.data;
  const rows = d.best.map((b, i) => `<li class="${i === 0 ? "coach-top" : ""}" data-coach-action="${escapeHtml(b.action)}">
      <span class="coach-val" title="points of margin, ± two standard errors">${escapeHtml(points(b.value))}${
        b.error === null ? "" : ` <small>±${escapeHtml(String(Math.round(2 * b.error * 100) / 100))}</small>`}</span>
      <b>${escapeHtml(describe(b.action))}</b>${b.win === undefined ? "" : ` <span class="coach-win">wins the game ${Math.round(100 * b.win)}%</span>`}
      <span class="coach-words">${escapeHtml(b.words)}${i ? `; ${escapeHtml(b.compared)}` : ""}.</span></li>`).join("");
  return `<p class="coach-head"><b>Coach's hint</b> <span class="muted${d.rounds < 2 ? " coach-rough" : ""}">(${escapeHtml(d.why)})</span></p>
    <ol class="coach-list">${rows}</ol>
    ${d.reason ? `<p class="coach-reason" id="coach-hint-reason">${escapeHtml(d.reason)}</p>` : ""}
    <p class="coach-foot"><button id="coach-play" class="primary" type="button">Play the coach's choice</button>
    <button id="coach-close" type="button">Close</button></p>`;
}

// ----- the review --------------------------------------------------------------------

async function startReview() {
  if (reviewing) return;
  reviewing = true;
  const box = reviewBox();
  box.hidden = false;
  const path = `/api/tables/${encodeURIComponent(T().tableId)}/review`;
  try {
    for (;;) {
      const r = await T().api(path);
      if (r.status === "done") {
        review = r;
        break;
      }
      if (r.status === "error") throw new Error(r.error);
      box.innerHTML = `<h2>Review</h2><p class="coach-thinking"><span class="coach-spin" aria-hidden="true"></span>
        The coach is judging your decisions: ${r.done} of ${r.total || "…"}</p>
        <progress id="coach-progress" max="${Math.max(1, r.total)}" value="${r.done}"></progress>`;
      await new Promise((ok) => setTimeout(ok, 400));
    }
  } catch (e) {
    box.innerHTML = `<h2>Review</h2><p class="error">${escapeHtml(e.message)}</p>`;
  } finally {
    reviewing = false;
  }
  update();
}

function countsWords(r) {
  const c = r.counts;
  const part = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  return `${part(c.blunder, "blunder", "blunders")}, ${part(c.mistake, "mistake", "mistakes")}, ${part(c.inaccuracy, "inaccuracy", "inaccuracies")}`;
}

function decisionHTML(d) {
  const better = d.best[0];
  const mark = d.mark ? `<b class="coach-mark mark-${d.mark}">${MARKS[d.mark]}</b>` : `<span class="coach-mark">fine</span>`;
  const alt = better.action === d.played ? "the coach agrees" : `better: <b>${escapeHtml(describe(better.action))}</b> (${escapeHtml(points(better.value))})`;
  const lost = d.mark ? `; lost about ${escapeHtml(points(d.loss).replace("+", ""))} point${Math.abs(d.loss - 1) < 0.05 ? "" : "s"}` : "";
  return `<li class="${d.mark ? `mark-${d.mark}` : ""}${focus && focus.step === d.step ? " coach-focus" : ""}">
    <button type="button" class="coach-step" data-coach-step="${d.step}">Hand ${d.hand} · move ${d.number}</button>
    ${mark}: you played <i>${escapeHtml(describe(d.played))}</i> (${escapeHtml(points(d.value))}); ${alt}${lost}.
    ${d.reason ? `<p class="coach-reason">${escapeHtml(d.reason)}</p>` : ""}</li>`;
}

function reviewHTML(r) {
  const list = r.decisions.filter((d) => showAll || d.mark);
  const limits = r.thresholds.slice().reverse().map((t) => `${t.mark} from ${t.from}`).join(", ");
  return `<h2>Review <button id="coach-review-close" class="small" type="button">close</button></h2>
    <p class="coach-summary">${r.decisions.length} decisions judged: ${countsWords(r)}.${
      r.skipped ? ` ${r.skipped} could not be judged (no deal of the hidden tiles fitted).` : ""}</p>
    ${list.length ? `<ol class="coach-decisions">${list.map(decisionHTML).join("")}</ol>`
      : `<p>No inaccuracy, mistake or blunder: well played.</p>`}
    <p class="muted coach-limits">Values: points of margin over the others for the rest of the hand. Loss marks: ${escapeHtml(limits)} points.
    <label><input id="coach-all" type="checkbox"${showAll ? " checked" : ""}> every decision</label></p>`;
}

// The note above the board while the replay shows a reviewed decision.
function focusNote(d) {
  const better = d.best[0];
  const same = better.action === d.played;
  const where = better.tiles.length ? " (blue ring)" : "";
  const verdict = d.mark ? `<b class="coach-mark mark-${d.mark}">${MARKS[d.mark]}.</b> ` : "";
  return `${verdict}Move ${d.number}: you played <i>${escapeHtml(describe(d.played))}</i> (${escapeHtml(points(d.value))})${
    same ? ", the coach's choice too." : `; the coach prefers <b class="coach-better">${escapeHtml(describe(better.action))}</b>${where} (${
      escapeHtml(points(better.value))}).`}${d.reason ? ` <span class="coach-reason">${escapeHtml(d.reason)}</span>` : ""}`;
}

function noteBox() {
  let box = $("coach-note");
  if (!box) {
    box = document.createElement("p");
    box.id = "coach-note";
    box.className = "coach-note";
    box.setAttribute("role", "status");
    box.hidden = true;
    $("board").before(box);
  }
  return box;
}

// Open the replay at a reviewed decision (the position before it), the note and the board in view.
async function openDecision(step) {
  focus = review.decisions.find((d) => d.step === step) || null;
  if (!focus) return;
  await T().showStep(step);
  noteBox().scrollIntoView({ block: "start" });
}

// ----- marking the board -------------------------------------------------------------

function flip(t) {
  const [a, b] = t.split("-");
  return `${b}-${a}`;
}

function markTiles(tiles, cls) {
  tiles.forEach((t) => {
    for (const name of new Set([t, flip(t)])) {
      const q = CSS.escape(name);
      document.querySelectorAll(`#hand [data-hand="${q}"], #board [data-tile="${q}"]`).forEach((el) => el.classList.add(cls));
    }
  });
}

function markBoard(s) {
  document.querySelectorAll(".coach-best, .coach-played").forEach((el) => el.classList.remove("coach-best", "coach-played"));
  const rp = T().replay();
  const note = noteBox();
  note.hidden = !(rp && focus && rp.step === focus.step);
  if (!note.hidden) {
    note.innerHTML = focusNote(focus);
    const best = focus.best[0].tiles;
    if (focus.best[0].action !== focus.played) markTiles(focus.played_tiles.filter((t) => !best.includes(t)), "coach-played");
    markTiles(best, "coach-best");
    return;
  }
  if (!rp && hint && hint.data && hint.version === s.version) {
    markTiles(hint.data.tiles, "coach-best");
    const a = hint.data.action;
    document.querySelectorAll("#actions [data-action]").forEach((el) => {
      if (el.dataset.action === a) el.classList.add("coach-best");
    });
  }
}

// ----- after every drawing of the table ------------------------------------------------

function update() {
  const table = T();
  const s = table && table.state();
  if (!s || !$("me")) return;
  const box = hintBox();
  const can = canHint(s);
  box.hidden = !(asking || (hint && hint.version === s.version && !T().replay()));
  $("coach-hint-btn").hidden = !can;
  // the Rummikub solver's own button asks the same endpoint: hidden where hints are off
  document.querySelectorAll("#rk-hint").forEach((el) => (el.hidden = !s.fixed_deal));
  if (hint && hint.version !== s.version) hint = null;
  const panel = $("coach-hint");
  if (hint && !asking) {
    panel.hidden = false;
    panel.innerHTML = hintHTML(hint);
    const play = $("coach-play");
    if (play) play.onclick = () => T().send(hint.data.action);
    $("coach-close").onclick = () => {
      hint = null;
      update();
    };
  } else if (!asking) panel.hidden = true;
  // the Review button in the game-over panel (drawn again with it)
  const over = $("over");
  if (s.is_over && over && !over.hidden && !$("coach-review-btn")) {
    const row = $("over-actions") || over; // beside "Replay this game", not inside a sentence
    row.insertAdjacentHTML("afterbegin", `<button id="coach-review-btn" class="primary" type="button">Review my game</button> `);
    $("coach-review-btn").onclick = startReview;
    if (s.seat === null || s.seat === undefined) $("coach-review-btn").hidden = true;
  }
  const rbox = reviewBox();
  if (review && !reviewing) {
    rbox.hidden = false;
    rbox.innerHTML = reviewHTML(review);
    rbox.querySelectorAll("[data-coach-step]").forEach((b) => b.addEventListener("click", () => openDecision(Number(b.dataset.coachStep))));
    $("coach-review-close").onclick = () => {
      review = null;
      focus = null;
      rbox.hidden = true;
      update();
    };
    $("coach-all").onchange = () => {
      showAll = $("coach-all").checked;
      update();
    };
  }
  markBoard(s);
}

document.addEventListener("boneyard:render", update);
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "h" || ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.closest("input, select, textarea")) return;
  const s = T() && T().state();
  if (canHint(s)) askHint();
});
update();
