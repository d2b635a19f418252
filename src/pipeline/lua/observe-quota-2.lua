-- The vendor's own count wins: when a response says fewer calls are left in its window than our log
-- leaves us (another integration uses the same organisation, or a process we do not know of), the log is
-- topped up with calls stamped now, so we stop where the vendor would refuse. Never removes a call.
-- KEYS: minute log, day buckets (see take-quota-4.lua)
-- ARGV: now, window ('minute' | 'day'), remaining as the vendor reports it, our limit for that window, nonce
local now, remaining, limit = tonumber(ARGV[1]), tonumber(ARGV[3]), tonumber(ARGV[4])
if limit <= 0 then return 0 end
if ARGV[2] == 'minute' then
  redis.call('zremrangebyscore', KEYS[1], '-inf', now - 60000)
  local missing = (limit - redis.call('zcard', KEYS[1])) - remaining
  for i = 1, missing do redis.call('zadd', KEYS[1], now, ARGV[5] .. ':' .. i) end
  if missing > 0 then redis.call('pexpire', KEYS[1], 61000) end
  return math.max(0, missing)
end
local total = tonumber(redis.call('hget', KEYS[2], 't') or '0')
local missing = (limit - total) - remaining
if missing <= 0 then return 0 end
local bucket = math.floor(now / 60000)
if not redis.call('hget', KEYS[2], 'o') then redis.call('hset', KEYS[2], 'o', bucket) end
redis.call('hincrby', KEYS[2], tostring(bucket), missing)
redis.call('hincrby', KEYS[2], 't', missing)
redis.call('pexpire', KEYS[2], 90000000)
return missing
