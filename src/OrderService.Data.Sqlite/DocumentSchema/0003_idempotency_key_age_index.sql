-- Document layout, version 3: Idempotency-Keys expire (Store:IdempotencyKeys). The clean-up deletes the keys older
-- than the retention in small batches, oldest first; this index makes each batch a range read, not a table scan.
CREATE INDEX IF NOT EXISTS ix_order_document_keys_created_at ON order_document_keys (created_at);
