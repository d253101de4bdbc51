-- Keep a delivery at the head of a player's list, numbered, in one round trip; and, for an
-- email about a game, the version the player's last email about it was written at.
-- KEYS[1] the player's deliveries (list), KEYS[2] their count, KEYS[3] (optional) the
-- player's emailed versions (hash). ARGV[1] the delivery's JSON object without its closing
-- brace, ARGV[2] the list's length kept, and with KEYS[3]: ARGV[3] the game, ARGV[4] its
-- version, ARGV[5] the seconds the hash is kept. Returns the delivery's number (`seq`).
local seq = redis.call('INCR', KEYS[2])
redis.call('LPUSH', KEYS[1], ARGV[1] .. ', "seq": ' .. seq .. '}')
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if KEYS[3] then
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
  redis.call('EXPIRE', KEYS[3], ARGV[5])
end
return seq
