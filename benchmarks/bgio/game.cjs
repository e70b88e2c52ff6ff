// A minimal turn-based game for the reference: each turn the player to move plays once,
// and the move count is the state. Hidden per-player hands are stripped by playerView, as
// the classroom server sends a seat only its own view.
const { PlayerView } = require("boardgame.io/core");

const Bench = {
  name: "rummybench",
  minPlayers: 4,
  maxPlayers: 4,
  setup: (ctx) => ({
    moves: 0,
    players: Object.fromEntries([...Array(ctx.numPlayers).keys()].map((p) => [p, { hand: [p] }])),
  }),
  playerView: PlayerView.STRIP_SECRETS,
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    // client: false: the server alone applies it (no optimistic update in the client), so a
    // round trip is a real server round trip, as in the classroom server.
    play: {
      move: ({ G }) => {
        G.moves += 1;
      },
      client: false,
    },
  },
};

module.exports = { Bench };
