-- OrderService schema for SQL Server, version 2: retry-safe transitions and keyset paging of the
-- customer listing. One batch, no GO (the applier sends it as one command).
--
-- A transition's Idempotency-Key is stored in the same transaction as its event, with the version that
-- step produced: a replay rebuilds the order as that step left it from the current order. Create keys
-- share the table (one namespace: a key names one request); their step is the creation, version 1,
-- which the default gives the rows already there.
ALTER TABLE dbo.idempotency_keys ADD version int NOT NULL CONSTRAINT df_idempotency_keys_version DEFAULT 1;

-- The listing pages by (created_at DESC, seq DESC): seq breaks ties because SQL Server does not sort
-- uniqueidentifier values in UUIDv7 order. The old index (customer_id, created_at DESC) carried seq as
-- its row locator, ascending, so ties needed a sort; this one holds seq descending and includes id, so a
-- page's lookahead (the created_at and id of the next limit + 1 orders) reads this index alone.
CREATE NONCLUSTERED INDEX ix_orders_customer_keyset ON dbo.orders (customer_id, created_at DESC, seq DESC) INCLUDE (status, id);
DROP INDEX ix_orders_customer_created ON dbo.orders;
