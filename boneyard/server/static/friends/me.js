// "My games": the player's open and finished tables, by the code kept in this browser (or
// entered here from another device); "continue" asks the server for a seat token of this device.
import { api, escapeHtml, playerCode } from "./common.js";

const $ = (id) => document.getElementById(id);
let games = {};

function row(t) {
  const name = escapeHtml(games[t.game] || t.game);
  const when = new Date(t.created * 1000).toLocaleString();
  const label = t.is_over ? "replay" : t.expired ? "expired" : "continue";
  const action = t.expired && !t.is_over ? "" : `<button class="small" data-go="${escapeHtml(t.id)}" data-over="${t.is_over ? 1 : 0}" type="button">${label}</button>`;
  return `<tr><td>${name}</td><td>${t.players}</td><td>${escapeHtml(when)}</td><td>${action}</td></tr>`;
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
