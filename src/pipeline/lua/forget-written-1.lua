-- The connection now writes to another billing company, which holds none of its records. Each entry
-- keeps what the source said (version, status, a source delete) and forgets what was sent to the old
-- company (the content hash becomes the repair hash, the attached link and the compared fields go), so
-- the next pull enqueues every record again, under a new job id, and its link is attached again.
-- KEYS: ledger   ARGV: repairHash, erpId...
-- Returns how many entries were rewritten (absent ones are skipped).
local n = 0
for i = 2, #ARGV do
  local cur = redis.call('hget', KEYS[1], ARGV[i])
  if cur then
    local entry = cjson.decode(cur)
    entry.hash = ARGV[1]
    entry.attachmentUrl = nil
    entry.fields = nil
    entry.jobId = nil
    redis.call('hset', KEYS[1], ARGV[i], cjson.encode(entry))
    n = n + 1
  end
end
return n
