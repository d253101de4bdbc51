// Plays the peer game over socket.io as two clients per match, `matches` matches at once, for
// `seconds`: node drive.js <port> <lobby port> <matches> <seconds>. Each move is timed from the
// call until both seats' clients have the server's new state. Prints one JSON line.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Pick, MOVES_PER_GAME } = require('./game');

const [port, lobbyPort, matches, seconds] = process.argv.slice(2).map(Number);
const lobby = `http://127.0.0.1:${lobbyPort}/games/pick`;

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                               body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function newMatch() {
  const { matchID } = await post(`${lobby}/create`, { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
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
    client.waiting = client.waiting.filter(({ left, resolve }) => {
      if (state.G.table.length > left && !state.ctx.gameover) return true;
      resolve(state);
      return false;
    });
  });
}

function seen(client, left) {
  // Resolves when this client's state shows `left` numbers on the table (or the game over).
  return new Promise((resolve) => client.waiting.push({ left, resolve }));
}

async function play(stopAt, timings) {
  let seats = await newMatch();
  let made = 0;
  while (Date.now() < stopAt) {
    const state = seats[0].getState();
    if (state.ctx.gameover || made === MOVES_PER_GAME) {
      seats.forEach((c) => c.stop());
      seats = await newMatch();
      made = 0;
      continue;
    }
    const mover = seats[Number(state.ctx.currentPlayer)];
    const table = mover.getState().G.table;
    const pick = table[(made * 7) % table.length];
    const started = process.hrtime.bigint();
    const both = Promise.all(seats.map((c) => seen(c, table.length - 1)));
    mover.moves.take(pick);
    await both;
    timings.push(Number(process.hrtime.bigint() - started) / 1e6);
    made += 1;
  }
  seats.forEach((c) => c.stop());
}

(async () => {
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
