-- Checkpoints' rewind rule: every rewind of a stream bumps its rewind count, and a pull's save that
-- presents the count it read before is refused (save-checkpoint-2), so no rewind is saved over.
local function countRewind(rewindsKey, entity)
  redis.call('hincrby', rewindsKey, entity, 1)
end
