// The classroom benchmark's load against boardgame.io: node load.cjs PORT TABLES SECONDS [THINK]
// Creates TABLES matches through the lobby API, joins 4 clients each over socket.io, and has
// each client make its move as soon as its turn comes. A round trip is a move sent until the
// client's state shows it. Prints one JSON line.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Bench } = require("./game.cjs");

const [port, tables, seconds, think = 0] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const post = async (path, body) =>
  (await fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).json();

async function main() {
const trips = [];
let acked = 0;
let stop = false;
const clients = [];
for (let t = 0; t < tables; t++) {
  const { matchID } = await post(`/games/${Bench.name}/create`, { numPlayers: 4 });
  for (let p = 0; p < 4; p++) {
    const { playerCredentials } = await post(`/games/${Bench.name}/${matchID}/join`, { playerID: String(p), playerName: `S${t}.${p}` });
    const client = Client({ game: Bench, matchID, playerID: String(p), credentials: playerCredentials, multiplayer: SocketIO({ server: base }), debug: false });
    let pending = null;
    client.subscribe((state) => {
      if (!state) return;
      if (pending && state.G.moves > pending.moves) {
        trips.push(performance.now() - pending.at);
        acked += 1;
        pending = null;
      }
      if (!stop && !pending && state.isActive && state.ctx.currentPlayer === String(p)) {
        pending = { moves: state.G.moves, at: Infinity };
        setTimeout(() => {  // a learner's pause before the move (THINK seconds)
          pending.at = performance.now();
          client.moves.play();
        }, think * 1000);
      }
    });
    clients.push(client);
  }
}
const started = performance.now();
for (const client of clients) client.start();
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
stop = true;
const elapsed = (performance.now() - started) / 1000;
trips.sort((a, b) => a - b);
const at = (q) => trips[Math.min(trips.length - 1, Math.floor(trips.length * q))];
console.log(JSON.stringify({ acked, elapsed, median: at(0.5), p99: at(0.99) }));
for (const client of clients) client.stop();
process.exit(0);
}
main();
