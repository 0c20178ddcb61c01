// The lobby's friends' parts: the copy-link buttons give the public address (and a visible
// fallback), the host token of a new table is kept, and links to "My games" and the leaderboards.
import { copyLink } from "./common.js";

document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest("button.copy");
  if (!b) return;
  ev.stopPropagation(); // lobby.js's own handler would copy the address the page was opened at
  copyLink(b.dataset.link, b);
}, true);

const nav = document.createElement("nav");
nav.className = "fr-nav";
nav.innerHTML = `<a href="/me">My games</a> · Leaderboards: <span id="fr-boards"></span>`;
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
