-- An upsert job's first round trip: take the record lock, read the ledger entry, and whether the buyer
-- is already ensured.
-- KEYS: record lock, ledger, customers-ensured   ARGV: owner, lockTtlMs, erpId, buyerId ('' = none)
-- Returns {locked (0/1), ledger entry JSON or nil, ensured (0/1)}.
--- @include "take-lock"

if not takeLock(KEYS[1], ARGV[1], ARGV[2]) then return {0, false, 0} end
local entry = redis.call('hget', KEYS[2], ARGV[3])
local ensured = 0
if ARGV[4] ~= '' then ensured = redis.call('sismember', KEYS[3], ARGV[4]) end
return {1, entry, ensured}
