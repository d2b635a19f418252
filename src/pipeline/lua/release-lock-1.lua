-- KEYS: lock   ARGV: owner
--- @include "release-lock"

return releaseLock(KEYS[1], ARGV[1])
