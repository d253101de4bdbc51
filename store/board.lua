-- A page of a title's leaderboard in one round trip: the board's size, then per player on
-- the page its id, rating (the board's score), skill (JSON) and name.
-- KEYS[1] board, KEYS[2] skills, KEYS[3] names; ARGV[1] first rank (from 0), ARGV[2] last
local rows = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
local found = {redis.call('ZCARD', KEYS[1])}
for i = 1, #rows, 2 do
  found[#found + 1] = rows[i]
  found[#found + 1] = rows[i + 1]
  found[#found + 1] = redis.call('HGET', KEYS[2], rows[i]) or ''
  found[#found + 1] = redis.call('HGET', KEYS[3], rows[i]) or ''
end
return found
