-- Write a game's place in some sorted sets (a player's games and inbox, or the lobby), unless
-- a newer version of the game was already written there: the request that committed and the
-- worker that derives the same commit's consequences both write, in either order, and the
-- newest version wins.
-- KEYS[1] hash game id -> version last written, KEYS[2..] the sorted sets
-- ARGV[1] game id, ARGV[2] version, ARGV[1 + i] for KEYS[i]: the score, or '' to remove
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if seen >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 2, #KEYS do
  if ARGV[1 + i] == '' then
    redis.call('ZREM', KEYS[i], ARGV[1])
  else
    redis.call('ZADD', KEYS[i], ARGV[1 + i], ARGV[1])
  end
end
return 1
