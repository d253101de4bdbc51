// Plays a game of each title named on the command line against a live turnpost server, as
// two players, through a client generated from openapi/openapi.json (openapi-typescript and
// openapi-fetch, default settings). Every answer is read through the generated types.
//   node play.js <base url> <title>...
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

// the JSON answers, problems (application/problem+json) too; the view is also served as
// text/plain, to terminals
type Json = `application/${string}json`;
type Api = ReturnType<typeof createClient<paths, Json>>;
type Title = components["schemas"]["GameCreate"]["game"];
const TITLES: Title[] = ["buttons", "consonar", "nautilus", "ninedomains"];
interface Player { id: string; api: Api }

const base = process.argv[2];
const titles: Title[] = process.argv.slice(3).map((name) => {
  const title = TITLES.find((t) => t === name);
  if (title === undefined) throw new Error(`no such game: ${name}`);
  return title;
});

function must<T>(answer: { data?: T; error?: unknown }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function register(name: string): Promise<Player> {
  const anonymous = createClient<paths, Json>({ baseUrl: base });
  const made = must(await anonymous.POST("/v1/players", { body: { name } }), "register");
  const api = createClient<paths, Json>({
    baseUrl: base, headers: { Authorization: `Bearer ${made.token}` } });
  return { id: made.id, api };
}

async function play(title: Title, players: Player[]): Promise<object> {
  const [ada, bo] = players;
  const created = must(await ada.api.POST("/v1/games", {
    body: { game: title, seats: [ada.id, bo.id] } }), "create");
  const path = { params: { path: { game_id: created.id } } };
  let moves = 0;
  for (;;) {
    const summary = must(await ada.api.GET("/v1/games/{game_id}", path), "summary");
    if (summary.status === "finished") {
      return { title, moves, reason: summary.outcome?.reason ?? null };
    }
    const mover = players[summary.active_seats[0]];
    const view = must(await mover.api.GET("/v1/games/{game_id}/view", path), "view");
    const legal = must(await mover.api.GET("/v1/games/{game_id}/legal-moves", path), "legal");
    if (view.game !== title || legal.moves.length === 0) {
      throw new Error(`${title}: a view of ${view.game} with ${legal.moves.length} moves`);
    }
    const move = legal.moves[moves % legal.moves.length];
    if (moves === 0) {  // as a client that read before the last move: the 409 says so
      const stale = await mover.api.POST("/v1/games/{game_id}/moves", { ...path, body: {
        notation: move.notation, expected_version: legal.version - 1 } });
      if (stale.error?.code !== "move/stale_version") {  // a typo here does not compile
        throw new Error(`${title}: a stale move answered ${JSON.stringify(stale.error)}`);
      }
    }
    must(await mover.api.POST("/v1/games/{game_id}/moves", { ...path, body: {
      notation: move.notation, expected_version: legal.version } }), "move");
    moves += 1;
  }
}

async function main(): Promise<void> {
  const players = [await register("Ada"), await register("Bo")];
  must(await players[1].api.PUT("/v1/players/me/friends", {
    body: { friends: [players[0].id] } }), "friends");
  for (const title of titles) {
    console.log(JSON.stringify(await play(title, players)));
  }
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
