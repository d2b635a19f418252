--- @include "history-bucket"

-- Drops, from one bucket, the entries older than `cutoff`, and the records left with none: what the
-- append does to the record it writes, for the records of a bucket no append touches again.
-- KEYS: a record-history bucket
-- ARGV: cutoff (ms)
-- Returns { entries dropped, records dropped }.
local key, cutoff = KEYS[1], tonumber(ARGV[1])
local entriesDropped, recordsDropped = 0, 0
local items = redis.call('lrange', key, 0, -1)
for i = 1, #items - 1, 2 do
  local at = historyAt(items[i + 1])
  if at and at < cutoff then
    local kept, aged = historyTrim(historySplit(items[i + 1]), 0, cutoff)
    entriesDropped = entriesDropped + aged
    if kept then
      redis.call('lset', key, i, kept)
    else
      historyDrop(key, i - 1)
      recordsDropped = recordsDropped + 1
    end
  end
end
if recordsDropped > 0 then redis.call('lrem', key, 0, HISTORY_GONE) end
return { entriesDropped, recordsDropped }
