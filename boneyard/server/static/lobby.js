// The lobby: games with their rules, a form to create a table, the open tables.
import { escapeHtml, tileSVG } from "./core/tiles.js";
import { api, loadSeat, playerName, savePlayerName, saveSeat } from "./core/api.js";
import { optionInput, readRules } from "./core/rulesform.js";

const state = { games: [], bots: [], botsAbout: [] };

function gameById(id) {
  return state.games.find((g) => g.id === id);
}

function renderGames() {
  const sample = ["6-4", "5-5", "3-1", "6-6", "2-0"];
  document.getElementById("games").innerHTML = state.games
    .map(
      (g, i) => `<article class="card">
        <h3>${tileSVG(sample[i % sample.length], { cls: "mini" })} ${escapeHtml(g.name)}</h3>
        <p class="meta">${g.players.min === g.players.max ? g.players.min : `${g.players.min}–${g.players.max}`} players${g.teams ? " · teams" : ""}</p>
        <p>${escapeHtml(g.summary)}</p>
        <p><a href="/learn/${g.id}">Learn to play</a> · <a href="/rules/${g.id}">Rules</a> · <a href="#create" data-new="${g.id}">New ${escapeHtml(g.name)} table</a></p>
      </article>`
    )
    .join("");
  document.querySelectorAll("[data-new]").forEach((a) =>
    a.addEventListener("click", () => {
      document.getElementById("game").value = a.dataset.new;
      renderForm();
    })
  );
}

function renderForm() {
  const g = gameById(document.getElementById("game").value);
  if (!g) return;
  const players = document.getElementById("players");
  const current = Number(players.value) || g.players.default;
  const n = Math.min(Math.max(current, g.players.min), g.players.max);
  players.innerHTML = "";
  for (let p = g.players.min; p <= g.players.max; p++) {
    players.innerHTML += `<option value="${p}"${p === (players.dataset.game === g.id ? n : g.players.default) ? " selected" : ""}>${p}</option>`;
  }
  players.dataset.game = g.id;
  document.getElementById("options").innerHTML = Object.entries(g.options)
    .map(([name, d]) => optionInput(name, d, g.options))
    .join("");
  renderSeats();
}

// the bots that can sit at this game with n players: a bot that plays only some tables
// (the policy bot, where a learned network is shipped) lists them in "plays"
function botsFor(gameId, n) {
  return state.botsAbout.filter((b) => !b.plays || b.plays.some((t) => t.game === gameId && t.players === n));
}

function renderSeats() {
  const n = Number(document.getElementById("players").value);
  const offered = botsFor(document.getElementById("game").value, n);
  const names = offered.map((b) => b.name);
  const kinds = ["human", ...names.map((b) => `bot:${b}`)];
  const defaultBot = names.includes("greedy") ? "bot:greedy" : `bot:${names[0]}`;
  // seats are counted from 1 for people (the API's seat numbers start at 0); a seat left to a
  // person other than you is how a friend is invited: it stays open for whoever has the link
  let html = "<legend>Seats</legend>";
  for (let s = 0; s < n; s++) {
    const def = s === 0 ? "human" : defaultBot;
    const person = s === 0 ? "you" : "a friend (open seat)";
    html += `<label>Seat ${s + 1}${s === 0 ? " (you)" : ""} <select data-seat="${s}">${kinds
      .map((k) => `<option value="${k}"${k === def ? " selected" : ""}>${k === "human" ? person : k.slice(4) + " bot"}</option>`)
      .join("")}</select></label>`;
  }
  html += `<small id="seats-help" class="help">To play with friends, set their seats to "a friend (open seat)", create the
    table and send them its link ("copy link" at the table): each takes an open seat with their name.</small>`;
  // what each bot plays like, in the server's words (GET /api/bots/about), so a choice is never a guess
  html += `<details id="bots-help" class="help"><summary>Which bot?</summary><dl>${offered
    .map((b) => `<dt>${escapeHtml(b.name)} bot</dt><dd>${escapeHtml(b.about)}</dd>`).join("")}</dl></details>`;
  document.getElementById("seats").innerHTML = html;
}


async function createTable(ev) {
  ev.preventDefault();
  const err = document.getElementById("create-error");
  err.textContent = "";
  const name = playerName();
  const seats = [...document.querySelectorAll("[data-seat]")].map((el) => el.value);
  if (seats.includes("human") && !name) {
    err.textContent = "Enter your name first (top right).";
    document.getElementById("name").focus();
    return;
  }
  try {
    const body = {
      game: document.getElementById("game").value,
      players: Number(document.getElementById("players").value),
      rules: readRules(),
      seats,
    };
    // the move clock: seconds a decision (real time), or a turn-based clock ({"per_move": S} or {"per_game": S})
    const clock = JSON.parse((document.getElementById("clock") || {}).value || "0");
    if (clock) body.clock = clock;
    if ((document.getElementById("practice") || {}).checked) {
      // a practice table: the coach's hints are on, so its deal is fixed (a seed chosen here) and never rated
      const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
      Object.assign(body, { practice: true, seed: (hi & 0x1fffff) * 2 ** 32 + lo });
    }
    const { id, host_token } = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    if (host_token) localStorage.setItem(`boneyard.host.${id}`, host_token);
    const first = seats.indexOf("human");
    if (first >= 0) {
      const joined = await api(`/api/tables/${id}/join`, { method: "POST", body: JSON.stringify({ seat: first, name }) });
      saveSeat(id, joined);
    }
    location.href = `/tables/${id}`;
  } catch (e) {
    err.textContent = e.message;
  }
}

