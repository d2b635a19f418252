-- Deletes the lock only while `owner` still holds it (compare-and-delete).
local function releaseLock(key, owner)
  if redis.call('get', key) == owner then return redis.call('del', key) end
  return 0
end
