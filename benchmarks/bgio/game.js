// A minimal boardgame.io game with the shape of a boneyard table: four seats taking turns,
// one move a turn, and a public log of the last 200 moves (as boneyard's bounded pushes).
module.exports = {
  name: "tally",
  setup: () => ({ total: 0, log: [] }),
  moves: {
    // client: false: the server alone applies the move (as boneyard does), so a client
    // sees its move once the server has answered, not from a local prediction.
    play: {
      move: ({ G, playerID }, n) => {
        G.total += n;
        G.log.push(`seat ${playerID} plays ${n}`);
        if (G.log.length > 200) G.log.shift();
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
};
