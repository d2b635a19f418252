-- A record's in-flight entry reached its outcome: deleted only while it still names `jobId` (a newer
-- version enqueued meanwhile keeps its own entry). Entry value: "<jobId>|<enqueuedAtMs>|<payload>".
local function settleInFlight(key, field, jobId)
  local v = redis.call('hget', key, field)
  if v and string.sub(v, 1, #jobId + 1) == jobId .. '|' then return redis.call('hdel', key, field) end
  return 0
end
