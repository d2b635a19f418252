-- KEYS: in-flight hash   ARGV: field, jobId
-- Returns 1 when the entry was this job's and is now settled, 0 otherwise.
--- @include "settle-in-flight"

return settleInFlight(KEYS[1], ARGV[1], ARGV[2])
