-- Puts a connection's refresh token in place: from the config (mode "seed") or from a new grant (mode
-- "replace"). Deleting the refresh lock fences a refresh in flight with the old token: its write finds
-- the lock gone and is dropped, so it cannot overwrite the new grant.
-- KEYS: token hash, refresh lock
-- ARGV: mode, fingerprint (`<fingerprint key id>.<HMAC>` of the config's token; "" for replace), refreshToken (sealed), now,
--       accessToken (sealed, or ""), expiresAt (or "")
-- Returns (seed) 0 = the store was seeded with this token already: kept (it may have rotated since);
--   1 = seeded (the store held no token); 4 = replaced (the config holds a token the store was not
--   seeded with: a re-consent);
--   2 = a store written before fingerprints existed, or fingerprinted under a fingerprint key since lost:
--   its token kept (it may be a rotated, live one), the fingerprint adopted;
--   3 = a token this store was seeded with before and replaced since (a replica still on the old
--   config): kept out, so replicas on two configs cannot take turns replacing each other's token.
-- Returns (replace) 1.
local mode, fp = ARGV[1], ARGV[2]
if mode == 'seed' then
  local seeded = redis.call('hget', KEYS[1], 'seedFp')
  if seeded == fp then return 0 end
  local kid = string.match(fp, '^[^.]+%.')
  local sameKey = seeded and string.sub(seeded, 1, #kid) == kid
  if not sameKey and redis.call('hexists', KEYS[1], 'refreshToken') == 1 then
    redis.call('hset', KEYS[1], 'seedFp', fp)
    return 2
  end
  local retired = redis.call('hget', KEYS[1], 'retiredFp') or ''
  if string.find(',' .. retired .. ',', ',' .. fp .. ',', 1, true) then return 3 end
  if seeded then
    -- Remember the last few replaced fingerprints (keyed digests, never tokens).
    local list = {}
    for f in string.gmatch(retired, '[^,]+') do list[#list + 1] = f end
    list[#list + 1] = seeded
    while #list > 5 do table.remove(list, 1) end
    redis.call('hset', KEYS[1], 'retiredFp', table.concat(list, ','))
  end
end
local had = redis.call('hexists', KEYS[1], 'refreshToken')
redis.call('del', KEYS[2])
redis.call('hdel', KEYS[1], 'accessToken', 'expiresAt', 'rotatedAt', 'failedAt', 'failure')
redis.call('hset', KEYS[1], 'refreshToken', ARGV[3], 'grantedAt', ARGV[4])
if fp ~= '' then redis.call('hset', KEYS[1], 'seedFp', fp) end
if ARGV[5] ~= '' then redis.call('hset', KEYS[1], 'accessToken', ARGV[5], 'expiresAt', ARGV[6]) end
if mode == 'seed' and had == 1 then return 4 end
return 1
