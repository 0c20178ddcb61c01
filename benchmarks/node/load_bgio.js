// Drives N boardgame.io tables as load_boneyard.js drives boneyard: per table one
// human acting 1-3 s after its turn comes, three bots acting after 0.6 s, two spectators.
// Usage: node load_bgio.js SOCKET_URL API_URL TABLES RAMP_S MEASURE_S
// Prints {"moves", "p50", "p99", "errors", "stalled"}: a human move's time from sending to its state
// update, and the tables whose human saw no new state in the last 15 s of the run.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const game = require("./game");

const [url, api, tables, ramp, measure] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6])];
const latencies = [];
let measuring = false;
let errors = 0; // tables that could not be opened
const clients = [];
const lastSeen = new Map(); // matchID -> when its human last received a new state

async function post(path, body) {
  const res = await fetch(api + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
}

function player(matchID, playerID, credentials, human) {
  const client = Client({ game, multiplayer: SocketIO({ server: url }), matchID, playerID, credentials, debug: false });
  let pending = null; // [stateID when sent, time sent]
  let scheduled = -1;
  client.subscribe((state) => {
    if (!state) return;
    if (human) lastSeen.set(matchID, performance.now());
    if (pending && state._stateID > pending[0]) {
      if (measuring && human) latencies.push(performance.now() - pending[1]);
      pending = null;
    }
    if (state.ctx.currentPlayer === playerID && scheduled < state._stateID && !pending) {
      scheduled = state._stateID;
      const delay = human ? 1000 + Math.random() * 2000 : 600;
      setTimeout(() => {
        pending = [state._stateID, performance.now()];
        client.moves.play(1 + Math.floor(Math.random() * 6));
      }, delay);
    }
  });
  client.start();
  clients.push(client);
}

async function table() {
  const { matchID } = await post("/games/tally/create", { numPlayers: 4 });
  for (let p = 0; p < 4; p++) {
    const { playerCredentials } = await post(`/games/tally/${matchID}/join`, { playerID: String(p), playerName: `p${p}` });
    player(matchID, String(p), playerCredentials, p === 0);
  }
  for (let s = 0; s < 2; s++) {
    const c = Client({ game, multiplayer: SocketIO({ server: url }), matchID, debug: false });
    c.start();
    clients.push(c);
  }
}

(async () => {
  for (let i = 0; i < tables; i++) {
    // not awaited, as in load_boneyard.js: the tables open at the same pace on both servers
    table().catch(() => errors++);
    await new Promise((r) => setTimeout(r, (ramp * 1000) / tables));
  }
  measuring = true;
  await new Promise((r) => setTimeout(r, measure * 1000));
  measuring = false;
  latencies.sort((a, b) => a - b);
  const q = (x) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(x * latencies.length))] : null);
  const now = performance.now();
  const stalled = [...lastSeen.values()].filter((t) => now - t > 15000).length;
  console.log(JSON.stringify({ moves: latencies.length, p50: q(0.5), p99: q(0.99), errors, stalled }));
  clients.forEach((c) => c.stop());
  process.exit(0);
})();
