// boardgame.io's own server (Koa + socket.io, in-memory storage) for the tally game.
// The lobby API listens on PORT+1: boardgame.io 0.50's single-port setup builds its HTTP
// handler before the API routes are added, so they answer 404 there.
// Prints its event-loop delay (p50/p99/max in ms) as a JSON line every few seconds.
const { Server } = require("boardgame.io/server");
const { monitorEventLoopDelay } = require("perf_hooks");
const game = require("./game");

const port = Number(process.argv[2] || 8000);
const server = Server({ games: [game], origins: ["*"] });
server.run({ port, lobbyConfig: { apiPort: port + 1 } }, () => console.log(JSON.stringify({ ready: port })));
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
setInterval(() => {
  console.log(JSON.stringify({ lag: { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 } }));
  h.reset();
}, 5000);
