-- Replace a finished game's log Stream by its compressed copy, if the Stream still holds
-- exactly the events that were copied (nothing was appended since they were read).
-- KEYS[1] the log Stream, KEYS[2] the archive
-- ARGV[1] the compressed events, ARGV[2] how many events were copied
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
return 1
