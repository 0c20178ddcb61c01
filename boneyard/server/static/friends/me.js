// "My games": the player's open and finished tables, by the code kept in this browser (or
// entered here from another device); "continue" asks the server for a seat token of this device.
import { api, escapeHtml, playerCode } from "./common.js";
import { leftWords } from "../core/clockwords.js";

const $ = (id) => document.getElementById(id);
let games = {};

// The server lists the tables where it is the player's turn first (`your_turn`, with the
// seconds `left` on that move's clock, or null without one): they are marked so.
function row(t) {
  const turn = t.your_turn
    ? `<br><strong class="your-turn">Your turn</strong>${t.left !== null ? ` <small>${escapeHtml(leftWords(t.left))} left</small>` : ""}`
    : "";
  const name = escapeHtml(games[t.game] || t.game) + (t.turn_based ? ' <small class="muted">(turn-based)</small>' : "") + turn;
  const when = new Date(t.created * 1000).toLocaleString();
  const label = t.your_turn ? "play" : t.is_over ? "replay" : t.expired ? "expired" : "continue";
  const action = t.expired && !t.is_over ? "" : `<button class="small" data-go="${escapeHtml(t.id)}" data-over="${t.is_over ? 1 : 0}" type="button">${label}</button>`;
  return `<tr${t.your_turn ? ' class="turn-row"' : ""}><td>${name}</td><td>${t.players}</td><td>${escapeHtml(when)}</td><td>${action}</td></tr>`;
}

function table(rows) {
  return rows.length
    ? `<table class="list"><thead><tr><th>Game</th><th>Players</th><th>Opened</th><th></th></tr></thead><tbody>${rows.map(row).join("")}</tbody></table>`
    : `<p class="muted">None.</p>`;
}

async function go(id, over) {
  const code = playerCode();
  if (!localStorage.getItem(`boneyard.token.${id}`)) {
    try {
      const seat = await api(`/api/tables/${id}/resume`, { method: "POST", headers: { "X-Player": code } });
      localStorage.setItem(`boneyard.token.${id}`, JSON.stringify(seat));
      localStorage.setItem(`boneyard.claimed.${id}`, seat.token);
    } catch (e) {
      if (!over) return ($("me-error").textContent = e.message);
    }
  }
  location.href = `/tables/${id}`;
}

async function load() {
  const code = playerCode();
  if (!code) {
    // Leave the field alone: a player may have typed a code before the page finished
    // loading (the first load waits for the games list).
    $("me-who").textContent = "No player code in this browser yet: sit at a table, or enter your code.";
    return;
  }
  $("me-code").value = code;
  try {
    const mine = await api("/api/players/me/tables", { headers: { "X-Player": code } });
    $("me-who").textContent = `Playing as ${mine.name}.`;
    const turns = mine.tables.filter((t) => t.your_turn).length;
    $("me-turns").textContent = turns ? `It is your turn at ${turns} table${turns === 1 ? "" : "s"}: listed first.` : "";
    $("me-open").innerHTML = table(mine.tables.filter((t) => !t.is_over && !t.expired));
    $("me-done").innerHTML = table(mine.tables.filter((t) => t.is_over || t.expired));
    document.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go, b.dataset.over === "1")));
  } catch (e) {
    $("me-error").textContent = e.message;
  }
}

$("me-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const code = $("me-code").value.trim().toUpperCase();
  if (!code) return;
  try {
    const mine = await api("/api/players/me/tables", { headers: { "X-Player": code } });
    localStorage.setItem("boneyard.player", JSON.stringify({ code, name: mine.name }));
    localStorage.setItem("boneyard.name", mine.name);
    $("me-error").textContent = "";
    await load();
  } catch (e) {
    $("me-error").textContent = e.message;
  }
});

api("/api/games").then((list) => {
  list.forEach((g) => (games[g.id] = g.name));
  return load();
});
// kept fresh: a friend's move makes it your turn at another table
setInterval(() => {
  if (playerCode()) load();
}, 20000);
