-- Forgets the content hash of each entry AS IT IS NOW, so the next pull enqueues the record again even
-- if the source did not change; every other field (a newer version committed meanwhile) is kept.
-- KEYS: ledger   ARGV: repairHash, erpId...
-- Returns how many entries were marked (absent ones are skipped).
local marked = 0
for i = 2, #ARGV do
  local cur = redis.call('hget', KEYS[1], ARGV[i])
  if cur then
    local entry = cjson.decode(cur)
    entry.hash = ARGV[1]
    redis.call('hset', KEYS[1], ARGV[i], cjson.encode(entry))
    marked = marked + 1
  end
end
return marked
