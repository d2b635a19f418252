-- Free, or already this owner's (the same job taken back after its worker died): take it for ttlMs.
local function takeLock(key, owner, ttlMs)
  local holder = redis.call('get', key)
  if holder and holder ~= owner then return false end
  redis.call('set', key, owner, 'PX', ttlMs)
  return true
end
