-- A record-history bucket: a list of pairs, a record's ERP id then its entries (oldest first) joined by
-- `%%` (a pair the codec never writes: its only `%` starts an escape, `%` and two hex digits). An entry's
-- time is its second `|` slot, ms in base 36.
local HISTORY_SEP = '%%'
local HISTORY_GONE = ''

-- The index of the record's id in the bucket (ids sit at even indexes), or nil. The first match, as a
-- rule: an odd index is a record's entries equal to this id (entries always hold a `|`), then the next
-- match is looked for (LPOS stops at the match it is asked for; COUNT 0 would read the whole bucket).
local function historyIdAt(key, erpId)
  local rank = 1
  while true do
    local i = redis.call('lpos', key, erpId, 'RANK', rank)
    if not i or i % 2 == 0 then return i or nil end
    rank = rank + 1
  end
end

local function historySplit(joined)
  local out, from = {}, 1
  while true do
    local at = string.find(joined, HISTORY_SEP, from, true)
    if not at then
      out[#out + 1] = string.sub(joined, from)
      return out
    end
    out[#out + 1] = string.sub(joined, from, at - 1)
    from = at + #HISTORY_SEP
  end
end

local function historyAt(entry)
  return tonumber(string.match(entry, '^[^|]*|([0-9a-z]+)'), 36)
end

-- A record's entries kept: the last `perRecord` (0: no bound by count), none older than `cutoff`.
-- Returns the kept entries joined (nil when none is left) and the number dropped for age.
local function historyTrim(entries, perRecord, cutoff)
  local first = 1
  if perRecord > 0 and #entries > perRecord then first = #entries - perRecord + 1 end
  local aged = 0
  while first <= #entries do
    local at = historyAt(entries[first])
    if not at or at >= cutoff then break end
    first = first + 1
    aged = aged + 1
  end
  if first > #entries then return nil, aged end
  return table.concat(entries, HISTORY_SEP, first), aged
end

-- Marks the pair at `i` for removal (LREM of HISTORY_GONE once the script is done with the bucket).
local function historyDrop(key, i)
  redis.call('lset', key, i, HISTORY_GONE)
  redis.call('lset', key, i + 1, HISTORY_GONE)
end
