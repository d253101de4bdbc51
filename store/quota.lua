-- Take one from a sliding window's quota: at most ARGV[3] members in any ARGV[2] ms. A member
-- already counted (a retried delivery) passes again without counting twice.
-- KEYS[1] the window's sorted set (member -> when, epoch ms); ARGV[1] now (ms), ARGV[2] the
-- window (ms), ARGV[3] the limit, ARGV[4] the member.
-- Returns {1, 0} when taken, {0, ms until the oldest counted member leaves the window}.
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then
  return {1, 0}
end
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1
  if oldest[2] then
    wait = math.max(1, tonumber(oldest[2]) + window - now)
  end
  return {0, wait}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
