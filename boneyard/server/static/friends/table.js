// Playing with friends, on the table page: seats with presence, the host's Start and
// stand-in bots, leaving, the move clock, chat with muting, rematch, turn alerts, the
// player's code and the copy-link button. It keeps its own WebSocket (/ws/friends/ID):
// the game's own page script (table.js) is left as it is.
import { api, copyLink, ensurePlayer, escapeHtml, playerCode } from "./common.js";
import { installKeys } from "./keys.js";
import { clockWords, leftWords } from "../core/clockwords.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const tokenKey = `boneyard.token.${tableId}`;
const hostKey = `boneyard.host.${tableId}`;
const prefs = JSON.parse(localStorage.getItem("boneyard.alerts") || "{}");
let room = null;
let ws = null;
let retry = 500;
let mySeat = readSeat();
let myToken = mySeat ? mySeat.token : null;
let declinedRematch = false; // this page said no to the rematch: its Decline button stays away
let wasMyTurn = false;
let tick = null;

function readSeat() {
  try {
    return JSON.parse(localStorage.getItem(tokenKey) || "null");
  } catch (e) {
    return null;
  }
}

function muted() {
  return new Set(JSON.parse(localStorage.getItem("boneyard.muted") || "[]"));
}

function auth() {
  const h = {};
  if (mySeat) h.Authorization = `Bearer ${mySeat.token}`;
  const host = localStorage.getItem(hostKey);
  if (host) h["X-Host-Token"] = host;
  return h;
}

function panel() {
  let box = document.getElementById("friends");
  if (!box) {
    box = document.createElement("section");
    box.id = "friends";
    box.className = "panel friends";
    box.setAttribute("aria-label", "players and chat");
    const side = document.querySelector(".side") || document.body;
    side.prepend(box);
    const top = document.createElement("div");
    top.id = "fr-banner";
    top.setAttribute("role", "status");
    const status = document.getElementById("status");
    if (status) status.before(top);
    else box.before(top);
    box.innerHTML = `<div id="fr-tools"></div><ul id="fr-seats" class="fr-seats"></ul>
      <p id="fr-clock" class="fr-clock" aria-live="polite"></p><div id="fr-mine"></div>
      <h3 class="fr-h">Chat</h3><ol id="fr-log" class="fr-log" aria-live="polite"></ol>
      <form id="fr-chat" class="fr-chat"><label class="sr" for="fr-text">Message</label>
      <input id="fr-text" maxlength="300" autocomplete="off" placeholder="Say something"><button type="submit">Send</button></form>
      <p id="fr-error" class="error" role="alert"></p>
      <details class="fr-alerts"><summary>Alerts and your code</summary>
      <label><input type="checkbox" id="fr-sound"> sound on your turn</label>
      <label><input type="checkbox" id="fr-notify"> browser notification on your turn</label>
      <p id="fr-code" class="muted"></p></details>`;
    document.getElementById("fr-chat").addEventListener("submit", sendChat);
    const sound = document.getElementById("fr-sound");
    const notify = document.getElementById("fr-notify");
    sound.checked = !!prefs.sound;
    notify.checked = !!prefs.notify && "Notification" in window && Notification.permission === "granted";
    sound.addEventListener("change", () => savePref("sound", sound.checked));
    notify.addEventListener("change", async () => {
      if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
        notify.checked = (await Notification.requestPermission()) === "granted";
      }
      savePref("notify", notify.checked);
    });
  }
  return box;
}

function savePref(key, value) {
  prefs[key] = value;
  localStorage.setItem("boneyard.alerts", JSON.stringify(prefs));
}

function say(message) {
  document.getElementById("fr-error").textContent = message;
}

async function post(path, body) {
  say("");
  try {
    return await api(path, { method: "POST", headers: auth(), body: JSON.stringify(body || {}) });
  } catch (e) {
    say(e.message);
    return null;
  }
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = document.getElementById("fr-text");
  const text = input.value.trim();
  if (!text) return;
  if (!mySeat) mySeat = readSeat(); // joined a moment ago: the seat watcher has not run yet
  if (!mySeat) return say("Take a seat to chat; watchers can read.");
  if (await post(`/api/tables/${tableId}/chat`, { text })) input.value = "";
}

