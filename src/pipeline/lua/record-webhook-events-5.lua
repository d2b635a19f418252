-- KEYS: pending hash (id -> {op, at}), batch counter, announced zset, seen zset, health hash
-- ARGV: now ms, announced retention ms, seen retention ms, entity, then (id, op, at) per event
-- Records a delivery's events of one stream atomically. An event already seen (same id, op and time)
-- is a duplicate and changes nothing; an event without a time is never taken for a duplicate. The
-- pending entry of an id keeps the newest event (a delete stands against an older change).
-- Returns {batch, fresh events, pending ids}: the read to enqueue is the batch's.
local now = tonumber(ARGV[1])
local entity = ARGV[4]
local fresh = 0
for i = 5, #ARGV, 3 do
  local id, op, at = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local seen = entity .. '|' .. id .. '|' .. op .. '|' .. at
  if at == '' or not redis.call('ZSCORE', KEYS[4], seen) then
    fresh = fresh + 1
    redis.call('ZADD', KEYS[4], now, seen)
    redis.call('ZADD', KEYS[3], now, entity .. '|' .. id)
    local keep = true
    local prev = redis.call('HGET', KEYS[1], id)
    if prev then
      local p = cjson.decode(prev)
      if p.at ~= '' and at ~= '' and p.at > at then keep = false end
      if p.op == 'delete' and op ~= 'delete' and (at == '' or p.at == '' or at <= p.at) then keep = false end
    end
    if keep then redis.call('HSET', KEYS[1], id, cjson.encode({ op = op, at = at })) end
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[2]))
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - tonumber(ARGV[3]))
redis.call('HSET', KEYS[5], 'lastDelivery', now)
redis.call('HSETNX', KEYS[5], 'firstDelivery', now)
return { tonumber(redis.call('GET', KEYS[2]) or '0'), fresh, redis.call('HLEN', KEYS[1]) }
