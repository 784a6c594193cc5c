-- Version 2: retry-safe transitions and keyset paging of the customer listing.
--
-- A transition's Idempotency-Key is stored in the same statement as its event, with the version that
-- step produced: a replay rebuilds the order as that step left it from the current order. Create keys
-- share the table (one namespace: a key names one request); their step is the creation, version 1, which
-- the default gives the rows already there. Adding a column with a constant default rewrites nothing.
ALTER TABLE idempotency_keys ADD COLUMN version int NOT NULL DEFAULT 1;

-- The listing pages by (created_at DESC, id DESC). With id in the index, a page's lookahead (the
-- positions of the next limit + 1 orders) is an index-only scan and ties on created_at need no sort.
-- The old index is a prefix of this one, so it goes. Status stays out of the index on purpose: it
-- changes on every transition, and an indexed column would end the HOT updates (see 0001).
-- Built inside the migration's transaction (no CONCURRENTLY): writes to orders wait while it builds.
CREATE INDEX ix_orders_customer_created_id ON orders (customer_id, created_at DESC, id DESC);
DROP INDEX ix_orders_customer_created;
