-- Commit events to a game's log, atomically, if the log is still at the version the caller
-- read: the events, the new snapshot, the outbox entry that says this commit's consequences
-- are due, and the game's deadlines in its bucket's schedule. The version is the number of
-- events (XLEN); event N has ID N-0. All keys carry the game's bucket hash tag.
-- KEYS[1] log stream, KEYS[2] snapshot, KEYS[3] idempotency key (unused when ARGV[3] is ''),
-- KEYS[4] the bucket's outbox stream, KEYS[5] the bucket's schedule (sorted set)
-- ARGV[1] expected version, ARGV[2] new snapshot JSON, ARGV[3] idempotent answer JSON or '',
-- ARGV[4] idempotency TTL seconds, ARGV[5] game id, ARGV[6] the request id ('' for none),
-- ARGV[7] number of schedule members to remove (n), ARGV[8..7+n] those members, ARGV[8+n]
-- number of members to add (m), then m pairs (score, member), then the event JSONs
-- Returns {1, new_version} | {0, current_version} (stale) | {2, first_answer} (idempotent replay)
local use_idempotency = ARGV[3] ~= ''
if use_idempotency then
  local first = redis.call('GET', KEYS[3])
  if first then return {2, first} end
end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {0, version} end
local removing = tonumber(ARGV[7])
local adding_at = 8 + removing
local adding = tonumber(ARGV[adding_at])
local first_event = adding_at + 1 + 2 * adding
for i = first_event, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i])
end
redis.call('SET', KEYS[2], ARGV[2])
if use_idempotency then
  redis.call('SET', KEYS[3], ARGV[3], 'EX', tonumber(ARGV[4]))
end
for i = 8, 7 + removing do
  redis.call('ZREM', KEYS[5], ARGV[i])
end
for i = adding_at + 1, first_event - 1, 2 do
  redis.call('ZADD', KEYS[5], ARGV[i], ARGV[i + 1])
end
if ARGV[6] ~= '' then
  redis.call('XADD', KEYS[4], '*', 'game', ARGV[5], 'from', tonumber(ARGV[1]) + 1,
             'version', version, 'rid', ARGV[6])
else
  redis.call('XADD', KEYS[4], '*', 'game', ARGV[5], 'from', tonumber(ARGV[1]) + 1,
             'version', version)
end
return {1, version}
