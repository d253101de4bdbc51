-- Lease what is due in a bucket's schedule: move up to ARGV[3] items whose time has come
-- (score <= now) from the schedule to the leased set, where each stays until the clock that
-- took it says it is done, or its lease runs out. Items whose lease ran out (their clock died
-- mid-batch) are taken again first.
-- KEYS[1] schedule, KEYS[2] leased; ARGV[1] now (ms), ARGV[2] lease (ms), ARGV[3] at most
-- Returns the members taken and, after them, how late each was taken: now minus its score
-- (its due time; for an item taken again, the end of its lapsed lease), in ms.
local now = tonumber(ARGV[1])
local until_ms = now + tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local taken, late = {}, {}
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
for i = 1, #lapsed, 2 do
  redis.call('ZADD', KEYS[2], until_ms, lapsed[i])
  taken[#taken + 1] = lapsed[i]
  late[#late + 1] = now - tonumber(lapsed[i + 1])
end
if #taken < limit then
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0,
                         limit - #taken)
  for i = 1, #due, 2 do
    redis.call('ZREM', KEYS[1], due[i])
    redis.call('ZADD', KEYS[2], until_ms, due[i])
    taken[#taken + 1] = due[i]
    late[#late + 1] = now - tonumber(due[i + 1])
  end
end
for _, ms in ipairs(late) do
  taken[#taken + 1] = ms
end
return taken
