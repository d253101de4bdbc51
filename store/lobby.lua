-- Write a game's place in the lobby, unless a newer version of the game was written there: the
-- request that committed and the worker that derives the same commit's consequences both write,
-- in either order, and the newest version wins. A game in the lobby has its version in the
-- hash; a game that left it has a marker of its own that expires, so that neither grows with
-- every game ever created.
-- KEYS[1] hash game id -> version (games in the lobby), KEYS[2] the lobby (sorted set),
-- KEYS[3] the game's marker once it left
-- ARGV[1] game id, ARGV[2] version, ARGV[3] the score, or '' to remove, ARGV[4] the marker's
-- life in seconds
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or redis.call('GET', KEYS[3]) or '0')
if seen >= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[4])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('DEL', KEYS[3])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return 1
