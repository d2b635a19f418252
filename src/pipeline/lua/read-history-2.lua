--- @include "history-bucket"

-- One record's history: its entries in its bucket (joined, '' when it has none there), and the list a
-- release before the buckets kept for it (empty once that has expired).
-- KEYS: the record's bucket, its list of an earlier release
-- ARGV: the record's ERP id
local i = historyIdAt(KEYS[1], ARGV[1])
local joined = i and redis.call('lindex', KEYS[1], i + 1) or ''
return { joined, redis.call('lrange', KEYS[2], 0, -1) }
