// boardgame.io's Server (Koa + socket.io, in-memory storage) on loopback: node server.cjs PORT
const { Server } = require("boardgame.io/server");
const { Bench } = require("./game.cjs");

const port = Number(process.argv[2] || 8000);
const server = Server({ games: [Bench], origins: ["http://127.0.0.1"] });
server.run({ port, callback: () => console.log(`listening ${port}`) });
