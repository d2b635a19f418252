-- One billing key's rate budget (billing.rateLimit.scope: key): fixed windows of durationMs with at most
-- max slots each, handed out in order, so a caller whose window is full is given a slot in the first
-- window with room and waits for that slot once. (A plain counter, like BullMQ's own limiter, only says
-- when the current window ends: every caller that missed it would come back at that
-- instant together, and a job that missed N windows would be started N times.) A 429 pauses the key:
-- no slot before the pause ends. Time is Redis's, so every process agrees on the windows.
-- KEYS: the budget hash {w: the window being filled, c: slots given in it, p: paused until, ms}
-- ARGV: max, durationMs, held (a slot the caller was given earlier, ms; 0 = none), pauseMs (0 = none)
-- Returns {waitMs, slotAtMs}: waitMs 0 = call now; else come back at slotAtMs (Redis time).
local max = tonumber(ARGV[1])
local d = tonumber(ARGV[2])
local held = tonumber(ARGV[3])
local pauseMs = tonumber(ARGV[4])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local p = tonumber(redis.call('hget', KEYS[1], 'p')) or 0
if pauseMs > 0 and now + pauseMs > p then
  p = now + pauseMs
  redis.call('hset', KEYS[1], 'p', p)
end
-- A slot given earlier is used when its time has come (100 ms early is on time: the caller's delay ran
-- on its own clock), unless it is older than a window or the key was paused since.
if held > 0 and pauseMs == 0 and held <= now + 100 and held > now - d and p <= now then
  return {0, held}
end
local first = math.floor(math.max(now, p) / d)
local w = tonumber(redis.call('hget', KEYS[1], 'w')) or first
local c = tonumber(redis.call('hget', KEYS[1], 'c')) or 0
if w < first then
  w = first
  c = 0
end
if c >= max then
  w = w + 1
  c = 0
end
c = c + 1
redis.call('hset', KEYS[1], 'w', w, 'c', c)
local at = math.max(w * d, now, p)
-- Kept while it holds a reservation or a pause.
redis.call('pexpire', KEYS[1], at - now + d)
return {at - now, at}
