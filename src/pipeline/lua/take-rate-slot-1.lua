-- A slot of a fixed-window counter, with the same arithmetic as BullMQ's own queue limiter (INCR,
-- PEXPIRE on the first), so it can share that limiter's key.
-- KEYS: counter   ARGV: max, durationMs
-- Returns 0 when a slot was taken, else the ms until the window ends.
local n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    ttl = tonumber(ARGV[2])
  end
  return ttl
end
return 0
