// The club events' list and the host's "New event" form (POST /api/events).
import { api, escapeHtml } from "../friends/common.js";
import { optionInput, readRules } from "../core/rulesform.js";
import { formatWords, stateWords } from "./words.js";

const $ = (id) => document.getElementById(id);
let games = [];

function gameById(id) {
  return games.find((g) => g.id === id);
}


function renderForm() {
  const g = gameById($("ev-game").value);
  if (!g) return;
  let html = "";
  for (let p = g.players.min; p <= g.players.max; p++) {
    html += `<option value="${p}"${p === g.players.default ? " selected" : ""}>${p}</option>`;
  }
  $("ev-players").innerHTML = html;
  $("ev-options").innerHTML = Object.entries(g.options).map(([name, d]) => optionInput(name, d, g.options, "ev-opt-")).join("");
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
