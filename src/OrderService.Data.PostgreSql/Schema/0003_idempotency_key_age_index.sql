-- Version 3: Idempotency-Keys expire (Store:IdempotencyKeys). The clean-up deletes the keys older than the retention
-- in small batches, oldest first; this index makes each batch a range read instead of a scan of the whole table.
-- created_at only grows, so a keyed write adds its entry at the index's right edge.
-- Built inside the migration's transaction (no CONCURRENTLY): keyed writes wait while it builds.
CREATE INDEX ix_idempotency_keys_created_at ON idempotency_keys (created_at);
