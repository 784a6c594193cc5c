-- OrderService schema for SQL Server, version 4: Idempotency-Keys expire (Store:IdempotencyKeys). The clean-up
-- deletes the keys older than the retention in small batches (DELETE TOP (n) ... WHERE created_at < @Before); this
-- index makes each batch a seek instead of a scan of the whole table, so it locks only the rows it deletes.
-- One batch, no GO (the applier sends it as one command).
CREATE NONCLUSTERED INDEX ix_idempotency_keys_created_at ON dbo.idempotency_keys (created_at);
