-- A title's matchmaking, atomically: its pool of waiting players (scored by rating) and their
-- requests (JSON), in one slot with the bucket's outbox and schedule.
-- KEYS[1] the pool, KEYS[2] the requests, KEYS[3] the bucket's outbox, KEYS[4] its schedule
-- ARGV[1] the operation, ARGV[2] the player; then by operation:
--   ask    ARGV[3] the request (JSON), ARGV[4] when its bot is due (ms, '' for never),
--          ARGV[5] the schedule's member for it, ARGV[6] the title: add the request unless the
--          player is waiting already, with an outbox entry (kind 'seek') for the worker to pair
--   pair   ARGV[3] the rating window, ARGV[4] a new game's id: pair the player, if waiting,
--          with the waiting player nearest their rating within the window (the earlier
--          request on equal distance); the one who waited longer has the first seat
--   bot    ARGV[3] the request's time (ms), ARGV[4] the bot, ARGV[5] a new game's id: a
--          player still waiting since that request gets a game against the bot
--   cancel stop waiting
--   forget ARGV[3] the name to give them: the player deleted their account; their request
--          is gone (and they from the pool), and a request matched with theirs names them so
-- Returns the player's request as it is then (JSON), or false when there is none.
local op, player = ARGV[1], ARGV[2]
local raw = redis.call('HGET', KEYS[2], player)
local mine = raw and cjson.decode(raw)
local function save(request)
  redis.call('HSET', KEYS[2], request.player_id, cjson.encode(request))
end
if op == 'ask' then
  if mine and mine.status == 'waiting' then return raw end
  local request = cjson.decode(ARGV[3])
  save(request)
  redis.call('ZADD', KEYS[1], request.rating, player)
  if ARGV[4] ~= '' then redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5]) end
  redis.call('XADD', KEYS[3], '*', 'kind', 'seek', 'game', ARGV[6], 'player', player,
             'from', 1, 'version', 0)
  return cjson.encode(request)
end
if op == 'forget' then
  if not mine then return false end
  redis.call('HDEL', KEYS[2], player)
  redis.call('ZREM', KEYS[1], player)
  local other = type(mine.opponent) == 'table' and mine.opponent.player_id
  local theirs = type(other) == 'string' and redis.call('HGET', KEYS[2], other)
  if theirs then
    theirs = cjson.decode(theirs)
    if type(theirs.opponent) == 'table' and theirs.opponent.player_id == player then
      theirs.opponent.name = ARGV[3]
      save(theirs)
    end
  end
  return raw
end
if not mine or mine.status ~= 'waiting' then return raw or false end
if op == 'pair' then
  local window = tonumber(ARGV[3])
  local near = redis.call('ZRANGEBYSCORE', KEYS[1], mine.rating - window, mine.rating + window,
                          'WITHSCORES')
  local best, best_distance, best_at
  for i = 1, #near, 2 do
    if near[i] ~= player then
      local other = cjson.decode(redis.call('HGET', KEYS[2], near[i]))
      local distance = math.abs(tonumber(near[i + 1]) - mine.rating)
      if not best or distance < best_distance or (distance == best_distance and other.at < best_at) then
        best, best_distance, best_at = other, distance, other.at
      end
    end
  end
  if not best then return raw end
  local first = (best.at <= mine.at) and best or mine
  for _, request in ipairs({mine, best}) do
    local other = (request == mine) and best or mine
    request.status = 'matched'
    request.game_id = ARGV[4]
    request.opponent = {player_id = other.player_id, name = other.name}
    request.first_seat = (request == first)
    save(request)
    redis.call('ZREM', KEYS[1], request.player_id)
  end
  return cjson.encode(mine)
end
if op == 'bot' then
  if tonumber(ARGV[3]) ~= mine.at then return raw end
  mine.status = 'matched'
  mine.game_id = ARGV[5]
  mine.opponent = {bot = ARGV[4], name = ARGV[4]}
  mine.first_seat = true
  save(mine)
  redis.call('ZREM', KEYS[1], player)
  return cjson.encode(mine)
end
if op == 'cancel' then
  mine.status = 'cancelled'
  save(mine)
  redis.call('ZREM', KEYS[1], player)
  return cjson.encode(mine)
end
return redis.error_reply('unknown operation ' .. op)
