-- KEYS: health hash   ARGV: now ms, changes no delivery announced, threshold
-- A safety-net pull's verdict. Misses add up over consecutive pulls that find some; past the
-- threshold the connection is degraded (back on its short schedule). A pull that finds none ends the
-- streak and, once deliveries have been accepted since the connection was degraded, restores it.
-- Returns degradedSince (ms) or 0.
local now, missed, threshold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if missed > 0 then
  local total = redis.call('HINCRBY', KEYS[1], 'missed', missed)
  if total >= threshold and not redis.call('HGET', KEYS[1], 'degradedSince') then
    redis.call('HSET', KEYS[1], 'degradedSince', now)
  end
else
  redis.call('HSET', KEYS[1], 'missed', 0)
  local since = tonumber(redis.call('HGET', KEYS[1], 'degradedSince') or '0')
  local last = tonumber(redis.call('HGET', KEYS[1], 'lastDelivery') or '0')
  if since > 0 and last > since then redis.call('HDEL', KEYS[1], 'degradedSince') end
end
return tonumber(redis.call('HGET', KEYS[1], 'degradedSince') or '0')
