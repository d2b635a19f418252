-- Parks a connection until an instant, never shortening a longer park already there (two jobs hitting
-- the vendor's day limit at once both park; the later reset wins).
-- KEYS: park key   ARGV: untilMs, msFromNow
-- Returns 1 when the park was set or lengthened, 0 when a longer one was already there.
if redis.call('pttl', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
