-- OrderService relational schema, SQLite. Ids are canonical UUID text; timestamps are
-- 'yyyy-MM-ddTHH:mm:ss.ffffffZ' text (sortable, microseconds); money is NUMERIC(18,2).
-- WITHOUT ROWID keeps each table in its primary-key b-tree: an order's lines and events sit together.
CREATE TABLE customers (
    id         TEXT NOT NULL PRIMARY KEY,
    created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE orders (
    id          TEXT NOT NULL PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id),
    status      TEXT NOT NULL,
    total       NUMERIC(18, 2) NOT NULL,
    version     INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX ix_orders_customer_created ON orders (customer_id, created_at DESC);

CREATE TABLE order_lines (
    order_id   TEXT NOT NULL REFERENCES orders (id),
    line_no    INTEGER NOT NULL,
    sku        TEXT NOT NULL,
    quantity   INTEGER NOT NULL,
    unit_price NUMERIC(18, 2) NOT NULL,
    PRIMARY KEY (order_id, line_no)
) WITHOUT ROWID;

CREATE TABLE order_events (
    order_id TEXT NOT NULL REFERENCES orders (id),
    sequence INTEGER NOT NULL,
    type     TEXT NOT NULL,
    at       TEXT NOT NULL,
    data     TEXT NOT NULL,
    PRIMARY KEY (order_id, sequence)
) WITHOUT ROWID;

CREATE TABLE idempotency_keys (
    key          TEXT NOT NULL PRIMARY KEY,
    request_hash TEXT NOT NULL,
    order_id     TEXT NOT NULL,
    created_at   TEXT NOT NULL
) WITHOUT ROWID;
