-- KEYS: in-flight hash   ARGV: fromJobId, toJobId, field, value ("<toJobId>|<enqueuedAtMs>|<payload>")
-- A record leaving job `fromJobId` for its own job `toJobId`, checked and moved in one step, so two
-- callers handing the same record over at once never put back an entry its own job has since settled.
-- Returns 1 when the entry named `fromJobId` and now names `toJobId`; 2 when it already named `toJobId`
-- (handed over by another call; left as it is); 0 otherwise (finished, or a newer version on its way).
local v = redis.call('hget', KEYS[1], ARGV[3])
if not v then return 0 end
if string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  redis.call('hset', KEYS[1], ARGV[3], ARGV[4])
  return 1
end
if string.sub(v, 1, #ARGV[2] + 1) == ARGV[2] .. '|' then return 2 end
return 0
