--- @include "history-bucket"

-- Appends one entry to each record's history, kept in its bucket (one key per record given, keys may
-- repeat, all of one connection), and keeps every history it touches bounded: the record's last
-- `perRecord` entries, none older than `cutoff`. The bucket expires `ttlMs` after its last append: a
-- bucket no record has touched for that long holds nothing younger (the sweep's prune, prune-history-1,
-- drops the old records of buckets that stay in use).
-- KEYS: the bucket of each record
-- ARGV: perRecord, ttlMs, cutoff (ms), then per key: the record's ERP id, its encoded entry
-- Returns the number of entries dropped for age.
local perRecord, ttlMs, cutoff = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local dropped = 0
local emptied = {}
for k = 1, #KEYS do
  local key, erpId, entry = KEYS[k], ARGV[2 + 2 * k], ARGV[3 + 2 * k]
  local i = historyIdAt(key, erpId)
  local entries = { entry }
  if i then
    entries = historySplit(redis.call('lindex', key, i + 1))
    entries[#entries + 1] = entry
  end
  local kept, aged = historyTrim(entries, perRecord, cutoff)
  dropped = dropped + aged
  if kept and i then
    redis.call('lset', key, i + 1, kept)
  elseif kept then
    redis.call('rpush', key, erpId, kept)
  elseif i then
    historyDrop(key, i)
    emptied[key] = true
  end
  redis.call('pexpire', key, ttlMs)
end
for key in pairs(emptied) do redis.call('lrem', key, 0, HISTORY_GONE) end
return dropped
