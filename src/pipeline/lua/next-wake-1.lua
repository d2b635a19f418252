-- A line of jobs waiting for the same connection's turn (its next vendor slot, a free job slot): each one
-- put back in the queue gets its own wake-up instant, `spacing` ms after the previous one, never before
-- `earliest`, instead of all waking at once to find one free slot between them.
-- KEYS: line (the last instant handed out)   ARGV: now, earliest, spacing
-- Returns the wake-up instant (ms).
local now, earliest, spacing = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local last = tonumber(redis.call('get', KEYS[1]) or '0')
local nextAt = math.max(earliest, last + spacing)
redis.call('set', KEYS[1], nextAt, 'PX', math.max(1000, nextAt - now + 1000))
return nextAt
