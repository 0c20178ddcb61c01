// One club event: its facts, joining with the player code, the host's Start, your table this
// round, the standings and every round's tables. Everything comes from GET /api/events/{id},
// read again every few seconds while the event runs (the server moves it on as games end).
import { api, escapeHtml, playerCode } from "../friends/common.js";
import { clockWords } from "../core/clockwords.js";
import { formatWords, pointsWords, stateWords } from "./words.js";

const $ = (id) => document.getElementById(id);
const eventId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const hostKey = `boneyard.event-host.${eventId}`;
const POLL_MS = 3000;
let game = null;
let mine = null; // {entrant, table, seat, over} for this browser's player code
let timer = null;
let seen = ""; // the event's state and round when `mine` was last asked for (player codes are counted)

function optionsWords(ev) {
  if (!game) return "";
  return Object.entries(ev.rules)
    .filter(([name, v]) => game.options[name] && v !== game.options[name].default)
    .map(([name, v]) => `${game.options[name].label || name}: ${typeof v === "boolean" ? (v ? "yes" : "no") : v}`)
    .join(" · ");
}

function facts(ev) {
  const bits = [`${ev.game_name}`, `tables of ${ev.players}`, formatWords(ev)];
  const opts = optionsWords(ev);
  if (opts) bits.push(opts);
  const clock = ev.clock;
  if (clock && typeof clock === "object") bits.push(`turn-based: ${clockWords(clock.per_move, clock.per_game)}`);
  else bits.push(clock ? `${clock} s a decision, then a bot plays it` : "no move clock");
  return bits.map(escapeHtml).join(" · ");
}

function status(ev) {
  if (ev.state === "open") {
    const n = ev.entrants.length;
    const names = ev.entrants.map((e) => e.name).join(", ");
    return `Open for entries: ${n === 0 ? "nobody has joined yet" : `${n} joined (${names})`}. The host starts the event.`;
  }
  if (ev.state === "running") {
    const tables = ev.played[ev.round - 1].tables;
    const done = tables.filter((t) => t.over).length;
    const last = ev.rounds && ev.round >= ev.rounds;
    return `Round ${ev.round}${ev.rounds ? ` of ${ev.rounds}` : ""}: ${done} of ${tables.length} table${tables.length === 1 ? "" : "s"} finished. ` +
      (last ? "This is the last round: the standings are final when every table has finished."
        : "The next round is seated when every table has finished.");
  }
  const top = ev.standings.filter((s) => s.place === 1).map((s) => s.name);
  return `Finished after ${ev.round} round${ev.round === 1 ? "" : "s"}: ${top.join(" and ")} wins the event.`;
}

