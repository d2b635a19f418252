-- Billing answered 429 with Retry-After: no slot of the deployment's budget is handed out before it has
-- passed (take-paced-slots-1.lua), to any process. The pause is the log's member 'pause', scored with the
-- instant it ends; a longer pause replaces a shorter one, never the reverse.
-- KEYS: the log
-- ARGV: pauseMs, windowMs
-- Returns the instant the pause ends (Redis time, ms).
local ms, w = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zadd', KEYS[1], 'GT', now + ms, 'pause')
local ends = tonumber(redis.call('zscore', KEYS[1], 'pause'))
if redis.call('pttl', KEYS[1]) < ends - now + w then redis.call('pexpire', KEYS[1], ends - now + w) end
return ends
