// The lobby's "Play a bot": the bot accounts online now (programs their owners connect to this
// server through the bot API), each with a Challenge form (game, players, move clock). A
// challenge waits for the bot's program to accept; then the page takes its seat at the new table.
// Above them, the open seeks bots posted ("Robo seeks a game of Rounce"): "Take it" starts the
// game at once.
import { escapeHtml } from "./core/tiles.js";
import { api, playerName, saveSeat } from "./core/api.js";

const POLL_MS = 500; // how often a waiting challenge asks for its answer
const REFRESH_MS = 5000; // how often the list of online bots is read again

const state = { games: [], online: [], seeks: [], shown: "", waiting: null };

function gameName(id) {
  const g = state.games.find((x) => x.id === id);
  return g ? g.name : id;
}

function playersOptions(gameId) {
  const g = state.games.find((x) => x.id === gameId);
  if (!g) return "";
  let html = "";
  for (let p = g.players.min; p <= g.players.max; p++) {
    html += `<option value="${p}"${p === g.players.min ? " selected" : ""}>${p}</option>`;
  }
  return html;
}

// The form of a card: game (those given), players, length, clock, and its button's words.
function challengeForm(games, button) {
  const options = games.map((g) => `<option value="${escapeHtml(g)}">${escapeHtml(gameName(g))}</option>`).join("");
  return `<form class="challenge">
      <label>Game <select name="game">${options}</select></label>
      <label>Players <select name="players">${playersOptions(games[0])}</select></label>
      <label>Length <select name="length"><option value="full">a whole game</option>
        <option value="1">one hand</option></select></label>
      <label>Move clock <select name="clock"><option value="0">off</option><option value="30">30 s a decision</option>
        <option value="60">60 s a decision</option><option value="120">2 min a decision</option></select></label>
      <button type="submit" class="primary">${escapeHtml(button)}</button>
      <p class="challenge-status" role="status" aria-live="polite"></p>
    </form>`;
}

// "Any bot": an open seek, taken by the first online bot that plays the game.
function seekCard() {
  const games = [...new Set(state.online.flatMap((b) => b.games))];
  return `<article class="card bot-card" data-bot="" aria-labelledby="seek-name">
    <h3 id="seek-name">Any bot</h3>
    <p class="meta">the first bot online that plays the game takes it</p>
    ${challengeForm(games, "Find a bot")}
  </article>`;
}

function botCard(b) {
  const id = `bot-${b.id}`;
  return `<article class="card bot-card" data-bot="${escapeHtml(b.name)}" aria-labelledby="${id}-name">
    <h3 id="${id}-name">${escapeHtml(b.name)} <span class="badge">bot</span></h3>
    <p class="meta">run by ${escapeHtml(b.owner)} · plays ${b.games.map((g) => escapeHtml(gameName(g))).join(", ")}</p>
    ${b.description ? `<p>${escapeHtml(b.description)}</p>` : ""}
    ${challengeForm(b.games, `Challenge ${b.name}`)}
  </article>`;
}

// One open seek a bot posted: what it offers, and the button that takes it.
function seekLine(c) {
  const length = c.rules && c.rules.max_hands === 1 ? "one hand" : "a whole game";
  const clock = c.clock ? `, ${c.clock} s a decision` : "";
  return `<li class="open-seek" data-seek="${escapeHtml(c.id)}"><span><strong>${escapeHtml(c.by.name)}</strong>
    <span class="badge">bot</span> seeks a game of ${escapeHtml(gameName(c.game))}: ${c.players} players,
    ${length}${clock}</span> <button type="button" class="primary take-seek">Take it</button>
    <span class="challenge-status" role="status" aria-live="polite"></span></li>`;
}