function standings(ev) {
  if (!ev.standings.length) return `<p class="muted">Nobody has joined yet.</p>`;
  if (ev.state === "open") {
    // before the first round there are no points: the entrants in join order (their seed)
    return `<table class="list"><thead><tr><th class="num">Seed</th><th>Player</th></tr></thead><tbody>${ev.entrants
      .map((e) => `<tr${mine && e.entrant === mine.entrant ? ' class="me"' : ""}><td class="num">${e.entrant + 1}</td><td>${escapeHtml(e.name)}${
        mine && e.entrant === mine.entrant ? " (you)" : ""}</td></tr>`).join("")}</tbody></table>`;
  }
  // head to head only once a game is in: before, everyone is level and it says nothing
  const h2h = ev.standings.some((s) => s.head_to_head !== null && s.played > 0);
  const me = mine ? mine.entrant : null;
  const rows = ev.standings.map((s) => `<tr${s.entrant === me ? ' class="me"' : ""}><td class="num">${s.place}</td><td>${escapeHtml(s.name)}${
    s.entrant === me ? " (you)" : ""}</td><td class="num">${pointsWords(s.points)}</td><td class="num">${pointsWords(s.buchholz)}</td>${
    h2h ? `<td class="num">${pointsWords(s.head_to_head)}</td>` : ""}<td class="num">${s.played}</td></tr>`).join("");
  return `<table class="list"><thead><tr><th class="num">#</th><th>Player</th><th class="num">Points</th>` +
    `<th class="num"><abbr title="Buchholz: the points of everyone you sat with">Opp. pts</abbr></th>${
      h2h ? '<th class="num"><abbr title="head to head: among players level on points and opponents\' points">H2H</abbr></th>' : ""}` +
    `<th class="num">Games</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function seatWords(s) {
  const name = s.bot ? `<i>${escapeHtml(s.name)}</i>` : escapeHtml(s.name);
  return `<span class="ev-seat">${name}${s.points !== null ? ` <b>${pointsWords(s.points)}</b>` : ""}</span>`;
}

function rounds(ev) {
  if (!ev.played.length) return `<p class="muted">The first round is seated when the host starts the event.</p>`;
  return [...ev.played].reverse().map((r) => `<div class="ev-round"><h3>Round ${r.round}</h3><ul class="ev-tables">${r.tables
    .map((t) => {
      const yours = mine && mine.entrant !== null && t.seats.some((s) => s.entrant === mine.entrant);
      const link = `<a href="/tables/${escapeHtml(t.id)}">${t.over ? "replay" : "watch"}</a>`;
      return `<li class="ev-table${yours ? " mine" : ""}">Table ${t.number}${t.over ? " · finished" : " · playing"} · ${link}` +
        `<div class="ev-seats">${t.seats.map(seatWords).join("")}</div></li>`;
    }).join("")}</ul></div>`).join("");
}

function rulesWords(ev) {
  return "Each table gives event points by place: one point for each table-mate placed below you and half a point " +
    `for each placed level (at a full table of ${ev.players}: ${[...Array(ev.players).keys()].reverse().join(", ")}). ` +
    "Places are the game's own: the winners first, then by score; a player who resigned comes last. " +
    "Players level on points are ordered by their opponents' points (the points of everyone they sat with, " +
    "over all their tables), then head to head (the same count, only among those still level), then by who joined first. " +
    `${ev.seating} The event adds no rating of its own: every game inside it is rated like any other game.`;
}

function mineWords(ev) {
  if (!mine || mine.entrant === null) return "";
  if (ev.state === "open") return `<p>You have joined as <b>${escapeHtml(mine.name)}</b>. Wait here for the host to start.</p>`;
  if (ev.state === "finished") {
    const line = ev.standings.find((s) => s.entrant === mine.entrant);
    return `<p>You finished <b>${line ? ordinal(line.place) : ""}</b> with ${pointsWords(line ? line.points : 0)} points.</p>`;
  }
  const table = ev.played[ev.round - 1].tables.find((t) => t.id === mine.table);
  if (!table) return "";
  const others = table.seats.filter((s) => s.entrant !== mine.entrant).map((s) => (s.bot ? `the ${s.name}` : s.name));
  if (table.over) {
    const next = ev.rounds && ev.round >= ev.rounds ? "The standings are final" : "The next round is seated";
    return `<p>Your game of round ${ev.round} is over. ${next} when every table has finished.</p>`;
  }
  return `<p>Round ${ev.round}: you play at table ${table.number} with ${escapeHtml(listWords(others))}.</p>` +
    `<button type="button" class="primary" id="ev-go">Go to my table</button><p id="ev-go-error" class="error" role="alert"></p>`;
}

// "Bob, Cy and the greedy bot"
function listWords(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

async function goToTable() {
  try {
    const seat = await api(`/api/events/${eventId}/seat`, { method: "POST", headers: { "X-Player": playerCode() } });
    localStorage.setItem(`boneyard.token.${seat.table}`, JSON.stringify({ token: seat.token, seat: seat.seat }));
    localStorage.setItem(`boneyard.claimed.${seat.table}`, seat.token); // the seat is linked to the code already
    location.href = `/tables/${seat.table}`;
  } catch (e) {
    $("ev-go-error").textContent = e.message;
  }
}

function render(ev) {
  document.title = `${ev.name} — boneyard`;
  $("ev-title").textContent = ev.name;
  $("ev-facts").innerHTML = facts(ev);
  $("ev-status").textContent = status(ev);
  $("st-h").textContent = ev.state === "open" ? "Entrants" : "Standings";
  $("ev-standings").innerHTML = standings(ev);
  $("ev-rounds").innerHTML = rounds(ev);
  $("ev-rules").textContent = rulesWords(ev);
  const entered = mine && mine.entrant !== null;
  $("ev-join").hidden = ev.state !== "open" || entered;
  const host = localStorage.getItem(hostKey);
  $("ev-host").hidden = !host || ev.state === "finished";
  $("ev-start").hidden = ev.state !== "open";
  $("ev-host-words").textContent = ev.state === "open"
    ? "Send this page's link to the players. Start when everyone has joined: entries close and the first round's tables are made."
    : "You host every table of this event. If a player does not come, open their table (watch) and hand their seat to a bot " +
      "once they have been away a minute: the round goes on without waiting.";
  if (host) {
    // the event's host token is each of its tables' host token: the table page shows the host's tools
    ev.played.forEach((r) => r.tables.forEach((t) => localStorage.setItem(`boneyard.host.${t.id}`, host)));
  }
  const words = mineWords(ev);
  const focused = document.activeElement && document.activeElement.id === "ev-go";
  $("ev-mine").hidden = !words;
  if ($("ev-mine").dataset.words !== words) {
    $("ev-mine").innerHTML = words;
    $("ev-mine").dataset.words = words;
    const go = $("ev-go");
    if (go) {
      go.addEventListener("click", goToTable);
      if (focused) go.focus();
    }
  }
  const code = playerCode();
  $("ev-join-name-l").hidden = Boolean(code);
  $("ev-join-who").textContent = code ? "You join with the player code kept in this browser." : "";
}

async function load() {
  clearTimeout(timer);
  try {
    const ev = await api(`/api/events/${eventId}`);
    const code = playerCode();
    const now = `${ev.state}:${ev.round}:${code}`;
    if (code && now !== seen) {
      try {
        mine = await api(`/api/events/${eventId}/me`, { headers: { "X-Player": code } });
        seen = now;
      } catch (e) {
        mine = null;
      }
    }
    render(ev);
    if (ev.state !== "finished") timer = setTimeout(load, POLL_MS);
  } catch (e) {
    $("ev-status").textContent = e.status === 404 ? "There is no such event." : `${e.message} (trying again)`;
    if (e.status !== 404) timer = setTimeout(load, POLL_MS);
  }
}

$("ev-join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("ev-join-error").textContent = "";
  try {
    let code = playerCode();
    if (!code) {
      const name = $("ev-join-name").value.trim();
      if (!name) {
        $("ev-join-error").textContent = "Enter your name first.";
        $("ev-join-name").focus();
        return;
      }
      const p = await api("/api/players", { method: "POST", body: JSON.stringify({ name }) });
      localStorage.setItem("boneyard.player", JSON.stringify(p));
      localStorage.setItem("boneyard.name", p.name);
      code = p.code;
    }
    await api(`/api/events/${eventId}/join`, { method: "POST", headers: { "X-Player": code } });
    seen = "";
    await load();
  } catch (e) {
    $("ev-join-error").textContent = e.message;
  }
});

$("ev-start").addEventListener("click", async () => {
  $("ev-host-error").textContent = "";
  try {
    await api(`/api/events/${eventId}/start`, { method: "POST", headers: { "X-Host-Token": localStorage.getItem(hostKey) } });
    await load();
  } catch (e) {
    $("ev-host-error").textContent = e.message;
  }
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});

$("ev-join-name").value = localStorage.getItem("boneyard.name") || "";
api("/api/games").then((list) => {
  game = list.find((g) => g.id) || null;
  return api(`/api/events/${eventId}`).then((ev) => {
    game = list.find((g) => g.id === ev.game) || null;
  });
}).catch(() => {}).finally(load);
