-- Fills the document-date index from ledger entries read earlier: a member is added only where the
-- ledger still holds the entry and the index does not hold it yet (NX), so an upsert that committed
-- meanwhile (and indexed its own, newer date) is never overwritten with the date read before it.
-- KEYS: ledger, date index   ARGV: erpId, dayScore, erpId, dayScore, ...
-- Returns how many members were added.
local added = 0
for i = 1, #ARGV, 2 do
  if redis.call('hexists', KEYS[1], ARGV[i]) == 1 then
    added = added + redis.call('zadd', KEYS[2], 'NX', ARGV[i + 1], ARGV[i])
  end
end
return added
