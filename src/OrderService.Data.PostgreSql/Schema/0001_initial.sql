-- OrderService relational schema, PostgreSQL.
CREATE TABLE customers (
    id         varchar(64) PRIMARY KEY,
    created_at timestamptz NOT NULL
);

-- Room on each page lets a transition's UPDATE stay a HOT update (no index touched: status, version and
-- updated_at are not indexed), which keeps the hot path cheap and the table from bloating.
CREATE TABLE orders (
    id          uuid PRIMARY KEY,
    customer_id varchar(64) NOT NULL REFERENCES customers (id),
    status      varchar(16) NOT NULL,
    total       numeric(18, 2) NOT NULL,
    version     int NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
) WITH (fillfactor = 80);

CREATE INDEX ix_orders_customer_created ON orders (customer_id, created_at DESC);

CREATE TABLE order_lines (
    order_id   uuid NOT NULL REFERENCES orders (id),
    line_no    int NOT NULL,
    sku        varchar(64) NOT NULL,
    quantity   int NOT NULL,
    unit_price numeric(18, 2) NOT NULL,
    PRIMARY KEY (order_id, line_no)
);

CREATE TABLE order_events (
    order_id uuid NOT NULL REFERENCES orders (id),
    sequence int NOT NULL,
    type     varchar(16) NOT NULL,
    at       timestamptz NOT NULL,
    data     jsonb NOT NULL,
    PRIMARY KEY (order_id, sequence)
);

CREATE TABLE idempotency_keys (
    key          varchar(128) PRIMARY KEY,
    request_hash varchar(64) NOT NULL,
    order_id     uuid NOT NULL,
    created_at   timestamptz NOT NULL
);
