// The lobby's friends' parts: the copy-link buttons give the public address (and a visible
// fallback), the host token of a new table is kept, and links to "My games", the club events and the leaderboards.
import { copyLink } from "./common.js";

document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest("button.copy");
  if (!b) return;
  ev.stopPropagation(); // lobby.js's own handler would copy the address the page was opened at
  copyLink(b.dataset.link, b);
}, true);

const nav = document.createElement("nav");
nav.className = "fr-nav";
nav.innerHTML = `<a href="/me">My games</a> · <a href="/events">Club events</a> · Leaderboards: <span id="fr-boards"></span>`;
const header = document.querySelector(".top");
if (header) header.append(nav);
fetch("/api/games").then((r) => r.json()).then((games) => {
  const el = document.getElementById("fr-boards");
  el.replaceChildren(...games.flatMap((g, i) => {
    const a = document.createElement("a");
    a.href = `/leaderboard/${g.id}`;
    a.textContent = g.name;
    return i ? [document.createTextNode(", "), a] : [a];
  }));
}).catch(() => {});

// A filter by game over the open tables, finished tables moved to a history list.
const tablesSection = document.getElementById("tables-section");
let names = {};
if (tablesSection) {
  const bar = document.createElement("p");
  bar.innerHTML = `<label>Show <select id="fr-filter"><option value="">all games</option></select></label>`;
  tablesSection.querySelector("h2").after(bar);
  const history = document.createElement("section");
  history.id = "history-section";
  history.innerHTML = `<h2>Finished tables</h2><div id="fr-history"></div>`;
  tablesSection.after(history);
  const filter = document.getElementById("fr-filter");
  fetch("/api/games").then((r) => r.json()).then((games) => {
    games.forEach((g) => {
      names[g.id] = g.name;
      const o = document.createElement("option");
      o.value = g.id;
      o.textContent = g.name;
      filter.append(o);
    });
    const wanted = new URLSearchParams(location.search).get("game");
    if (wanted && names[wanted]) filter.value = wanted;
    applyFilter();
    loadHistory();
  });
  filter.addEventListener("change", () => {
    applyFilter();
    loadHistory();
  });
  const list = document.getElementById("tables");
  new MutationObserver(applyFilter).observe(list, { childList: true });
  setInterval(loadHistory, 15000);
}

function applyFilter() {
  const game = document.getElementById("fr-filter").value;
  const rows = [...document.querySelectorAll("#tables tbody tr")];
  let shown = 0;
  rows.forEach((tr) => {
    const cells = tr.querySelectorAll("td");
    const finished = cells[2] && cells[2].textContent.trim() === "finished";
    const other = game && !cells[0].textContent.startsWith(names[game] || game);
    tr.hidden = finished || !!other;
    if (!tr.hidden) shown += 1;
  });
  let none = document.getElementById("fr-none");
  if (!none) {
    none = document.createElement("p");
    none.id = "fr-none";
    none.className = "muted";
    none.textContent = "No open table: create one above.";
    document.getElementById("tables").after(none);
  }
  none.hidden = shown > 0 || !!document.getElementById("no-tables"); // lobby.js already says it
}

async function loadHistory() {
  const game = document.getElementById("fr-filter").value;
  const el = document.getElementById("fr-history");
  try {
    const res = await fetch("/api/history" + (game ? `?game=${encodeURIComponent(game)}` : ""));
    const rows = await res.json();
    if (!rows.length) {
      el.innerHTML = `<p class="muted">No finished table yet.</p>`;
      return;
    }
    const table = document.createElement("table");
    table.className = "list";
    // the game's name is the replay link: four columns fit a phone
    table.innerHTML = "<thead><tr><th>Game (replay)</th><th>Players</th><th>Winner</th><th>Finished</th></tr></thead>";
    const body = document.createElement("tbody");
    rows.forEach((t) => {
      const tr = document.createElement("tr");
      const g = document.createElement("td");
      const a = document.createElement("a");
      a.href = `/tables/${t.id}`;
      a.title = "replay this game";
      a.textContent = names[t.game] || t.game;
      g.append(a);
      if (t.fixed_deal) g.append(" (fixed deal)");
      const who = document.createElement("td");
      who.textContent = t.seats.join(", ");
      const won = document.createElement("td");
      won.className = "fr-winner";
      won.textContent = winnerWords(t.winners);
      const when = document.createElement("td");
      when.className = "fr-finished";
      when.textContent = startedWords(t.finished || t.created);
      tr.append(g, who, won, when);
      body.append(tr);
    });
    table.append(body);
    el.replaceChildren(table);
  } catch (e) {
    /* the next refresh tries again */
  }
}

// Who won, by name: "Ann", "Ann and Cy" (a side, or a shared win); "—" when the server could not tell.
function winnerWords(winners) {
  if (!winners || !winners.length) return "—";
  if (winners.length === 1) return winners[0];
  return `${winners.slice(0, -1).join(", ")} and ${winners[winners.length - 1]}`;
}

// When a table was made or finished, as a player reads a date: "today 14:05", "yesterday 09:30", "3 Nov".
function startedWords(created) {
  if (!created) return "";
  const d = new Date(created * 1000);
  const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const day = (x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(new Date()) - day(d)) / 86400000);
  if (days === 0) return `today ${time}`;
  if (days === 1) return `yesterday ${time}`;
  return d.toLocaleDateString([], { day: "numeric", month: "short", year: days > 300 ? "numeric" : undefined });
}
