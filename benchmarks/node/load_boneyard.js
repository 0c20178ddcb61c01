// Drives N boneyard tables: per table one human acting 1-3 s after its turn comes (POST with
// expected_version, timed from sending to the answer) and pressing "Next hand" 1-3 s after a
// hand ends, three greedy bots on the server (its default delay), two spectators on
// WebSockets. The same pattern as load_bgio.js. A finished game is replaced by a new table.
// Usage: node load_boneyard.js URL[,URL...] TABLES RAMP_S MEASURE_S
// With several URLs (processes on one PostgreSQL) a table's WebSocket is on one process
// and its POSTs go to the next. Prints {"moves", "p50", "p99", "errors", "lost", "stalled"}:
// lost counts tables whose stored version is behind an acknowledged one, stalled the tables
// whose human saw no new state in the last 15 s of the run (a table that stops loads nothing).
const WebSocket = require("ws");

const [urls, tables, ramp, measure] = [process.argv[2].split(","), Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const latencies = [];
const acked = new Map();
let measuring = false;
let stopping = false;
let errors = 0;
const sockets = [];
const lastSeen = new Map(); // slot -> when its human last received a new state

async function call(base, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + path, body ? { method: "POST", headers, body: JSON.stringify(body) } : { headers });
  return [res.status, await res.json()];
}

function open(url, onMessage) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on("message", onMessage || (() => {}));
  ws.on("error", () => {});
  sockets.push(ws);
  return ws;
}

async function seat(slot) {
  const wsBase = urls[slot % urls.length].replace("http", "ws");
  const http = urls[(slot + 1) % urls.length];
  let status, body;
  try {
    [status, body] = await call(http, "/api/tables", { game: "rounce", players: 4, seats: ["human", "bot:greedy", "bot:greedy", "bot:greedy"] });
    const id = body.id;
    [status, body] = await call(http, `/api/tables/${id}/join`, { name: `h${slot}` });
    const token = body.token;
    const watchers = [open(`${wsBase}/ws/tables/${id}`), open(`${wsBase}/ws/tables/${id}`)];
    let acted = -1;
    let pressed = 0;
    const human = open(`${wsBase}/ws/tables/${id}?token=${token}`, (data) => {
      const s = JSON.parse(data);
      lastSeen.set(slot, performance.now());
      if (s.between_hands && s.between_hands.waiting.includes(0) && s.between_hands.hand > pressed) {
        pressed = s.between_hands.hand; // the player reads the hand's result, then presses Next hand
        setTimeout(() => {
          if (!stopping) call(http, `/api/tables/${id}/next`, { hand: pressed }, token).catch(() => errors++);
        }, 1000 + Math.random() * 2000);
        return;
      }
      if (s.is_over) {
        [human, ...watchers].forEach((w) => w.close());
        if (!stopping) seat(slot);
        return;
      }
      if (s.current_player !== 0 || s.version <= acted || !s.legal_actions.length) return;
      acted = s.version;
      setTimeout(async () => {
        if (stopping) return;
        const action = s.legal_actions[Math.floor(Math.random() * s.legal_actions.length)];
        const started = performance.now();
        try {
          const [st, b] = await call(http, `/api/tables/${id}/actions`, { action, expected_version: s.version }, token);
          if (measuring) latencies.push(performance.now() - started);
          if (st === 200) acked.set(id, Math.max(acked.get(id) || 0, b.version));
          else if (st !== 409) errors++;
          if (process.env.DEBUG_LOAD && st !== 200) console.error(id, st, JSON.stringify(b).slice(0, 300));
        } catch (e) {
          errors++;
        }
      }, 1000 + Math.random() * 2000);
    });
  } catch (e) {
    errors++;
  }
}

(async () => {
  for (let i = 0; i < tables; i++) {
    seat(i);
    await new Promise((r) => setTimeout(r, (ramp * 1000) / tables));
  }
  measuring = true;
  await new Promise((r) => setTimeout(r, measure * 1000));
  measuring = false;
  stopping = true;
  await new Promise((r) => setTimeout(r, 3000)); // answers in flight
  const now = performance.now();
  const stalled = [...lastSeen.values()].filter((t) => now - t > 15000).length;
  let lost = 0;
  const entries = [...acked.entries()];
  for (let i = 0; i < entries.length; i += 50) { // every acknowledged table, 50 at a time
    await Promise.all(entries.slice(i, i + 50).map(async ([id, version]) => {
      try {
        const [, s] = await call(urls[0], `/api/tables/${id}`);
        if (!(s.version >= version)) lost++;
      } catch (e) {
        lost++;
      }
    }));
  }
  latencies.sort((a, b) => a - b);
  const q = (x) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(x * latencies.length))] : null);
  console.log(JSON.stringify({ moves: latencies.length, p50: q(0.5), p99: q(0.99), errors, lost, stalled }));
  sockets.forEach((w) => w.terminate());
  process.exit(0);
})();
