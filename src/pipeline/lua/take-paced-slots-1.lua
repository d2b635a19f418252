-- The deployment's billing budget: at most `max` calls in ANY window of `windowMs`, shared by every
-- process. A sliding log, not fixed windows: a fixed window (BullMQ's limiter, or counting per clock
-- second) lets `max` calls through at the end of one window and `max` more at the start of the next,
-- twice the limit within one window of the billing service's own, which answers 429.
-- A caller who finds the log full is given the first instant a window allows (the time the entry `max`
-- places back leaves the window) and that slot is reserved at once, so waiters are handed successive
-- slots and each waits exactly once, instead of all waking when one slot frees.
-- One call hands out `count` slots, one after the other, exactly as `count` calls in a row would: the
-- callers of one process that ask at the same moment share a round trip.
-- A 429 from billing pauses the log (pause-paced-slots-1.lua: the member 'pause', scored with the instant
-- the pause ends): no slot is handed out before that instant, to any process, so requests of jobs
-- already running (a batch's next record) wait out Retry-After instead of meeting another 429.
-- Time is Redis's, so every process agrees.
-- KEYS: the log (sorted set: call times in ms, reservations included, and the pause)
-- ARGV: max, windowMs, member prefix (unique per process), first sequence number, count
-- Returns, per slot, the ms to wait before calling (0 = now); slot i is the member `prefix:(first + i - 1)`.
local max, w = tonumber(ARGV[1]), tonumber(ARGV[2])
local first, count = tonumber(ARGV[4]), tonumber(ARGV[5])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now - w)
local pause = redis.call('zscore', KEYS[1], 'pause')
local waits = {}
local last = now
for s = 0, count - 1 do
  local n = redis.call('zcard', KEYS[1])
  local pauseRank
  if pause then
    n = n - 1
    pauseRank = redis.call('zrank', KEYS[1], 'pause')
  end
  local at = now
  if n >= max then
    local i = n - max
    if pauseRank and pauseRank <= i then i = i + 1 end
    local e = redis.call('zrange', KEYS[1], i, i, 'WITHSCORES')
    at = math.max(now, tonumber(e[2]) + w)
  end
  if pause then at = math.max(at, tonumber(pause)) end
  redis.call('zadd', KEYS[1], at, ARGV[3] .. ':' .. (first + s))
  if at > last then last = at end
  waits[#waits + 1] = at - now
end
redis.call('pexpire', KEYS[1], last - now + w)
return waits
