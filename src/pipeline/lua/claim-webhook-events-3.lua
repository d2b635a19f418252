-- KEYS: pending hash, batch counter, claimed hash (of ARGV[1]'s batch)
-- ARGV: batch, claimed TTL ms
-- A targeted read takes its batch's pending events: once (the batch number moves on, so events
-- arriving from now on make the next batch), and again on its retries (the claimed hash stays until
-- the read ends). A read of a batch already taken and finished gets nothing. Returns HGETALL-style pairs.
if redis.call('EXISTS', KEYS[3]) == 1 then return redis.call('HGETALL', KEYS[3]) end
if tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then return {} end
redis.call('INCR', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('RENAME', KEYS[1], KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return redis.call('HGETALL', KEYS[3])
