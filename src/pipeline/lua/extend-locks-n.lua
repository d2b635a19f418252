-- A long upsert job keeps the locks of its records not yet settled: each lock still held by `owner` gets
-- `ttlMs` more; a lock released or taken by another owner is left alone (never taken again here).
-- KEYS: record locks   ARGV: owner, ttlMs
-- Returns how many locks were extended.
local n = 0
for i = 1, #KEYS do
  local lock = KEYS[i]
  if redis.call('get', lock) == ARGV[1] then
    redis.call('pexpire', lock, ARGV[2])
    n = n + 1
  end
end
return n
