// boardgame.io 0.50 serving the peer game: node server.js <port> <lobby port> memory|flatfile <dir>
// The Lobby API has its own port (with today's koa the lobby routes on the game port answer 404).
const { Server, FlatFile } = require('boardgame.io/server');
const { Pick } = require('./game');

const [port, lobbyPort, storage, dir] = process.argv.slice(2);
const db = storage === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Pick], db, origins: ['*'] });
server.run({ port: Number(port), lobbyConfig: { apiPort: Number(lobbyPort) } }, () => {
  console.log(`ready ${port} ${lobbyPort} ${storage}`);
});
