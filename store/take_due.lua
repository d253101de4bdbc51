-- Lease what is due in a bucket's schedule: move up to ARGV[3] items whose time has come
-- (score <= now) from the schedule to the leased set, where each stays until the clock that
-- took it says it is done, or its lease runs out. Items whose lease ran out (their clock died
-- mid-batch) are taken again first.
-- KEYS[1] schedule, KEYS[2] leased; ARGV[1] now (ms), ARGV[2] lease (ms), ARGV[3] at most
-- Returns the members taken.
local now = tonumber(ARGV[1])
local until_ms = now + tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local taken = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)
for _, member in ipairs(taken) do
  redis.call('ZADD', KEYS[2], until_ms, member)
end
if #taken < limit then
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, limit - #taken)
  for _, member in ipairs(due) do
    redis.call('ZREM', KEYS[1], member)
    redis.call('ZADD', KEYS[2], until_ms, member)
    taken[#taken + 1] = member
  end
end
return taken
