-- The vendor's own count wins: when a response says fewer calls are left in its window than our log
-- leaves us (another integration uses the same organisation, or a process we do not know of), the log is
-- topped up with calls stamped now, so we stop where the vendor would refuse. Never removes a call.
-- The minute log holds one member per call, so a top-up is capped at MAX_TOPUP members: a configured
-- limit far above the vendor's (a million a minute against Xero's 60) would otherwise add a million
-- members in one script and block Redis for seconds. No vendor allows near that many calls a minute
-- (Xero 60, QuickBooks 500, Zoho Books 100: docs/scheduling.md); past the cap, the vendor's own 429 and
-- Retry-After stop us, as they always can.
-- KEYS: minute log, day buckets (see take-quota-4.lua)
-- ARGV: now, window ('minute' | 'day'), remaining as the vendor reports it, our limit for that window, nonce
local now, remaining, limit = tonumber(ARGV[1]), tonumber(ARGV[3]), tonumber(ARGV[4])
if limit <= 0 then return 0 end
if ARGV[2] == 'minute' then
  redis.call('zremrangebyscore', KEYS[1], '-inf', now - 60000)
  local MAX_TOPUP, BATCH = 5000, 500
  local missing = math.min((limit - redis.call('zcard', KEYS[1])) - remaining, MAX_TOPUP)
  if missing <= 0 then return 0 end
  -- One ZADD per BATCH members: fewer calls, and well under Lua's limit on unpacked arguments.
  local i = 0
  while i < missing do
    local args = {}
    for j = i + 1, math.min(i + BATCH, missing) do
      args[#args + 1] = now
      args[#args + 1] = ARGV[5] .. ':' .. j
    end
    redis.call('zadd', KEYS[1], unpack(args))
    i = i + BATCH
  end
  redis.call('pexpire', KEYS[1], 61000)
  return missing
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
