// The installable app and its notices, on every page that loads this module: the service
// worker (/sw.js) is registered; on the lobby, an offline banner and the "Notices" settings
// panel in the player's area; on a table page, the page tells the server whether it is
// visible, so that no notice is sent to a player who is looking at the table.
import { api, ensurePlayer, playerCode } from "../friends/common.js";

const KINDS = [
  ["turn", "It is my turn"],
  ["join", "Someone joins my table"],
  ["chat", "A chat message at my table"],
  ["end", "A game of mine ends"],
];
const OFFLINE_WORDS = "You are offline: the lobby will refresh when you are back";

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// ----- the lobby ---------------------------------------------------------------------------

function offlineBanner() {
  const box = document.createElement("div");
  box.id = "offline-box";
  box.className = "nt-offline";
  box.setAttribute("role", "status");
  box.innerHTML = `<p id="offline"></p><p class="nt-offline-more">New tables, open tables and bots come back with the
    connection; your name and player code are kept in this browser.</p>`;
  box.querySelector("#offline").textContent = OFFLINE_WORDS;
  document.querySelector(".top").after(box);
  let waiting = null;
  const show = (off) => {
    box.hidden = !off;
    document.body.classList.toggle("offline", off);
    // a server that cannot be reached raises no "online" event when it comes back: ask it now and then
    if (off && !waiting) waiting = setInterval(() => fetch("/api/push/key", { cache: "no-store" }).then((r) => r.ok && location.reload(), () => {}), 10000);
  };
  show(!navigator.onLine);
  window.addEventListener("offline", () => show(true));
  // back online: the lobby's lists were not loaded meanwhile, so load the page again
  window.addEventListener("online", () => location.reload());
  fetch("/api/push/key", { cache: "no-store" }).catch(() => show(true));
}