function render() {
  const el = document.getElementById("bots");
  const key = state.online.map((b) => b.id).join(",") + "|" + state.seeks.map((c) => c.id).join(",");
  if (key === state.shown && el.childElementCount) return; // a form being filled in is left alone
  state.shown = key;
  if (!state.online.length) {
    el.innerHTML = `<p id="no-bots" class="muted">No bot is online now. A bot is a program its owner connects to
      this server with a bot account (see <a href="/docs#/bots">the bot API</a>); it shows here while it is connected.</p>`;
    return;
  }
  // bots' own seeks first (one click to a game), then "Any bot" (with several online), then each bot
  const seeks = state.seeks.length
    ? `<h3 class="seeks-title">Bots looking for a game</h3><ul id="open-seeks">${state.seeks.map(seekLine).join("")}</ul>` : "";
  el.innerHTML = `${seeks}<div class="cards bot-cards">${state.online.length > 1 ? seekCard() : ""}${
    state.online.map(botCard).join("")}</div>`;
  el.querySelectorAll(".open-seek").forEach((line) => {
    line.querySelector(".take-seek").addEventListener("click", () => {
      takeSeek(line).catch((e) => {
        line.querySelector(".challenge-status").textContent = e.message;
      });
    });
  });
  el.querySelectorAll(".bot-card").forEach((card) => {
    const form = card.querySelector("form");
    form.game.addEventListener("change", () => {
      form.players.innerHTML = playersOptions(form.game.value);
    });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      challenge(card.dataset.bot, form).catch((e) => {
        form.querySelector(".challenge-status").textContent = e.message;
      });
    });
  });
}

function playerCode() {
  try {
    const p = JSON.parse(localStorage.getItem("boneyard.player") || "null");
    return p ? p.code : null;
  } catch (e) {
    return null;
  }
}

async function challenge(bot, form) {
  const status = form.querySelector(".challenge-status");
  const button = form.querySelector("button[type=submit]");
  const name = playerName();
  if (!name) {
    status.textContent = "Enter your name first (top right).";
    document.getElementById("name").focus();
    return;
  }
  // "one hand" is the game's own max_hands option, which every game has
  const rules = form.length.value === "full" ? {} : { max_hands: Number(form.length.value) };
  const body = { game: form.game.value, players: Number(form.players.value), rules, name };
  const clock = Number(form.clock.value);
  if (clock) body.clock = clock;
  const code = playerCode();
  // no bot named: an open seek, which the first online bot that plays the game takes
  const path = bot ? `/api/challenge/${encodeURIComponent(bot)}` : "/api/seeks";
  const made = await api(path, {
    method: "POST", body: JSON.stringify(body), headers: Object.assign({ "Content-Type": "application/json" },
      code ? { "X-Player": code } : {}),
  });
  button.disabled = true;
  status.textContent = bot ? `Waiting for ${bot} to accept…` : "Waiting for a bot to take it…";
  const id = made.challenge.id;
  const headers = { "Content-Type": "application/json", "X-Challenge-Key": made.key };
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await api(`/api/challenge/${encodeURIComponent(id)}`, { headers });
    const c = now.challenge;
    if (c.status === "accepted" && now.token) {
      saveSeat(c.table, { token: now.token, seat: now.seat });
      location.href = `/tables/${c.table}`;
      return;
    }
    if (c.status === "declined" || c.status === "canceled") {
      const who = bot || "every bot";
      status.textContent = c.status === "declined" ? `${who} declined: ${c.reason}` : `The challenge was cancelled: ${c.reason}`;
      button.disabled = false;
      return;
    }
  }
}

// Take a bot's open seek: the server makes the table at once and answers this person's seat.
async function takeSeek(line) {
  const status = line.querySelector(".challenge-status");
  const name = playerName();
  if (!name) {
    status.textContent = "Enter your name first (top right).";
    document.getElementById("name").focus();
    return;
  }
  const code = playerCode();
  line.querySelector(".take-seek").disabled = true;
  const made = await api(`/api/seeks/${encodeURIComponent(line.dataset.seek)}/take`, {
    method: "POST", body: JSON.stringify({ name }),
    headers: Object.assign({ "Content-Type": "application/json" }, code ? { "X-Player": code } : {}),
  });
  saveSeat(made.table, { token: made.token, seat: made.seat });
  location.href = `/tables/${made.table}`;
}

async function refresh() {
  [state.online, state.seeks] = await Promise.all([api("/api/bots/online"), api("/api/seeks")]);
  render();
}

async function main() {
  state.games = await api("/api/games");
  await refresh();
  setInterval(() => refresh().catch(() => {}), REFRESH_MS);
}

main().catch((e) => {
  document.getElementById("bots").textContent = e.message;
});
