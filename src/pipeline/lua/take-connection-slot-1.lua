-- A connection's jobs in flight, shared by every worker process: takes (or renews) the slot of one job,
-- unless the connection already has `max` other jobs running. Slots expire (a dead worker's job frees its
-- slot when its lease runs out; a live one renews it).
-- KEYS: slots (zset: job id -> lease expiry)   ARGV: now, job id, leaseMs, max
-- Returns 1 when the job holds a slot, 0 when every slot is taken.
local now = tonumber(ARGV[1])
redis.call('zremrangebyscore', KEYS[1], '-inf', now)
if not redis.call('zscore', KEYS[1], ARGV[2]) and redis.call('zcard', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('zadd', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('pexpire', KEYS[1], tonumber(ARGV[3]) + 1000)
return 1
