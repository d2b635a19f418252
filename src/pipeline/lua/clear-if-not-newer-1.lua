-- KEYS: hash of JSON entries   ARGV: field, version
-- Returns 1 when removed, 0 when absent or newer than `version`.
--- @include "clear-if-not-newer"

return clearIfNotNewer(KEYS[1], ARGV[1], ARGV[2])
