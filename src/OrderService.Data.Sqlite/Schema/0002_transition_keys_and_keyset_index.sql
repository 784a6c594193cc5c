-- Version 2: retry-safe transitions and keyset paging of the customer listing.
--
-- A transition's Idempotency-Key is stored in the same write as its event, with the version that step
-- produced: a replay rebuilds the order as that step left it from the current order. Create keys share
-- the table (one namespace: a key names one request); their step is the creation, version 1, which the
-- default gives the rows already there.
ALTER TABLE idempotency_keys ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- The listing pages by (created_at DESC, id DESC). The old index ended in the primary key id ASCENDING
-- (a WITHOUT ROWID table appends it), which made ties on created_at need a sort; with id DESC the
-- page's lookahead reads the index alone, in order. The old index is a prefix of this one, so it goes.
CREATE INDEX ix_orders_customer_created_id ON orders (customer_id, created_at DESC, id DESC);
DROP INDEX ix_orders_customer_created;
