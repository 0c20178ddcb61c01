// Talking to the server: JSON requests with the seat's token, and where the browser keeps
// the token and the player's name. Every page uses these, so the storage keys live here only.

export const NAME_KEY = "boneyard.name";

export function tokenKey(tableId) {
  return `boneyard.token.${tableId}`;
}

// The seat this browser holds at a table: {token, seat}, or null.
export function loadSeat(tableId) {
  try {
    return JSON.parse(localStorage.getItem(tokenKey(tableId)) || "null");
  } catch (e) {
    return null;
  }
}

export function saveSeat(tableId, seat) {
  if (seat) localStorage.setItem(tokenKey(tableId), JSON.stringify(seat));
  else localStorage.removeItem(tokenKey(tableId));
}

export function playerName() {
  return (localStorage.getItem(NAME_KEY) || "").trim();
}

export function savePlayerName(name) {
  localStorage.setItem(NAME_KEY, name.trim());
}

// How long a request may go unanswered before the page gives up on it (ms): a request lost
// on the way (a server that stopped answering, a silent network) must not leave the page
// waiting for good, with every later tap ignored behind it.
export const REQUEST_TIMEOUT_MS = 20000;

// A JSON request; a refusal throws an Error carrying the server's message and status, and a
// request unanswered within REQUEST_TIMEOUT_MS throws one marked `timedOut` (no status).
export async function api(path, options = {}, token = null) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
  let res;
  let body;
  try {
    res = await fetch(path, Object.assign({ headers, signal: abort.signal }, options));
    body = await res.json().catch((e) => {
      if (abort.signal.aborted) throw e; // cut off while the answer was coming
      return {};
    });
  } catch (e) {
    if (!abort.signal.aborted) throw e;
    const err = new Error("The server did not answer in time: try again.");
    err.timedOut = true;
    throw err;
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    const err = new Error(body.detail || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.state = body.state; // 409 from a stale view: the table's current state
    throw err;
  }
  return body;
}
