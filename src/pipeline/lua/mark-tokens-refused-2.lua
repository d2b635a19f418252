-- Records that the vendor refused the stored refresh token, only while the refresh lock is still ours:
-- a token replaced meanwhile (re-consent) must not be marked with the old one's refusal.
-- KEYS: token hash, refresh lock   ARGV: owner, failedAt, failure (an error code and message, never a token)
-- Returns 1 when recorded, 0 when the lock was lost.
if redis.call('get', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('hset', KEYS[1], 'failedAt', ARGV[2], 'failure', ARGV[3])
redis.call('hdel', KEYS[1], 'accessToken', 'expiresAt')
return 1
