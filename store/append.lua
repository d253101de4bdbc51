-- Append events to a game's log and write its snapshot, atomically, if the log is still at the
-- version the caller read. The version is the number of events (XLEN); event N has ID N-0.
-- KEYS[1] log stream, KEYS[2] snapshot, KEYS[3] idempotency key (same hash tag; unused when
-- ARGV[3] is empty)
-- ARGV[1] expected version, ARGV[2] new snapshot JSON, ARGV[3] idempotent answer JSON or '',
-- ARGV[4] idempotency TTL seconds, ARGV[5..] event JSONs
-- Returns {1, new_version} | {0, current_version} (stale) | {2, first_answer} (idempotent replay)
local use_idempotency = ARGV[3] ~= ''
if use_idempotency then
  local first = redis.call('GET', KEYS[3])
  if first then return {2, first} end
end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {0, version} end
for i = 5, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i])
end
redis.call('SET', KEYS[2], ARGV[2])
if use_idempotency then
  redis.call('SET', KEYS[3], ARGV[3], 'EX', tonumber(ARGV[4]))
end
return {1, version}
