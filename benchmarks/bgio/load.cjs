// The classroom benchmark's load against boardgame.io:
//   node load.cjs PORT TABLES SECONDS [THINK [JITTER]]
// Creates TABLES matches through the lobby API, joins 4 clients each over socket.io, and has
// each client make its move as soon as its turn comes, or after thinking a time drawn
// (seeded per client) from THINK × (1 ± JITTER) seconds, as benchmarks/classroom.py's seats
// do. A round trip is a move sent until the client's state shows it. Prints "go" and "stop"
// as the measured run starts and ends, then one JSON line.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Bench } = require("./game.cjs");

const [port, tables, seconds, think = 0, jitter = 0] = process.argv.slice(2).map(Number);
// mulberry32: a small seeded generator, so every run draws the same think times.
const seeded = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const base = `http://127.0.0.1:${port}`;
const post = async (path, body) =>
  (await fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).json();

async function main() {
const trips = [];
let acked = 0;
let stop = false;
let go = false;  // every client has its first state: the measured run starts
const ready = new Set();
const clients = [];
for (let t = 0; t < tables; t++) {
  const { matchID } = await post(`/games/${Bench.name}/create`, { numPlayers: 4 });
  for (let p = 0; p < 4; p++) {
    const { playerCredentials } = await post(`/games/${Bench.name}/${matchID}/join`, { playerID: String(p), playerName: `S${t}.${p}` });
    const client = Client({ game: Bench, matchID, playerID: String(p), credentials: playerCredentials, multiplayer: SocketIO({ server: base }), debug: false });
    let pending = null;
    const random = seeded(t * 4 + p);
    const turn = (state) => {
      if (!state) return;
      ready.add(client);
      if (!go) return;
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
        }, think * (1 + jitter * (2 * random() - 1)) * 1000);
      }
    };
    client.subscribe(turn);
    client.turn = turn;
    clients.push(client);
  }
}
for (const client of clients) client.start();
while (ready.size < clients.length) await new Promise((resolve) => setTimeout(resolve, 50));
go = true;
console.log("go");  // the benchmark reads the server's CPU time now and at "stop"
const started = performance.now();
for (const client of clients) client.turn(client.getState());
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
stop = true;
console.log("stop");
const elapsed = (performance.now() - started) / 1000;
trips.sort((a, b) => a - b);
const at = (q) => trips[Math.min(trips.length - 1, Math.floor(trips.length * q))];
console.log(JSON.stringify({ acked, elapsed, median: at(0.5), p99: at(0.99) }));
for (const client of clients) client.stop();
process.exit(0);
}
main();
