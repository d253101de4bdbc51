-- Add an event to a player's stream of events once: the first call with a given claim adds
-- it (trimmed to about MAXLEN entries), later calls (a commit's consequences carried out
-- again) add nothing. The claim is taken after the XADD, so that an XADD that fails (a key of
-- another type) leaves no claim and the event is added when the call is made again. Both keys
-- carry the player's hash tag.
-- KEYS[1] the player's event stream, KEYS[2] the claim; ARGV[1] claim TTL seconds,
-- ARGV[2] maxlen, ARGV[3..] field, value pairs. Returns the entry id, or false.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return false
end
local fields = {}
for i = 3, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', tonumber(ARGV[2]), '*', unpack(fields))
redis.call('SET', KEYS[2], 1, 'EX', tonumber(ARGV[1]))
return id
