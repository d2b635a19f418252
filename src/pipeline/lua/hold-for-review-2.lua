-- Holds one record for review (review-queue.ts), by its source version and content:
--   a newer version already held or rejected: nothing changes ('newer');
--   this version and content already there: it stays as it is, held (its `since` kept: 'kept') or
--     rejected (until the source changes it again: 'rejected');
--   else (nothing there, an older version, or the same version with other content): this entry
--     replaces it ('held').
-- The index beside the entries (field → "state|rule") is what counting reads, never the bodies.
-- KEYS: the connection's review hash, its index
-- ARGV: field (entity|erpId), version, content hash, entry JSON, rule
--- @include "stored-is-newer"

local field, version, hash = ARGV[1], ARGV[2], ARGV[3]
if storedIsNewer(KEYS[1], field, version) then return 'newer' end
local cur = redis.call('hget', KEYS[1], field)
if cur then
  local e = cjson.decode(cur)
  if e.version == version and e.hash == hash then
    if e.state == 'held' then return 'kept' end
    return e.state
  end
end
redis.call('hset', KEYS[1], field, ARGV[4])
redis.call('hset', KEYS[2], field, 'held|' .. ARGV[5])
return 'held'
