-- Version 3: Idempotency-Keys expire (Store:IdempotencyKeys). The clean-up deletes the keys older than the retention
-- in small batches, oldest first; this index makes each batch a range read instead of a scan of the whole table.
CREATE INDEX ix_idempotency_keys_created_at ON idempotency_keys (created_at);
