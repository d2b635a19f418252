-- True when the JSON entry at (key, field) holds a `version` newer than `version`. Versions are UTC
-- ISO-8601 strings of one format, so string order is time order.
local function storedIsNewer(key, field, version)
  local cur = redis.call('hget', key, field)
  if not cur then return false end
  local v = cjson.decode(cur).version
  return type(v) == 'string' and v > version
end
