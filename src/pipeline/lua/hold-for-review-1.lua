-- Holds one record for review (review-queue.ts), by its source version:
--   a newer version already held or rejected: nothing changes ('newer');
--   this version already rejected: it stays rejected until the source changes it again ('rejected');
--   this version already held: it stays as it is, its `since` kept ('held');
--   else (nothing there, or an older version held or rejected): this entry replaces it ('held').
-- KEYS: the connection's review hash
-- ARGV: field (entity|erpId), version, entry JSON
--- @include "stored-is-newer"

local field, version = ARGV[1], ARGV[2]
if storedIsNewer(KEYS[1], field, version) then return 'newer' end
local cur = redis.call('hget', KEYS[1], field)
if cur then
  local e = cjson.decode(cur)
  if e.version == version then return e.state end
end
redis.call('hset', KEYS[1], field, ARGV[3])
return 'held'
