-- One atomic check-and-take of a vendor quota slot, counted as the vendors count: the minute is a rolling
-- window (a log of the last 60 s of calls), the day a rolling 24 h (1-minute buckets; a calendar day at any
-- UTC offset never holds more calls than some rolling 24 h does, so staying under it keeps every vendor
-- day safe), and concurrency a set of leases that expire (a killed process cannot hold a slot for ever).
-- Returns 0 when a slot was taken, else how long to wait (ms): positive for the minute or concurrency,
-- negative for a park or a spent day, so callers can tell "busy" from "parked".
-- KEYS: minute log (zset: lease -> ms), day buckets (hash: minute index -> calls, 't' total, 'o' oldest),
--       in-flight leases (zset scored by expiry), park key
-- ARGV: now, perMinute, perDay (0: none), concurrency, leaseId, leaseTtlMs
local park = redis.call('pttl', KEYS[4])
if park > 0 then return -park end
local now = tonumber(ARGV[1])
local perMinute, perDay, concurrency = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])

redis.call('zremrangebyscore', KEYS[3], '-inf', now)
if redis.call('zcard', KEYS[3]) >= concurrency then return 25 end

redis.call('zremrangebyscore', KEYS[1], '-inf', now - 60000)
local inMinute = redis.call('zcard', KEYS[1])
if inMinute >= perMinute then
  -- The call that must leave the window before one more fits (the log may hold more than the limit after
  -- the vendor said it counts more than we do: see observe-quota-2.lua).
  local oldest = redis.call('zrange', KEYS[1], inMinute - perMinute, inMinute - perMinute, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + 60000 - now)
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
    return -math.max(1, (b + 1440) * 60000 - now)
  end
  redis.call('hincrby', KEYS[2], tostring(bucket), 1)
  redis.call('hincrby', KEYS[2], 't', 1)
  redis.call('pexpire', KEYS[2], 90000000)
end

redis.call('zadd', KEYS[1], now, ARGV[5])
redis.call('pexpire', KEYS[1], 61000)
redis.call('zadd', KEYS[3], now + tonumber(ARGV[6]), ARGV[5])
redis.call('pexpire', KEYS[3], tonumber(ARGV[6]) + 1000)
return 0
