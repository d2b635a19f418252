-- Appends one entry to each record's history (one key per record, all of one connection), and keeps
-- every history bounded as it writes it: the last `perRecord` entries, none older than `cutoff` (the
-- oldest first in the list; an entry's time is its second `|` slot, ms in base 36), and the key expires
-- `ttlMs` after its last entry, so a record never touched again falls away on its own.
-- KEYS: one history list per record
-- ARGV: perRecord, ttlMs, cutoff (ms), then one encoded entry per key
-- Returns the number of entries dropped for age.
local perRecord, ttlMs, cutoff = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local dropped = 0
for i = 1, #KEYS do
  local key = KEYS[i]
  redis.call('rpush', key, ARGV[3 + i])
  redis.call('ltrim', key, -perRecord, -1)
  while true do
    local oldest = redis.call('lindex', key, 0)
    local at = oldest and tonumber(string.match(oldest, '^[^|]*|([0-9a-z]+)'), 36)
    if not at or at >= cutoff then break end
    redis.call('lpop', key)
    dropped = dropped + 1
  end
  redis.call('pexpire', key, ttlMs)
end
return dropped
