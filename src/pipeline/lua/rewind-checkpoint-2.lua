-- Compare-and-set of a rewound checkpoint: written only if the stored one is still the one the caller
-- read, and the entity's rewind count is bumped so a pull that read the checkpoint before cannot save
-- over the rewind.
-- KEYS: checkpoints, rewind counts   ARGV: entity, checkpointJsonRead, rewoundCheckpointJson
-- Returns 1 when rewound, 0 when the checkpoint changed since it was read (read again and retry).
--- @include "count-rewind"
local cur = redis.call('hget', KEYS[1], ARGV[1])
if cur ~= ARGV[2] then return 0 end
redis.call('hset', KEYS[1], ARGV[1], ARGV[3])
countRewind(KEYS[2], ARGV[1])
return 1
