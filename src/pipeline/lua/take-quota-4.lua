-- One atomic check-and-take of a vendor quota slot. Returns 0 when a slot was taken, else how long to
-- wait (ms); negative when the connection is parked (day limit), so callers can tell "parked" from "busy".
-- KEYS: minute counter, day counter, in-flight leases (zset scored by expiry), park key
-- ARGV: now, perMinute, perDay, concurrency, leaseId, leaseTtlMs, msToNextMinute, msToNextDay
local park = redis.call('pttl', KEYS[4])
if park > 0 then return -park end
local now = tonumber(ARGV[1])
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
if redis.call('zcard', KEYS[3]) >= tonumber(ARGV[4]) then return 25 end
local m = tonumber(redis.call('get', KEYS[1]) or '0')
if m >= tonumber(ARGV[2]) then return tonumber(ARGV[7]) end
local perDay = tonumber(ARGV[3])
if perDay > 0 then
  local d = tonumber(redis.call('get', KEYS[2]) or '0')
  if d >= perDay then return -tonumber(ARGV[8]) end
  redis.call('incr', KEYS[2])
  redis.call('pexpire', KEYS[2], 172800000)
end
redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], 61000)
redis.call('zadd', KEYS[3], now + tonumber(ARGV[6]), ARGV[5])
return 0
