-- An approved version written to billing (review-queue.ts): its review entry and index field go, unless
-- the entry is a newer version (held since).
-- KEYS: the connection's review hash, its index
-- ARGV: field (entity|erpId), version
-- Returns 1 when removed, 0 when absent or newer than `version`.
--- @include "clear-if-not-newer"

local removed = clearIfNotNewer(KEYS[1], ARGV[1], ARGV[2])
if removed == 1 then redis.call('hdel', KEYS[2], ARGV[1]) end
return removed