function seatLine(s, isHost) {
  const li = document.createElement("li");
  const ending = !!document.body.dataset.ending; // the table page shows a hand's end: nobody is to play
  li.className = "fr-seat" + (room.current_player === s.seat && room.started && !room.between_hands && !ending ? " fr-turn" : "");
  li.dataset.seat = s.seat;
  const here = s.present ? "here" : "away";
  const dot = document.createElement("span");
  dot.className = `fr-dot ${here}`;
  dot.setAttribute("role", "img");
  dot.setAttribute("aria-label", here);
  dot.title = here;
  li.append(dot, " ");
  const name = document.createElement("span");
  name.className = "fr-name";
  // the board's names: two seats of the same name (three "greedy bot"s) get their seat number
  const twins = s.name && room.seats.filter((x) => x.name === s.name).length > 1;
  name.textContent = s.joined ? (twins ? `${s.name} ${s.seat}` : s.name)
    : s.reserved_for ? `kept for ${s.reserved_for}` : "open seat";
  li.append(name);
  if (s.account === "bot") {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "bot";
    badge.title = "a bot account: a program its owner connects to this server";
    li.append(" ", badge);
  }
  const notes = [];
  const resigned = (room.resigned || []).includes(s.seat);
  if (resigned) notes.push(`resigned: ${s.standin} bot plays`);
  else if (s.standin) notes.push(s.left ? `left: ${s.standin} bot plays` : `${s.standin} bot plays`);
  if (s.rating) notes.push(`rating ${s.rating.rating}${s.rating.provisional ? " provisional" : ""}`);
  if (notes.length) {
    const note = document.createElement("span");
    note.className = "muted";
    note.textContent = ` (${notes.join(", ")})`;
    li.append(note);
  }
  const mine = mySeat && mySeat.seat === s.seat;
  const button = (label, fn) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.textContent = label;
    b.addEventListener("click", fn);
    li.append(" ", b);
  };
  if (s.kind === "human" && s.joined && !room.is_over && !resigned) {
    if (s.standin && (isHost || mine)) button(mine ? "play again" : `give back to ${s.name}`, () =>
      post(`/api/tables/${tableId}/standin`, { seat: s.seat, bot: null }));
    else if (!s.standin && mine && room.started) button("leave (a bot plays)", () => {
      // one Enter must not hand a whole game to a bot: leaving asks first, as resigning does
      if (confirm(`Leave this game? A ${botChoice()} bot plays your seat until you press "Take my seat back".`)) {
        post(`/api/tables/${tableId}/standin`, { seat: s.seat, bot: botChoice() });
      }
    });
    else if (!s.standin && isHost && !mine && !s.present) button("bot plays", () =>
      post(`/api/tables/${tableId}/standin`, { seat: s.seat, bot: botChoice() }));
    if (mine && room.started && !room.decided) button("resign", () => {
      if (confirm("Resign this game? A bot plays your seat to the end, you rank last, and you cannot take it back.")) {
        post(`/api/tables/${tableId}/resign`);
      }
    });
  }
  if (s.kind === "human" && s.joined && !mine) {
    const m = muted();
    button(m.has(s.name) ? `unmute` : `mute`, () => {
      const set = muted();
      if (set.has(s.name)) set.delete(s.name);
      else set.add(s.name);
      localStorage.setItem("boneyard.muted", JSON.stringify([...set]));
      render();
    });
  }
  return li;
}

// This player's seat played by a bot (left, or resigned): the table page (core/table.js)
// reads body[data-away] so that it stops saying "Your turn", and the banner at the top of
// the page, above the board on a phone, offers the way back.
function markAway(banner) {
  const seat = mySeat ? room.seats[mySeat.seat] : null;
  const resigned = seat && (room.resigned || []).includes(seat.seat);
  const away = seat && seat.standin && !room.is_over ? (resigned ? "resigned" : seat.standin) : "";
  if ((document.body.dataset.away || "") !== away) {
    if (away) document.body.dataset.away = away;
    else delete document.body.dataset.away;
    document.dispatchEvent(new CustomEvent("boneyard:away"));
  }
  if (!away || resigned) return;
  banner.className = "fr-banner";
  banner.innerHTML = `<strong>You left the game:</strong> a ${escapeHtml(seat.standin)} bot plays your seat. `;
  const back = document.createElement("button");
  back.type = "button";
  back.className = "primary";
  back.id = "fr-back";
  back.textContent = "Take my seat back";
  back.addEventListener("click", () => post(`/api/tables/${tableId}/standin`, { seat: seat.seat, bot: null }));
  banner.append(back);
}

