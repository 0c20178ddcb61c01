// A boneyard bot in Node, with nothing but Node's standard library (fetch): it accepts every
// challenge and plays a random legal action whenever it is its turn. The protocol is in
// docs/api.md ("Bot API"). Run: node examples/bot_client.js http://127.0.0.1:8000 BOT_TOKEN [GAMES]
// (GAMES: stop after that many finished games; default: run until stopped).
const [server, token, most] = process.argv.slice(2);
if (!server || !token) {
  console.error("usage: node bot_client.js SERVER BOT_TOKEN [GAMES]");
  process.exit(2);
}
const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
const playing = new Set();
let finished = 0;

// The lines of an NDJSON stream, as objects; empty lines are heartbeats.
async function* lines(path) {
  const res = await fetch(server + path, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const text = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (text) yield JSON.parse(text);
    }
  }
}

const post = (path, body = {}) => fetch(server + path, { method: "POST", headers, body: JSON.stringify(body) });

async function play(id) {
  for await (const line of lines(`/api/bot/game/stream/${id}`)) {
    const state = line.type === "gameFull" ? line.state : line;
    if (state.is_over) break;
    const legal = state.legal_actions || [];
    if (legal.length) {
      const action = legal[Math.floor(Math.random() * legal.length)];
      const res = await post(`/api/bot/game/${id}/action`, { action, version: line.version });
      if (!res.ok) console.log(`${action} refused: ${(await res.json()).detail}`);
    }
  }
}

for await (const event of lines("/api/stream/event")) {
  if (event.type === "challenge") await post(`/api/challenge/${event.challenge.id}/accept`);
  if (event.type === "gameStart" && !playing.has(event.game.id)) {
    playing.add(event.game.id);
    play(event.game.id).catch((e) => console.error(e.message));
  }
  if (event.type === "gameFinish") {
    console.log(`game ${event.game.id} finished; winners: ${event.game.winners.join(", ")}`);
    if (most && ++finished >= Number(most)) process.exit(0);
  }
}
