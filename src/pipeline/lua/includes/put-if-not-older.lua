--- @include "stored-is-newer"

-- Writes the entry unless the stored one is newer: a late, older job never rolls a version back.
local function putIfNotOlder(key, field, version, json)
  if storedIsNewer(key, field, version) then return 0 end
  redis.call('hset', key, field, json)
  return 1
end
