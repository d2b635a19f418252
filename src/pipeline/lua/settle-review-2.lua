-- A person's decision on one held record (review-queue.ts), only for the version and content they saw:
-- replaces the entry (a rejection) or removes it (an approval) when the stored entry is still that one,
-- with the index beside the entries (field → "state|rule").
-- KEYS: the connection's review hash, its index
-- ARGV: field (entity|erpId), version, content hash, entry JSON ('' = remove)
-- Returns 1 when done, 0 when the entry is gone or another version replaced it.

local cur = redis.call('hget', KEYS[1], ARGV[1])
if not cur then return 0 end
local e = cjson.decode(cur)
if e.version ~= ARGV[2] or e.hash ~= ARGV[3] then return 0 end
if ARGV[4] == '' then
  redis.call('hdel', KEYS[1], ARGV[1])
  redis.call('hdel', KEYS[2], ARGV[1])
else
  local next = cjson.decode(ARGV[4])
  redis.call('hset', KEYS[1], ARGV[1], ARGV[4])
  redis.call('hset', KEYS[2], ARGV[1], next.state .. '|' .. next.rule)
end
return 1
