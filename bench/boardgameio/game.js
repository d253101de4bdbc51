// The peer's game: two players take turns, each move takes one of the numbers left on the
// table (an invalid pick is refused); after 40 moves the higher total wins. A state and move
// of about the size of a small card game's, with boardgame.io's usual turn order.
//
// Made with setupData { long: true }, one long match for drive.js's one-client driver: the
// first seat makes every move, the table is laid again when it is empty and the log keeps its
// last 40 lines, so the state stays the size of a short match's and the match never ends.
const { INVALID_MOVE } = require('boardgame.io/core');

const MOVES_PER_GAME = 40;
const fresh = () => Array.from({ length: MOVES_PER_GAME }, (_, i) => i + 1);

const Pick = {
  name: 'pick',
  minPlayers: 2,
  maxPlayers: 2,
  setup: (_, setupData) => ({ table: fresh(), totals: [0, 0], log: [], made: 0,
                              long: Boolean(setupData && setupData.long) }),
  moves: {
    // client: false: the move is played on the server only, as turnpost's are (no optimistic
    // update in the client), so a client sees it when the server's answer arrives.
    take: { client: false, move: ({ G, ctx }, number) => {
      const at = G.table.indexOf(number);
      if (at < 0) return INVALID_MOVE;
      G.table.splice(at, 1);
      G.totals[Number(ctx.currentPlayer)] += number;
      G.log.push(`${ctx.currentPlayer} takes ${number}`);
      G.made += 1;
      if (G.long && G.table.length === 0) G.table = fresh();
      if (G.long) G.log = G.log.slice(-MOVES_PER_GAME);
    } },
  },
  turn: { minMoves: 1, maxMoves: 1,
          order: { first: () => 0,
                   next: ({ G, ctx }) => (G.long ? 0 : (ctx.playOrderPos + 1) % ctx.numPlayers) } },
  endIf: ({ G }) => (!G.long && G.table.length === 0
    ? { winner: G.totals[0] >= G.totals[1] ? '0' : '1' } : undefined),
};

module.exports = { Pick, MOVES_PER_GAME };
