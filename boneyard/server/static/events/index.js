// The club events' list and the host's "New event" form (POST /api/events).
import { api, escapeHtml } from "../friends/common.js";
import { formatWords, stateWords } from "./words.js";

const $ = (id) => document.getElementById(id);
let games = [];

function gameById(id) {
  return games.find((g) => g.id === id);
}

function humanise(name) {
  const words = String(name).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// One rules option of the game, drawn from its declared facts (label, help, type, range).
function optionInput(name, d) {
  const id = `ev-opt-${name}`;
  const label = escapeHtml(d.label || humanise(name));
  const help = escapeHtml(d.help || d.doc || "");
  if (d.type === "bool") {
    return `<label for="${id}"><input id="${id}" type="checkbox" data-opt="${name}" data-type="bool"${d.default ? " checked" : ""}> ${label}<small>${help}</small></label>`;
  }
  let input;
  if (d.allowed) {
    input = `<select id="${id}" data-opt="${name}" data-type="${d.type}">${d.allowed
      .map((v) => `<option value="${escapeHtml(JSON.stringify(v))}"${v === d.default ? " selected" : ""}>${escapeHtml(typeof v === "string" ? humanise(v) : String(v))}</option>`)
      .join("")}</select>`;
  } else {
    input = `<input id="${id}" type="number" data-opt="${name}" data-type="${d.type}" value="${d.default}"${
      d.minimum !== undefined ? ` min="${d.minimum}"` : ""}${d.maximum !== undefined ? ` max="${d.maximum}"` : ""}>`;
  }
  return `<label for="${id}">${label} ${input}<small>${help}</small></label>`;
}

function readRules() {
  const rules = {};
  document.querySelectorAll("[data-opt]").forEach((el) => {
    const t = el.dataset.type;
    let v = el.value;
    if (t === "bool") v = el.checked;
    else if (el.tagName === "SELECT") v = JSON.parse(v);
    else if (t === "int") v = parseInt(v, 10);
    else if (t === "float") v = parseFloat(v);
    rules[el.dataset.opt] = v;
  });
  return rules;
}

function renderForm() {
  const g = gameById($("ev-game").value);
  if (!g) return;
  let html = "";
  for (let p = g.players.min; p <= g.players.max; p++) {
    html += `<option value="${p}"${p === g.players.default ? " selected" : ""}>${p}</option>`;
  }
  $("ev-players").innerHTML = html;
  $("ev-options").innerHTML = Object.entries(g.options).map(([name, d]) => optionInput(name, d)).join("");
}

function renderFormat() {
  const swiss = $("ev-format").value === "swiss";
  $("ev-rounds").required = swiss;
  $("ev-format-help").textContent = swiss
    ? "Each round, players with similar points sit together, and nobody sits with the same people twice if it can be helped."
    : "Each round brings together those who have met least, until everyone has met everyone.";
  $("ev-rounds-help").textContent = swiss
    ? "A Swiss event plays the rounds you choose."
    : "Leave empty for as many rounds as it takes for everyone to meet everyone.";
}

async function create(ev) {
  ev.preventDefault();
  $("ev-error").textContent = "";
  const body = {
    name: $("ev-name").value.trim(),
    game: $("ev-game").value,
    players: Number($("ev-players").value),
    format: $("ev-format").value,
    rules: readRules(),
  };
  if ($("ev-rounds").value) body.rounds = Number($("ev-rounds").value);
  // seconds a decision (real time), or a turn-based clock ({"per_move": S} or {"per_game": S})
  const clock = JSON.parse($("ev-clock").value || "0");
  if (clock) body.clock = clock;
  try {
    const made = await api("/api/events", { method: "POST", body: JSON.stringify(body) });
    localStorage.setItem(`boneyard.event-host.${made.id}`, made.host_token);
    location.href = `/events/${made.id}`;
  } catch (e) {
    $("ev-error").textContent = e.message;
  }
}

async function list() {
  try {
    const events = await api("/api/events");
    $("ev-list").innerHTML = events.length
      ? `<div class="scroll-x"><table class="list"><thead><tr><th>Event</th><th>Game</th><th>Format</th><th>State</th></tr></thead><tbody>${events
          .map((e) => `<tr><td><a href="/events/${escapeHtml(e.id)}">${escapeHtml(e.name)}</a></td><td>${escapeHtml(e.game_name)}, tables of ${e.players}</td><td>${escapeHtml(formatWords(e))}</td><td>${escapeHtml(stateWords(e))}</td></tr>`)
          .join("")}</tbody></table></div>`
      : `<p class="muted">No event yet: make the first one above.</p>`;
  } catch (e) {
    $("ev-list").innerHTML = `<p class="error">${escapeHtml(e.message)}</p>`;
  }
}

$("ev-create").addEventListener("submit", create);
$("ev-game").addEventListener("change", renderForm);
$("ev-format").addEventListener("change", renderFormat);
api("/api/games").then((list) => {
  games = list;
  $("ev-game").innerHTML = games.map((g) => `<option value="${g.id}">${escapeHtml(g.name)}</option>`).join("");
  renderForm();
  renderFormat();
});
list();
