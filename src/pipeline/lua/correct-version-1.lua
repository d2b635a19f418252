-- Corrects an entry whose version the source never had (a delivery's time in the future, a delete the
-- source denies): when the entry still holds exactly the version the repair saw before it read the
-- source, its version becomes the source's, its delete mark goes and its content hash is forgotten, so
-- the repair's upsert writes the record again. An entry changed since (an upsert committed) is left.
-- KEYS: ledger   ARGV: erpId, seenVersion, sourceVersion, repairHash
-- Returns 1 when corrected, 0 when the entry is gone or no longer holds the version seen.
local cur = redis.call('hget', KEYS[1], ARGV[1])
if not cur then return 0 end
local entry = cjson.decode(cur)
if entry.version ~= ARGV[2] then return 0 end
entry.version = ARGV[3]
entry.sourceDeletedAt = nil
entry.hash = ARGV[4]
redis.call('hset', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
