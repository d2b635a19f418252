-- Saves a pull's checkpoint unless the stream was rewound since that pull read it: a rewind (repair,
-- replay) bumps the entity's rewind count, and the pull passes the count it read.
-- KEYS: checkpoints, rewind counts   ARGV: entity, checkpointJson, rewindsSeen
-- Returns 1 when saved, 0 when a rewind happened in between (the rewound checkpoint stays).
local rewinds = redis.call('hget', KEYS[2], ARGV[1]) or '0'
if rewinds ~= ARGV[3] then return 0 end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return 1
