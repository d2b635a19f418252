-- Records a source delete on the ledger entry AS IT IS NOW (a newer version committed meanwhile keeps
-- its content). With bumpVersion '1', the entry's version becomes the delete's when that is newer.
-- KEYS: ledger   ARGV: erpId, deletedAt, bumpVersion ('1' | '0')
-- Returns 1 when marked, 0 when there is no entry or it is already marked.
local cur = redis.call('hget', KEYS[1], ARGV[1])
if not cur then return 0 end
local entry = cjson.decode(cur)
if type(entry.sourceDeletedAt) == 'string' then return 0 end
entry.sourceDeletedAt = ARGV[2]
if ARGV[3] == '1' and ARGV[2] > entry.version then entry.version = ARGV[2] end
redis.call('hset', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