// A table nobody has moved at for this long (seconds) is shown as stalled, not "playing":
// its players left it (the server closes it after its idle timeout, 6 hours by default).
const STALLED = 600;

// "12 min", "3 h", "2 days": how long ago, as a player says it.
function durationWords(seconds) {
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

// At the top of the lobby, where a phone opens it: the tables where it is your turn, each a link.
function yourTurns(turns) {
  const el = document.getElementById("your-turns");
  if (!el) return;
  el.hidden = !turns.length;
  if (!turns.length) return;
  const links = turns.slice(0, 3).map((t) => {
    const g = gameById(t.game);
    const mine = loadSeat(t.id);
    const others = t.seats.filter((s) => s.seat !== mine.seat && s.name).map((s) => s.name);
    return `<a href="/tables/${t.id}">${escapeHtml(g ? g.name : t.game)}${others.length ? ` with ${escapeHtml(others.join(", "))}` : ""}</a>`;
  });
  const more = turns.length > 3 ? ` and ${turns.length - 3} more (below)` : "";
  el.innerHTML = `<strong class="your-turn">Your turn</strong> at ${turns.length} table${turns.length === 1 ? "" : "s"}: ${links.join(", ")}${more}.`;
}

async function renderTables() {
  const tables = await api("/api/tables");
  const el = document.getElementById("tables");
  if (!tables.length) {
    // one sentence for an empty list (friends/lobby.js, which says "No open table", stays quiet)
    el.innerHTML = "<p id='no-tables' class='muted'>No open table: create one above.</p>";
    return;
  }
  // the tables where this browser's seat is to move come first, marked "Your turn" (the server
  // says whose decision each table waits for; the page knows which seats it holds)
  const myTurn = (t) => {
    const mine = loadSeat(t.id);
    return !!mine && !t.is_over && t.current_player !== null && t.current_player === mine.seat;
  };
  const ordered = [...tables.filter(myTurn), ...tables.filter((t) => !myTurn(t))];
  yourTurns(tables.filter(myTurn));
  const rows = ordered.map((t) => {
    const g = gameById(t.game);
    const mine = loadSeat(t.id);
    const seats = t.seats
      .map((s) => `<span class="seat-chip ${s.joined || s.reserved_for ? "" : "open"}">${s.seat + 1}: ${escapeHtml(
        s.name || (s.reserved_for ? `kept for ${s.reserved_for}` : "open"))}${s.account === "bot" ? ' <span class="badge">bot</span>' : ""}</span>`)
      .join(" ");
    // abandoned (the server's word: no move for 10 minutes and no player has it open) says so plainly
    const status = t.is_over ? "finished"
      : t.abandoned ? `<span class="abandoned">abandoned</span> <span class="muted">(no move for ${durationWords(t.idle)}, nobody at the table)</span>`
      : t.idle >= STALLED ? `no move for ${durationWords(t.idle)}`
      : t.open_seats.length ? `${t.open_seats.length} open seat${t.open_seats.length === 1 ? "" : "s"}` : "playing";
    const turn = myTurn(t) ? '<strong class="your-turn">Your turn</strong> ' : "";
    const pace = t.turn_based ? ' <span class="muted">(turn-based)</span>' : "";
    const link = `/tables/${t.id}`;
    const label = myTurn(t) ? "Play" : mine ? "Return" : t.is_over ? "Replay" : t.open_seats.length ? "Join" : "Watch";
    const fixed = t.fixed_deal ? " <span class='muted'>(fixed deal)</span>" : "";
    return `<tr${turn ? ' class="turn-row"' : ""}><td>${escapeHtml(g ? g.name : t.game)}${fixed}</td><td>${seats}</td><td>${turn}${status}${pace}</td>
      <td><a class="button" href="${link}">${label}</a> <button class="small copy" data-link="${link}" type="button">copy link</button></td></tr>`;
  });
  el.innerHTML = `<table class="list"><thead><tr><th>Game</th><th>Seats</th><th>Status</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  el.querySelectorAll(".copy").forEach((b) =>
    b.addEventListener("click", () => {
      const url = location.origin + b.dataset.link;
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
      b.textContent = "copied";
    })
  );
}

async function main() {
  const nameInput = document.getElementById("name");
  nameInput.value = playerName();
  nameInput.addEventListener("input", () => savePlayerName(nameInput.value));
  [state.games, state.botsAbout] = await Promise.all([api("/api/games"), api("/api/bots/about")]);
  state.bots = state.botsAbout.map((b) => b.name);
  renderGames();
  const select = document.getElementById("game");
  select.innerHTML = state.games.map((g) => `<option value="${g.id}">${escapeHtml(g.name)}</option>`).join("");
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && gameById(wanted)) select.value = wanted;
  select.addEventListener("change", renderForm);
  document.getElementById("players").addEventListener("change", renderSeats);
  document.getElementById("create").addEventListener("submit", createTable);
  // enabled only now: pressed before the games had loaded, the form would submit itself as a plain page load
  document.getElementById("create-btn").disabled = false;
  document.getElementById("refresh").addEventListener("click", renderTables);
  renderForm();
  await renderTables();
  setInterval(() => renderTables().catch(() => {}), 5000);
}

main().catch((e) => {
  // offline, the banner of notices/notices.js says so in words; the fetch's own error would say nothing more
  if (navigator.onLine) document.getElementById("create-error").textContent = e.message;
});
