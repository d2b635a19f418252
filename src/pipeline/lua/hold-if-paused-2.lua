-- A job of a connection is about to start: if the connection is paused, the job is recorded as held
-- (in the same step as the check, so a resume that runs after this sees it and releases it).
-- KEYS: paused key, held-jobs key   ARGV: member ("queue:jobId"; '' records nothing)
-- Returns the pause (its JSON) when paused, else false.
local pause = redis.call('get', KEYS[1])
if not pause then return false end
if ARGV[1] ~= '' then redis.call('sadd', KEYS[2], ARGV[1]) end
return pause
