-- One call of an app's calendar-month budget (QuickBooks: read calls a month across every company of
-- the app), counted only while the budget has room. The key is the app's and the month's, so a new month
-- starts at zero; it expires a week after its month ends.
-- KEYS: the app's month counter   ARGV: budget, expireAtMs
-- Returns the calls counted this month with this one, or -1 when the budget is spent (nothing counted).
local n = tonumber(redis.call('get', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return -1 end
n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpireat', KEYS[1], ARGV[2]) end
return n
