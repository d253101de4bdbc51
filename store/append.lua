-- Commit events to a log (a game's or a tournament's), atomically, if the log is still at the
-- version the caller read: the events, the new snapshot (a tournament's state), the outbox
-- entry that says this commit's consequences are due, and the log's items in its bucket's
-- schedule. The version is the number of events (XLEN); event N has ID N-0. All keys carry
-- the log's bucket hash tag.
-- KEYS[1] log stream, KEYS[2] snapshot, KEYS[3] idempotency key (unused when ARGV[3] is ''),
-- KEYS[4] the bucket's outbox stream, KEYS[5] the bucket's schedule (sorted set)
-- ARGV[1] expected version, ARGV[2] new snapshot JSON, ARGV[3] idempotent answer JSON or '',
-- ARGV[4] idempotency TTL seconds, ARGV[5] the game's (or tournament's) id, ARGV[6] the
-- request id ('' for none), ARGV[7] the outbox entry's kind ('' for a game's, 'tournament'),
-- ARGV[8] number of schedule members to remove (n), ARGV[9..8+n] those members, ARGV[9+n]
-- number of members to add (m), then m pairs (score, member), then the event JSONs
-- Returns {1, new_version} | {0, current_version} (stale) | {2, first_answer} (idempotent replay)
local use_idempotency = ARGV[3] ~= ''
if use_idempotency then
  local first = redis.call('GET', KEYS[3])
  if first then return {2, first} end
end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {0, version} end
local removing = tonumber(ARGV[8])
local adding_at = 9 + removing
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
for i = 9, 8 + removing do
  redis.call('ZREM', KEYS[5], ARGV[i])
end
for i = adding_at + 1, first_event - 1, 2 do
  redis.call('ZADD', KEYS[5], ARGV[i], ARGV[i + 1])
end
local entry = {'game', ARGV[5], 'from', tonumber(ARGV[1]) + 1, 'version', version}
if ARGV[7] ~= '' then
  entry[#entry + 1] = 'kind'
  entry[#entry + 1] = ARGV[7]
end
if ARGV[6] ~= '' then
  entry[#entry + 1] = 'rid'
  entry[#entry + 1] = ARGV[6]
end
redis.call('XADD', KEYS[4], '*', unpack(entry))
return {1, version}
