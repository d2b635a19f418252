-- KEYS: lock   ARGV: owner, ttlMs
-- Returns 1 when taken (or already this owner's), 0 when another owner holds it.
--- @include "take-lock"

if takeLock(KEYS[1], ARGV[1], ARGV[2]) then return 1 end
return 0
