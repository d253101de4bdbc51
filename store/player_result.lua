-- Record a finished game in one player's record, once per game: the result itself, the
-- game in their lists of results, their counts and their rivalries.
-- KEYS[1] result records, KEYS[2] results, KEYS[3] results of the title, KEYS[4] tally,
-- KEYS[5] rivals (every key carries the player's tag)
-- ARGV[1] game id, ARGV[2] its end (ms), ARGV[3] the result (JSON), ARGV[4] how many tally
-- fields follow, then (field, increment) pairs for the tally, then for the rivals.
-- Returns 1 if recorded now, 0 if it was recorded before (nothing is written).
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
local tallies = tonumber(ARGV[4])
for i = 5, 4 + tallies * 2, 2 do
  redis.call('HINCRBY', KEYS[4], ARGV[i], ARGV[i + 1])
end
for i = 5 + tallies * 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[5], ARGV[i], ARGV[i + 1])
end
return 1
