-- The last round trip of an upsert job, for each record it took the lock of (one record, or a batch's),
-- in one atomic step. Per record, by its outcome:
--   w (written to billing): the ledger entry (never over a newer version) and its place in the ledger's
--     document-date index (with the entry, so the two never disagree); the quarantine entry cleared
--     (unless newer); the in-flight entry settled (if still this job's); the lock released
--   u (unchanged: billing already holds this content): quarantine cleared (unless newer), in-flight settled,
--     lock released
--   s (stale: the ledger holds a newer version): in-flight settled, lock released
--   h (held for review before write): quarantine cleared (unless newer: a held record is not quarantined),
--     in-flight settled, lock released (the ledger is not touched)
--   r (no outcome here: set aside, left the batch, quarantined, failed): lock released
-- KEYS: ledger, quarantine, in-flight, date index, then one record lock per record
-- ARGV: owner, jobId, then per record: outcome, erpId, field (entity|erpId), version, entry JSON ('' unless w),
--   dayScore ('' = not indexed)
-- Returns per record: 1 when its ledger entry was written, else 0.
--- @include "put-if-not-older"
--- @include "clear-if-not-newer"
--- @include "release-lock"
--- @include "settle-in-flight"

local owner, jobId = ARGV[1], ARGV[2]
local out = {}
for i = 5, #KEYS do
  local at = 3 + (i - 5) * 6
  local outcome, erpId, field, version, entry, dayScore = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], ARGV[at + 5]
  local written = 0
  if outcome == 'w' then
    written = putIfNotOlder(KEYS[1], erpId, version, entry)
    if written == 1 and dayScore ~= '' then redis.call('zadd', KEYS[4], dayScore, erpId) end
  end
  if outcome == 'w' or outcome == 'u' or outcome == 'h' then clearIfNotNewer(KEYS[2], field, version) end
  if outcome ~= 'r' then settleInFlight(KEYS[3], field, jobId) end
  releaseLock(KEYS[i], owner)
  out[#out + 1] = written
end
return out
