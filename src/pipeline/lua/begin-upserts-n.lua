-- The first round trip of an upsert job, for each of its records (one record, or a batch's): take the
-- record's lock, read its ledger entry, and whether its buyer is already ensured.
-- KEYS: ledger, customers-ensured, then one record lock per record
-- ARGV: owner, lockTtlMs, then per record: erpId, buyerId ('' = none)
-- Returns per record, flat: locked (0/1), ledger entry JSON or nil, ensured (0/1); a record whose lock
-- another owner holds gets {0, nil, 0} and nothing of it is read.
--- @include "take-lock"

local out = {}
for i = 3, #KEYS do
  local erpId, buyerId = ARGV[2 * i - 3], ARGV[2 * i - 2]
  if takeLock(KEYS[i], ARGV[1], ARGV[2]) then
    local ensured = 0
    if buyerId ~= '' then ensured = redis.call('sismember', KEYS[2], buyerId) end
    out[#out + 1] = 1
    out[#out + 1] = redis.call('hget', KEYS[1], erpId)
    out[#out + 1] = ensured
  else
    out[#out + 1] = 0
    out[#out + 1] = false
    out[#out + 1] = 0
  end
end
return out
