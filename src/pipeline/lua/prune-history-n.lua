--- @include "history-bucket"

-- Drops, from each bucket given, the entries older than `cutoff`, and the records left with none: what
-- the append does to the record it writes, for the records of a bucket no append touches again.
-- KEYS: record-history buckets (all of one connection)
-- ARGV: cutoff (ms)
-- Returns { entries dropped, records dropped }.
local cutoff = tonumber(ARGV[1])
local entriesDropped, recordsDropped = 0, 0
for _, key in ipairs(KEYS) do
  local items = redis.call('lrange', key, 0, -1)
  local gone = false
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
        gone = true
      end
    end
  end
  if gone then redis.call('lrem', key, 0, HISTORY_GONE) end
end
return { entriesDropped, recordsDropped }
