-- Commit events to a tournament's log, atomically, if the log is still at the version the
-- caller read: the events, the new state, the outbox entry that says this commit's
-- consequences are due (kind 'tournament'), and the tournament's items in its bucket's
-- schedule. As store/append.lua for a game; all keys carry the tournament's bucket hash tag.
-- KEYS[1] log stream, KEYS[2] state, KEYS[3] the bucket's outbox, KEYS[4] the bucket's schedule
-- ARGV[1] expected version, ARGV[2] new state JSON, ARGV[3] tournament id, ARGV[4] request id
-- ('' for none), ARGV[5] number of schedule members to remove (n), ARGV[6..5+n] those members,
-- ARGV[6+n] number of members to add (m), then m pairs (score, member), then the event JSONs
-- Returns {1, new_version} | {0, current_version} (stale)
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {0, version} end
local removing = tonumber(ARGV[5])
local adding_at = 6 + removing
local adding = tonumber(ARGV[adding_at])
local first_event = adding_at + 1 + 2 * adding
for i = first_event, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i])
end
redis.call('SET', KEYS[2], ARGV[2])
for i = 6, 5 + removing do
  redis.call('ZREM', KEYS[4], ARGV[i])
end
for i = adding_at + 1, first_event - 1, 2 do
  redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i + 1])
end
local entry = {'kind', 'tournament', 'game', ARGV[3], 'from', tonumber(ARGV[1]) + 1,
               'version', version}
if ARGV[4] ~= '' then
  entry[#entry + 1] = 'rid'
  entry[#entry + 1] = ARGV[4]
end
redis.call('XADD', KEYS[3], '*', unpack(entry))
return {1, version}