function b64ToBytes(text) {
  const pad = "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob((text + pad).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function settingsPanel() {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "nt-open";
  button.className = "small nt-open";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "nt-panel");
  button.textContent = "Notices";
  document.querySelector(".top").append(button);

  const panel = document.createElement("section");
  panel.id = "nt-panel";
  panel.className = "panel nt-panel";
  panel.hidden = true;
  panel.setAttribute("aria-labelledby", "nt-title");
  panel.innerHTML = `
    <h2 id="nt-title">Notices</h2>
    <p class="muted">Be told when something happens at your tables, even with this page closed.
      You get nothing while you are looking at the table.</p>
    <fieldset><legend>Tell me when</legend>
      ${KINDS.map(([k, label]) => `<label class="nt-row"><input type="checkbox" name="kind" value="${k}"> ${label}</label>`).join("")}
    </fieldset>
    <fieldset><legend>How</legend>
      <label class="nt-row"><input type="checkbox" id="nt-push"> As a notification on my devices</label>
      <p class="nt-device"><button type="button" id="nt-device" class="small"></button> <span id="nt-device-state"></span></p>
      <label class="nt-row"><input type="checkbox" id="nt-email"> By e-mail, when no device of mine gets them</label>
      <label class="nt-row nt-address">E-mail address <input type="email" id="nt-address" autocomplete="email" maxlength="254" placeholder="ann@example.org"></label>
      <p id="nt-email-state" class="muted"></p>
    </fieldset>
    <p class="nt-actions"><button type="button" id="nt-save" class="primary">Save</button>
      <button type="button" id="nt-close" class="small">Close</button></p>
    <p id="nt-status" role="status"></p>`;
  document.querySelector("main").prepend(panel);

  const status = panel.querySelector("#nt-status");
  let server = { key: "", email_available: false };
  let settings = null;

  async function load() {
    status.textContent = "";
    try {
      server = await api("/api/push/key");
    } catch (e) {
      status.textContent = "The server cannot be reached: notices can be set once you are back online.";
      return;
    }
    const code = playerCode();
    settings = code ? await api("/api/players/me/notices", { headers: { "X-Player": code } }).catch(() => null) : null;
    const s = settings || { kinds: KINDS.map(([k]) => k), push: true, email: true, address: null, address_confirmed: false, subscriptions: 0 };
    panel.querySelectorAll("input[name=kind]").forEach((box) => (box.checked = s.kinds.includes(box.value)));
    panel.querySelector("#nt-push").checked = s.push;
    panel.querySelector("#nt-email").checked = s.email;
    panel.querySelector("#nt-address").value = s.address || "";
    emailWords(s);
    await deviceWords();
  }

  function emailWords(s) {
    const el = panel.querySelector("#nt-email-state");
    const email = panel.querySelector("#nt-email");
    const address = panel.querySelector("#nt-address");
    email.disabled = address.disabled = !server.email_available;
    if (!server.email_available) el.textContent = "This server sends no e-mail (it has no mail server set up).";
    else if (!s.address) el.textContent = "Give an address to get e-mail. We send a link to it first, to confirm it is yours.";
    else if (!s.address_confirmed) el.textContent = `We sent a link to ${s.address}: open it to confirm the address. Until then no notice goes there.`;
    else el.textContent = `E-mail goes to ${s.address} (confirmed). Each one has a link to stop them.`;
  }

  async function currentSubscription() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
    const reg = await navigator.serviceWorker.getRegistration("/");
    return reg ? reg.pushManager.getSubscription() : null;
  }

  async function deviceWords() {
    const btn = panel.querySelector("#nt-device");
    const state = panel.querySelector("#nt-device-state");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      btn.hidden = true;
      state.textContent = "This browser cannot show notices from a web page; ask for e-mail instead.";
      return;
    }
    btn.hidden = false;
    const sub = await currentSubscription().catch(() => null);
    btn.textContent = sub ? "Stop notices on this device" : "Get notices on this device";
    const others = settings ? settings.subscriptions - (sub ? 1 : 0) : 0;
    state.textContent = (sub ? "This device gets notices." : "This device gets none yet.") +
      (others > 0 ? ` ${others} other device${others === 1 ? "" : "s"} of yours ${others === 1 ? "does" : "do"}.` : "");
  }

  async function toggleDevice() {
    const state = panel.querySelector("#nt-device-state");
    const code = await ensurePlayer();
    if (!code) {
      state.textContent = "No player code could be made: try again in a moment.";
      return;
    }
    try {
      const sub = await currentSubscription();
      if (sub) {
        await api("/api/players/me/push", { method: "DELETE", headers: { "X-Player": code }, body: JSON.stringify({ endpoint: sub.endpoint }) }).catch(() => {});
        await sub.unsubscribe();
      } else {
        // asked only now, after the player pressed the button: never an unasked prompt
        const allowed = await Notification.requestPermission();
        if (allowed !== "granted") {
          state.textContent = "Notices are blocked for this site: allow them in the browser's site settings, or ask for e-mail.";
          return;
        }
        const reg = await navigator.serviceWorker.ready;
        const made = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(server.key) });
        await api("/api/players/me/push", { method: "POST", headers: { "X-Player": code }, body: JSON.stringify(made.toJSON()) });
      }
      settings = await api("/api/players/me/notices", { headers: { "X-Player": code } });
      await deviceWords();
    } catch (e) {
      state.textContent = `This browser could not subscribe to notices (${e.message}). E-mail still works.`;
    }
  }

  async function save() {
    status.textContent = "Saving…";
    const code = await ensurePlayer();
    if (!code) {
      status.textContent = "No player code could be made: try again in a moment.";
      return;
    }
    const body = {
      kinds: [...panel.querySelectorAll("input[name=kind]:checked")].map((b) => b.value),
      push: panel.querySelector("#nt-push").checked,
      email: panel.querySelector("#nt-email").checked,
      address: server.email_available ? panel.querySelector("#nt-address").value.trim() || null : (settings ? settings.address : null),
    };
    try {
      settings = await api("/api/players/me/notices", { method: "PUT", headers: { "X-Player": code }, body: JSON.stringify(body) });
      emailWords(settings);
      status.textContent = "Saved.";
    } catch (e) {
      status.textContent = e.message;
    }
  }

  function open(show) {
    panel.hidden = !show;
    button.setAttribute("aria-expanded", String(show));
    if (show) {
      load().then(() => panel.querySelector("input[name=kind]").focus());
    } else button.focus();
  }

  button.addEventListener("click", () => open(panel.hidden));
  panel.querySelector("#nt-close").addEventListener("click", () => open(false));
  panel.querySelector("#nt-save").addEventListener("click", save);
  panel.querySelector("#nt-device").addEventListener("click", toggleDevice);
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") open(false);
  });
  if (location.hash === "#notices") open(true);
}

// ----- a table page -------------------------------------------------------------------------

function tellVisibility(tableId) {
  const seat = () => {
    try {
      return JSON.parse(localStorage.getItem(`boneyard.token.${tableId}`) || "null");
    } catch (e) {
      return null;
    }
  };
  const tell = () => {
    const mine = seat();
    if (!mine || !mine.token) return;
    fetch(`/api/tables/${encodeURIComponent(tableId)}/looking`, {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${mine.token}` },
      body: JSON.stringify({ visible: document.visibilityState === "visible" }),
    }).catch(() => {});
  };
  document.addEventListener("visibilitychange", tell);
  tell();
}

const onTable = location.pathname.match(/^\/tables\/([^/]+)$/);
if (onTable) tellVisibility(decodeURIComponent(onTable[1]));
else if (document.body.classList.contains("lobby")) {
  offlineBanner();
  settingsPanel();
}
