// Plays the peer game over socket.io, `matches` matches at once, for `seconds`:
// node drive.js <port> <lobby port> <matches> <seconds> two|one. Prints one JSON line.
//
// - two: two clients a match, one a seat, each moving in its turn, a new match every 40 moves;
//   each move timed from the call until both seats' clients have the server's new state.
// - one: one client a match, in one long match where its seat makes every move (game.js's
//   `long`); each move timed until that client has the new state.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Pick, MOVES_PER_GAME } = require('./game');

const [port, lobbyPort, matches, seconds] = process.argv.slice(2, 6).map(Number);
const driver = process.argv[6] || 'two';
const lobby = `http://127.0.0.1:${lobbyPort}/games/pick`;

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                               body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function newMatch(seatIDs, setupData) {
  const { matchID } = await post(`${lobby}/create`, { numPlayers: 2, setupData });
  const seats = [];
  for (const playerID of seatIDs) {
    const { playerCredentials } = await post(`${lobby}/${matchID}/join`,
                                             { playerID, playerName: `P${playerID}` });
    const client = Client({ game: Pick, matchID, playerID, credentials: playerCredentials,
                            multiplayer: SocketIO({ server: `http://127.0.0.1:${port}` }),
                            debug: false });
    watch(client);
    client.start();
    seats.push(client);
  }
  await new Promise((resolve) => {
    const check = () => (seats.every((c) => c.getState()) ? resolve() : setTimeout(check, 5));
    check();
  });
  return seats;
}

function watch(client) {
  // One subscriber per client for its whole life: boardgame.io numbers subscribers by their
  // count, so unsubscribing one and subscribing another can replace a live one.
  client.waiting = [];
  client.subscribe((state) => {
    if (!state) return;
    client.waiting = client.waiting.filter(({ after, resolve }) => {
      if (state.G.made <= after) return true;
      resolve(state);
      return false;
    });
  });
}

function seen(client, after) {
  // Resolves when this client's state shows more than `after` moves made (the client's own
  // state may change before the server answers: its _stateID is no sign of the move).
  return new Promise((resolve) => client.waiting.push({ after, resolve }));
}

async function timedMove(seats, mover, pick, timings) {
  const started = process.hrtime.bigint();
  const after = mover.getState().G.made;
  const all = Promise.all(seats.map((c) => seen(c, after)));
  mover.moves.take(pick);
  await all;
  timings.push(Number(process.hrtime.bigint() - started) / 1e6);
}

async function playTwo(stopAt, timings) {
  let seats = await newMatch(['0', '1']);
  let made = 0;
  while (Date.now() < stopAt) {
    const state = seats[0].getState();
    if (state.ctx.gameover || made === MOVES_PER_GAME) {
      seats.forEach((c) => c.stop());
      seats = await newMatch(['0', '1']);
      made = 0;
      continue;
    }
    const mover = seats[Number(state.ctx.currentPlayer)];
    const table = mover.getState().G.table;
    await timedMove(seats, mover, table[(made * 7) % table.length], timings);
    made += 1;
  }
  seats.forEach((c) => c.stop());
}

async function playOne(stopAt, timings) {
  const [client] = await newMatch(['0'], { long: true });
  for (let made = 0; Date.now() < stopAt; made += 1) {
    const table = client.getState().G.table;
    await timedMove([client], client, table[(made * 7) % table.length], timings);
  }
  client.stop();
}

(async () => {
  const play = { one: playOne, two: playTwo }[driver];
  const timings = [];
  const started = Date.now();
  const stopAt = started + seconds * 1000;
  await Promise.all(Array.from({ length: matches }, () => play(stopAt, timings)));
  const elapsed = (Date.now() - started) / 1000;
  timings.sort((a, b) => a - b);
  const at = (q) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))];
  console.log(JSON.stringify({ moves: timings.length, per_second: timings.length / elapsed,
                               p50_ms: at(0.5), p99_ms: at(0.99) }));
  process.exit(0);
})();
