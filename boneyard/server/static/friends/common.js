// Shared by the friends' scripts: the API helper, the player's code and the copy-link button.

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export async function api(path, options = {}) {
  const headers = Object.assign({ "Content-Type": "application/json" }, options.headers || {});
  const res = await fetch(path, Object.assign({}, options, { headers }));
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(body.detail || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

export function playerCode() {
  try {
    const p = JSON.parse(localStorage.getItem("boneyard.player") || "null");
    return p ? p.code : null;
  } catch (e) {
    return null;
  }
}

// The player's secret code, registering a new player (under the saved name) the first time.
export async function ensurePlayer() {
  const have = playerCode();
  if (have) return have;
  const name = localStorage.getItem("boneyard.name") || "player";
  try {
    const p = await api("/api/players", { method: "POST", body: JSON.stringify({ name }) });
    localStorage.setItem("boneyard.player", JSON.stringify(p));
    return p.code;
  } catch (e) {
    return null;
  }
}

let publicUrl = null;

async function base() {
  if (publicUrl === null) {
    try {
      publicUrl = (await api("/api/config")).public_url || "";
    } catch (e) {
      publicUrl = "";
    }
  }
  return publicUrl || location.origin;
}

// Copy a link to the clipboard; where the browser refuses (a plain http address on the
// LAN has no clipboard API), show the link selected in a text field to copy by hand.
export async function copyLink(path, button) {
  const url = (await base()) + path;
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(url);
      copied = true;
    }
  } catch (e) {
    copied = false;
  }
  let box = button.parentElement.querySelector(".copy-fallback");
  if (copied) {
    if (box) box.remove();
    button.textContent = "copied";
    setTimeout(() => (button.textContent = "copy link"), 2500);
    return;
  }
  if (!box) {
    box = document.createElement("span");
    box.className = "copy-fallback";
    box.innerHTML = `<label>Copy this link (Ctrl+C): <input readonly size="32"></label>`;
    button.after(box);
  }
  const input = box.querySelector("input");
  input.value = url;
  input.focus();
  input.select();
  button.textContent = "copy link";
}
