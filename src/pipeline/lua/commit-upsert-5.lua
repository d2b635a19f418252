-- An upsert job's last round trip: the ledger entry (never over a newer version), its place in the
-- ledger's document-date index (with the entry, so the two never disagree), the quarantine entry
-- cleared (unless newer), the record's in-flight entry settled (if still this job's), the record lock
-- released (if still ours).
-- KEYS: ledger, quarantine, record lock, in-flight, date index
-- ARGV: erpId, version, entryJson, field, owner, jobId, dayScore ('' = the entity is not indexed)
-- Returns 1 when the ledger entry was written, 0 when a newer version was already there.
--- @include "put-if-not-older"
--- @include "clear-if-not-newer"
--- @include "release-lock"
--- @include "settle-in-flight"

local written = putIfNotOlder(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
if written == 1 and ARGV[7] ~= '' then redis.call('zadd', KEYS[5], ARGV[7], ARGV[1]) end
clearIfNotNewer(KEYS[2], ARGV[4], ARGV[2])
settleInFlight(KEYS[4], ARGV[4], ARGV[6])
releaseLock(KEYS[3], ARGV[5])
return written