function botChoice() {
  const pick = document.getElementById("fr-bot");
  return pick ? pick.value : "greedy";
}

function render() {
  if (!room) return;
  panel();
  const isHost = !!localStorage.getItem(hostKey);
  const banner = document.getElementById("fr-banner");
  banner.innerHTML = "";
  banner.className = "";
  if (!room.started) {
    const open = room.seats.filter((s) => !s.joined).map((s) => s.seat);
    banner.className = "fr-banner";
    banner.innerHTML = `<strong>Waiting for players</strong> (${open.length} open seat${open.length === 1 ? "" : "s"}).
      The game starts when every seat is taken${isHost ? " or when you press Start" : " or the host starts it"}.`;
    if (isHost) {
      const row = document.createElement("p");
      row.innerHTML = `<label>Empty seats get <select id="fr-bot">${["greedy", "ismcts", "random"]
        .map((b) => `<option>${b}</option>`).join("")}</select> bots</label> <button id="fr-start" class="primary" type="button">Start</button>`;
      banner.append(row);
      document.getElementById("fr-start").addEventListener("click", () =>
        post(`/api/tables/${tableId}/start`, { bot: botChoice() }));
    }
  }
  if (room.decided && !room.is_over) {
    const names = room.decided.map((n) => room.seats[n].name).join(" and ");
    banner.className = "fr-banner";
    banner.innerHTML = `<strong>${escapeHtml(names)} ${room.decided.length > 1 ? "win" : "wins"}</strong>:
      the others resigned. The result is counted; you may play on against the bots or leave.`;
  }
  markAway(banner);
  document.body.classList.toggle("fr-waiting", !room.started);
  const tools = document.getElementById("fr-tools");
  if (room.started && isHost && !room.is_over) {
    if (!tools.querySelector("#fr-bot")) {
      tools.innerHTML = `<label class="muted">Stand-in bot <select id="fr-bot">${["greedy", "ismcts", "random"]
        .map((b) => `<option>${b}</option>`).join("")}</select></label>`;
    }
  } else tools.innerHTML = "";
  if ((room.is_over || room.decided) && mySeat) {
    const box = document.createElement("span");
    box.className = "fr-rematch";
    banner.className = "fr-banner";
    if (room.rematch) {
      box.innerHTML = `<strong>${escapeHtml(room.rematch_by)}</strong> proposes a rematch. `;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.id = "fr-accept";
      b.textContent = "Accept rematch";
      b.addEventListener("click", acceptRematch);
      box.append(b);
      if (!declinedRematch && room.seats[mySeat.seat]?.name !== room.rematch_by) {
        const no = document.createElement("button");
        no.type = "button";
        no.id = "fr-decline";
        no.textContent = "Decline";
        no.title = "Your seat is kept for you for two minutes; declining opens it to anyone now";
        no.addEventListener("click", declineRematch);
        box.append(" ", no);
      }
    } else if (room.seats.some((x) => x.account === "bot")) {
      // a bot account answers challenges, not rematches: the lobby's "Play a bot" challenges it again
      const a = document.createElement("a");
      a.className = "button primary";
      a.id = "fr-rematch-bot";
      a.href = "/#bots-section";
      a.textContent = "Play the bot again";
      box.append(a, " a new challenge from the lobby");
    } else {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.id = "fr-rematch";
      b.textContent = "Rematch";
      b.addEventListener("click", proposeRematch);
      box.append(b, " same seats and rules, the deal rotated");
    }
    banner.append(box);
  }
  const list = document.getElementById("fr-seats");
  list.replaceChildren(...room.seats.map((s) => seatLine(s, isHost)));
  const hidden = muted();
  const log = document.getElementById("fr-log");
  log.replaceChildren(...room.log.filter((e) => !(e.kind === "chat" && hidden.has(e.name))).map((e) => {
    const li = document.createElement("li");
    li.className = e.kind === "chat" ? "fr-msg" : "fr-news";
    if (e.kind === "chat") {
      const who = document.createElement("b");
      who.textContent = e.name + ": ";
      li.append(who, document.createTextNode(e.text));
    } else li.textContent = e.text;
    return li;
  }));
  log.scrollTop = log.scrollHeight;
  const code = playerCode();
  document.getElementById("fr-code").textContent = code
    ? `Your player code: ${code}. Enter it under "My games" on another device to continue there.`
    : "Take a seat to get a player code.";
  clock();
  alerts();
}

