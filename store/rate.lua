-- Apply a finished game's rating changes, once: every seat's new skill, the title's
-- leaderboard and the game's marker, in one step (every key carries the title's tag).
-- KEYS[1] the game's marker (rating_applied), KEYS[2] skills, KEYS[3] names, KEYS[4] board,
-- KEYS[5] active
-- ARGV[1] the game's record (JSON), ARGV[2] its end (ms), ARGV[3] leaderboard cut-off (ms:
-- who last played before it leaves the board), ARGV[4] games needed for the board,
-- ARGV[5] seconds the marker is kept, then per player 6 values from ARGV[6]: id, the skill
-- read before (JSON, '' for none), the new skill (JSON), its rating, its games, name.
-- Returns {'done', record} if the game was applied before (nothing is written), {'stale', id}
-- if a player's skill changed since it was read (another game of theirs ended: read again),
-- else {'applied', record}.
local done = redis.call('GET', KEYS[1])
if done then
  return {'done', done}
end
local at = tonumber(ARGV[2])
local min_games = tonumber(ARGV[4])
local n = (#ARGV - 5) / 6
for i = 0, n - 1 do
  local id = ARGV[6 + i * 6]
  local now = redis.call('HGET', KEYS[2], id) or ''
  if now ~= ARGV[7 + i * 6] then
    return {'stale', id}
  end
end
for i = 0, n - 1 do
  local b = 6 + i * 6
  local id = ARGV[b]
  redis.call('HSET', KEYS[2], id, ARGV[b + 2])
  redis.call('HSET', KEYS[3], id, ARGV[b + 5])
  redis.call('ZADD', KEYS[5], 'GT', at, id)
  if tonumber(ARGV[b + 4]) >= min_games then
    redis.call('ZADD', KEYS[4], ARGV[b + 3], id)
  else
    redis.call('ZREM', KEYS[4], id)
  end
end
-- who has not played a rated game since the cut-off leaves the board (a few at a time)
local idle = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[3], 'LIMIT', 0, 100)
for _, id in ipairs(idle) do
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[5])
return {'applied', ARGV[1]}
