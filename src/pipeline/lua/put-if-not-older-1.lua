-- KEYS: hash of JSON entries   ARGV: field, version, entryJson
-- Returns 1 when written, 0 when the stored entry is newer.
--- @include "put-if-not-older"

return putIfNotOlder(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