// Seconds left of the running decision's clock now: counted down from the server's `left`
// (its own time, perhaps not the phone's) since the room arrived.
let leftAt = { left: null, at: 0 };

function secondsLeft() {
  if (leftAt.left === null) return 0;
  return Math.max(0, leftAt.left - (performance.now() - leftAt.at) / 1000);
}

// A turn-based clock in words: whose move, how long they have, and each player's bank.
function slowText() {
  const who = room.seats[room.current_player];
  const name = who ? who.name : "?";
  const words = leftWords(secondsLeft());
  const mine = myTurn();
  const pace = `Turn-based: ${clockWords(room.clock, room.per_game)}.`;
  if (!room.deadline || !room.started || room.is_over) return pace;
  const turn = room.per_game
    ? (mine ? `Your move: ${words} left of your time for the game.` : `${name} has ${words} left for the game.`)
    : (mine ? `Your move: ${words} left.` : `${name} has ${words} left to move.`);
  const banks = room.banks
    ? ` Time left: ${room.seats.filter((s) => s.kind === "human").map((s) =>
      `${s.name || "open seat"} ${leftWords(s.seat === room.current_player ? secondsLeft() : room.banks[s.seat])}`).join(", ")}.`
    : "";
  const after = room.per_game ? " Whoever runs out of time loses, as if they resigned." : " Then a bot plays that move.";
  return `${turn}${banks} ${pace}${after}`;
}

function clock() {
  const el = document.getElementById("fr-clock");
  clearInterval(tick);
  leftAt = { left: room.left ?? null, at: performance.now() };
  if (room.turn_based) {
    const show = () => {
      el.textContent = slowText();
      boardClock();
    };
    show();
    tick = setInterval(show, 1000);
    return;
  }
  if (!room.deadline || !room.started || room.is_over) {
    el.textContent = room.clock ? `Move clock: ${room.clock} s a decision` : "";
    return;
  }
  const show = () => {
    const left = Math.ceil(secondsLeft());
    const who = room.seats[room.current_player];
    el.textContent = `${who ? who.name : "?"}: ${left} s left, then a bot plays`;
    boardClock();
  };
  show();
  tick = setInterval(show, 1000);
}

// The move clock on the board as well, on the panel of the seat it runs for (as BGA and
// lichess show it): a phone shows the board, not the side column. Under 10 s it turns red.
function boardClock() {
  const running = room && room.deadline && room.started && !room.is_over && !room.between_hands;
  const box = running ? document.querySelector(`#board [data-seatbox="${room.current_player}"]`) : null;
  document.querySelectorAll("#board .seatclock").forEach((x) => x.closest("[data-seatbox]") !== box && x.remove());
  if (!box) return;
  const left = Math.ceil(secondsLeft());
  let el = box.querySelector(".seatclock");
  if (!el) {
    el = document.createElement("div");
    el.className = "seatclock";
    box.append(el);
  }
  // a turn-based move turns red in its last hour, a real-time one in its last 10 s
  el.classList.toggle("low", left <= (room.turn_based ? 3600 : 10));
  el.textContent = room.turn_based ? `${leftWords(left)} left` : `${left} s left`;
  el.title = room.per_game ? `${leftWords(left)} left for the whole game`
    : `${room.turn_based ? leftWords(left) : `${left} s`} left to decide, then a bot plays`;
}

