-- A person's decision on one held record (review-queue.ts), only for the version they saw: replaces the
-- entry (a rejection) or removes it (an approval) when the stored entry still has `version`.
-- KEYS: the connection's review hash
-- ARGV: field (entity|erpId), version, entry JSON ('' = remove)
-- Returns 1 when done, 0 when the entry is gone or another version replaced it.

local cur = redis.call('hget', KEYS[1], ARGV[1])
if not cur or cjson.decode(cur).version ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('hdel', KEYS[1], ARGV[1]) else redis.call('hset', KEYS[1], ARGV[1], ARGV[3]) end
return 1
