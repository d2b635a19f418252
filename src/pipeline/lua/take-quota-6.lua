-- One atomic check-and-take of a vendor quota slot, counted as the vendors count: the minute is a rolling
-- window (a log of the last 60 s of calls), the day a rolling 24 h (1-minute buckets; a calendar day at any
-- UTC offset never holds more calls than some rolling 24 h does, so staying under it keeps every vendor
-- day safe), and concurrency a set of leases that expire (a killed process cannot hold a slot for ever).
-- Lanes (src/waits/vendor-waits.ts, quotaLaneRule): an `announced` read that must wait is written in the
-- waiters set until it takes a slot (or its entry expires: a dead process's wait ends by itself); a
-- `history` call is paced, one per paceMs, and one per yieldPaceMs while any announced read waits, so the
-- slots that free go to the announced reads first and history still moves.
-- Returns {what, ms}: {0, 0} a slot was taken; {1, ms} the minute is full for ms; {2, 25} every
-- concurrency slot is busy (poll); {3, ms} history's next paced slot; {4, ms} parked or the day spent.
-- KEYS: minute log (zset: lease -> ms), day buckets (hash: minute index -> calls, 't' total, 'o' oldest),
--       in-flight leases (zset scored by expiry), park key, announced waiters (zset: lease -> expiry),
--       history's last call (ms)
-- ARGV: now, perMinute, perDay (0: none), concurrency, leaseId, leaseTtlMs, lane, paceMs, yieldPaceMs,
--       waiterTtlMs (how long past its wait an announced waiter counts)
local park = redis.call('pttl', KEYS[4])
if park > 0 then return {4, park} end
local now = tonumber(ARGV[1])
local perMinute, perDay, concurrency = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local lane = ARGV[7]

redis.call('zremrangebyscore', KEYS[5], '-inf', now)
local function busy(what, ms)
  if lane == 'announced' then
    local ttl = ms + tonumber(ARGV[10])
    redis.call('zadd', KEYS[5], now + ttl, ARGV[5])
    if redis.call('pttl', KEYS[5]) < ttl + 1000 then redis.call('pexpire', KEYS[5], ttl + 1000) end
  end
  return {what, ms}
end
if lane == 'history' then
  local pace = tonumber(ARGV[8])
  local last = tonumber(redis.call('get', KEYS[6]) or '0')
  if redis.call('zcard', KEYS[5]) > 0 and now < last + tonumber(ARGV[9]) then
    -- Yielding: asked again within one pace, so history goes on as soon as the announced reads are served.
    return {3, math.min(last + tonumber(ARGV[9]) - now, math.max(pace, 1))}
  end
  if pace > 0 and now < last + pace then return {3, last + pace - now} end
end

redis.call('zremrangebyscore', KEYS[3], '-inf', now)
if redis.call('zcard', KEYS[3]) >= concurrency then return busy(2, 25) end

redis.call('zremrangebyscore', KEYS[1], '-inf', now - 60000)
local inMinute = redis.call('zcard', KEYS[1])
if inMinute >= perMinute then
  -- The call that must leave the window before one more fits (the log may hold more than the limit after
  -- the vendor said it counts more than we do: see observe-quota-2.lua).
  local oldest = redis.call('zrange', KEYS[1], inMinute - perMinute, inMinute - perMinute, 'WITHSCORES')
  return busy(1, math.max(1, tonumber(oldest[2]) + 60000 - now))
end

local bucket = math.floor(now / 60000)
if perDay > 0 then
  local first = bucket - 1439
  local total = tonumber(redis.call('hget', KEYS[2], 't') or '0')
  local oldest = tonumber(redis.call('hget', KEYS[2], 'o') or tostring(bucket))
  if first - oldest > 1440 then
    redis.call('del', KEYS[2])
    total, oldest = 0, first
  end
  while oldest < first do
    local c = redis.call('hget', KEYS[2], tostring(oldest))
    if c then
      total = total - tonumber(c)
      redis.call('hdel', KEYS[2], tostring(oldest))
    end
    oldest = oldest + 1
  end
  redis.call('hset', KEYS[2], 't', total, 'o', oldest)
  if total >= perDay then
    -- Walk forward to the bucket whose expiry brings the day under its cap; bucket b stops counting at
    -- minute b + 1440.
    local passed, b = 0, oldest
    while b < bucket do
      passed = passed + tonumber(redis.call('hget', KEYS[2], tostring(b)) or '0')
      if total - passed < perDay then break end
      b = b + 1
    end
    return {4, math.max(1, (b + 1440) * 60000 - now)}
  end
  redis.call('hincrby', KEYS[2], tostring(bucket), 1)
  redis.call('hincrby', KEYS[2], 't', 1)
  redis.call('pexpire', KEYS[2], 90000000)
end

redis.call('zadd', KEYS[1], now, ARGV[5])
redis.call('pexpire', KEYS[1], 61000)
redis.call('zadd', KEYS[3], now + tonumber(ARGV[6]), ARGV[5])
redis.call('pexpire', KEYS[3], tonumber(ARGV[6]) + 1000)
if lane == 'announced' then redis.call('zrem', KEYS[5], ARGV[5]) end
if lane == 'history' then redis.call('set', KEYS[6], now, 'PX', 61000) end
return {0, 0}
