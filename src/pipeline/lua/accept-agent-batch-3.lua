-- One batch an agent pushed (agent-inbox.ts), made durable at once: the records (latest copy per id), their
-- order by change counter, and the entity's acknowledged position; the agent's contact in every case.
-- KEYS: the entity's records hash, its order sorted set, the connection's agent state hash
-- ARGV: entity, fromCounter, toCounter, nowMs, agentVersion, backlog, lookups JSON or '', then per record:
--       id, counter, raw JSON
-- Returns {1, acked} when taken (a batch already taken is taken again without change), {0, acked} when the
-- batch starts after the acknowledged position (a gap: the agent resends from `acked`).
local state = KEYS[3]
local entity = ARGV[1]
local from = tonumber(ARGV[2])
local to = tonumber(ARGV[3])
redis.call('hset', state, 'lastContactMs', ARGV[4], 'agentVersion', ARGV[5], 'backlog', ARGV[6])
local acked = tonumber(redis.call('hget', state, 'acked:' .. entity) or '0')
if from > acked then return {0, acked} end
for i = 8, #ARGV, 3 do
  local id = ARGV[i]
  local counter = tonumber(ARGV[i + 1])
  local held = redis.call('zscore', KEYS[2], id)
  if not held or counter >= tonumber(held) then
    redis.call('hset', KEYS[1], id, ARGV[i + 2])
    redis.call('zadd', KEYS[2], counter, id)
  end
end
if ARGV[7] ~= '' then redis.call('hset', state, 'lookups', ARGV[7]) end
if to > acked then
  acked = to
  redis.call('hset', state, 'acked:' .. entity, tostring(acked))
end
return {1, acked}
