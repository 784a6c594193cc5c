-- Document layout, version 1: one row per order. The columns copy what indexes and the conditional
-- update need; the document holds the whole order (lines and events embedded) in the API's JSON shape.
-- fillfactor leaves room on each page so the frequent in-place updates can stay HOT (no index churn:
-- status and version are not indexed).
CREATE TABLE IF NOT EXISTS order_documents (
    id          uuid        PRIMARY KEY,
    customer_id varchar(64) NOT NULL,
    status      varchar(16) NOT NULL,
    version     integer     NOT NULL,
    created_at  timestamptz NOT NULL,
    document    jsonb       NOT NULL
) WITH (fillfactor = 80);

CREATE INDEX IF NOT EXISTS ix_order_documents_customer_created
    ON order_documents (customer_id, created_at DESC);

CREATE TABLE IF NOT EXISTS order_document_keys (
    key          varchar(128) PRIMARY KEY,
    request_hash varchar(64)  NOT NULL,
    order_id     uuid         NOT NULL,
    created_at   timestamptz  NOT NULL
);
