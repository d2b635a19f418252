-- A connection's state starts over for another billing company (`erp-sync state rebind --new-company`),
-- in one atomic step: its checkpoints (incremental, and each entity's backfill windows) go, and each
-- entity's checkpoint counts as rewound, so a pull that read the old checkpoint can no longer save it;
-- customers ensured, quarantine, in-flight index, reconcile verdicts and summary and the last pull
-- errors are cleared; the connection is bound to the new company. The ledger is not touched here (its
-- owner forgets what was written, entry by entry).
-- KEYS: checkpoints, rewind counts, customers ensured, quarantine, in-flight, verdicts, reconcile,
--   last errors, billing company, then one backfill-window checkpoint key per entity, then the review
--   queue, its index and its first-sync mark
-- ARGV: billing binding JSON, then the entity of each window key, in the same order
-- Returns the number of keys deleted.
--- @include "count-rewind"
local deleted = 0
for i = 1, #ARGV - 1 do
  local window = KEYS[9 + i]
  deleted = deleted + redis.call('del', window)
  countRewind(KEYS[2], ARGV[1 + i])
end
for _, i in ipairs({ 1, 3, 4, 5, 6, 7, 8 }) do
  local key = KEYS[i]
  deleted = deleted + redis.call('del', key)
end
-- After the window keys: the review queue, its index and its first-sync mark (held bodies were mapped for the old company).
for i = 9 + #ARGV, #KEYS do
  local key = KEYS[i]
  deleted = deleted + redis.call('del', key)
end
redis.call('set', KEYS[9], ARGV[1])
return deleted
