--- @include "stored-is-newer"

-- Removes the entry unless it is newer than the version that just succeeded.
local function clearIfNotNewer(key, field, version)
  if redis.call('hexists', key, field) == 0 then return 0 end
  if storedIsNewer(key, field, version) then return 0 end
  return redis.call('hdel', key, field)
end