function myTurn() {
  return !!mySeat && room.started && !room.is_over && !room.between_hands && room.current_player === mySeat.seat &&
    !room.seats[mySeat.seat].standin;
}

function alerts() {
  const mine = myTurn();
  applyTitle(mine);
  setFavicon(mine);
  if (mine && !wasMyTurn) {
    if (prefs.sound) beep();
    if (prefs.notify && "Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification("boneyard: your turn", { body: document.title.replace(/^● /, ""), tag: tableId });
    }
  }
  wasMyTurn = mine;
}

function applyTitle(mine) {
  const t = document.title.replace(/^● Your turn — /, "");
  const want = mine ? `● Your turn — ${t}` : t;
  if (document.title !== want) document.title = want;
}

function setFavicon(mine) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  const fill = mine ? "#d97706" : "#1f5f46";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="1" width="14" height="14" rx="3" fill="${fill}"/>` +
    (mine ? `<circle cx="8" cy="8" r="3" fill="#fff"/>` : "") + "</svg>";
  link.href = "data:image/svg+xml," + encodeURIComponent(svg);
  link.dataset.turn = mine ? "yes" : "no";
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
  } catch (e) {
    /* no audio: the title and favicon still show the turn */
  }
}

async function proposeRematch() {
  const r = await post(`/api/tables/${tableId}/rematch`);
  if (r) goTo(r);
}

async function acceptRematch() {
  const r = await post(`/api/tables/${tableId}/rematch/accept`);
  if (r) goTo(r);
}

async function declineRematch() {
  if (await post(`/api/tables/${tableId}/rematch/decline`)) {
    declinedRematch = true;
    document.getElementById("fr-decline")?.remove();
  }
}

function goTo(r) {
  localStorage.setItem(`boneyard.token.${r.id}`, JSON.stringify({ seat: r.seat, token: r.token }));
  if (r.host_token) localStorage.setItem(`boneyard.host.${r.id}`, r.host_token);
  location.href = `/tables/${r.id}`;
}

async function claim() {
  if (!mySeat) return;
  const key = `boneyard.claimed.${tableId}`;
  if (localStorage.getItem(key) === mySeat.token) return;
  const code = await ensurePlayer();
  if (!code) return;
  try {
    await api(`/api/tables/${tableId}/claim`, { method: "POST", headers: { ...auth(), "X-Player": code } });
    localStorage.setItem(key, mySeat.token);
  } catch (e) {
    /* a code from another server's database: the seat is simply not linked */
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = mySeat ? `?token=${encodeURIComponent(mySeat.token)}` : "";
  ws = new WebSocket(`${proto}://${location.host}/ws/friends/${encodeURIComponent(tableId)}${q}`);
  ws.onopen = () => (retry = 500);
  ws.onmessage = (ev) => {
    room = JSON.parse(ev.data);
    render();
  };
  ws.onclose = (ev) => {
    if (ev.code >= 4400 && ev.code < 4500 && ev.code !== 4403) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function watchSeat() {
  // table.js keeps the seat token when the player joins on this page: reconnect as that seat
  setInterval(() => {
    const now = readSeat();
    if ((now ? now.token : null) !== myToken) {
      mySeat = now;
      myToken = now ? now.token : null;
      claim();
      if (ws) {
        ws.onclose = null;
        ws.close();
      }
      connect();
    }
  }, 700);
}

function share() {
  const button = document.getElementById("share");
  if (!button) return;
  button.onclick = () => copyLink(`/tables/${tableId}`, button);
}

new MutationObserver(() => room && applyTitle(myTurn())).observe(document.querySelector("title"), { childList: true });

installKeys();
document.addEventListener("boneyard:render", () => {
  if (!room) return;
  boardClock(); // the board was drawn anew
  const ending = !!document.body.dataset.ending;
  document.querySelectorAll("#fr-seats .fr-seat").forEach((li) =>
    li.classList.toggle("fr-turn", !ending && !room.between_hands && room.started && String(room.current_player) === li.dataset.seat));
});
share();
claim();
connect();
watchSeat();
