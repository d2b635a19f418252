-- Re-seals a token hash's values under the current key, each only if it is still what was read: a
-- refresh that wrote meanwhile already sealed its values under the current key.
-- KEYS: token hash   ARGV: field, value read, new value (repeated)
-- Returns how many values were replaced.
local n = 0
for i = 1, #ARGV, 3 do
  if redis.call('hget', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('hset', KEYS[1], ARGV[i], ARGV[i + 2])
    n = n + 1
  end
end
return n
