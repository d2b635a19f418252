-- KEYS: the stored connections' hash (field per connection id, and `#version`)
-- ARGV: id, entry (JSON), mode: `create` (only where the id is absent or removed), `replace` (only where it
--       is there and not removed), `purge` (delete the field; no entry)
-- Returns the new version, or 0 when the mode's condition did not hold (nothing written).
local current = redis.call('HGET', KEYS[1], ARGV[1])
local active = false
if current then
  active = cjson.decode(current).removedAt == nil
end
local mode = ARGV[3]
if mode == 'create' and active then return 0 end
if mode == 'replace' and not active then return 0 end
if mode == 'purge' then
  if not current then return 0 end
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
return redis.call('HINCRBY', KEYS[1], '#version', 1)
