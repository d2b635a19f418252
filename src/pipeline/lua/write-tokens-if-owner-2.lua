-- Writes refreshed tokens only while the refresh lock is still ours: a refresh that outlived its lock
-- must not overwrite a newer rotation (fencing). A refresh that worked clears the last refusal.
-- KEYS: token hash, refresh lock   ARGV: owner, accessToken, expiresAt, refreshToken, rotatedAt
-- (the tokens sealed by the caller when a key is set). Returns 1 when written, 0 when the lock was lost.
if redis.call('get', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('hset', KEYS[1], 'accessToken', ARGV[2], 'expiresAt', ARGV[3], 'refreshToken', ARGV[4], 'rotatedAt', ARGV[5])
redis.call('hdel', KEYS[1], 'failedAt', 'failure')
return 1
