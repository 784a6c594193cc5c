-- Document layout, version 1: one row per order. The columns copy what indexes and the conditional
-- update need; the document (TEXT JSON) holds the whole order in the API's JSON shape. Timestamps are
-- fixed-width UTC text, so they sort as text. A rowid table: documents are too large for WITHOUT ROWID.
CREATE TABLE IF NOT EXISTS order_documents (
    id          TEXT    NOT NULL PRIMARY KEY,
    customer_id TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL
);

CREATE INDEX IF NOT EXISTS ix_order_documents_customer_created
    ON order_documents (customer_id, created_at DESC);

CREATE TABLE IF NOT EXISTS order_document_keys (
    key          TEXT NOT NULL PRIMARY KEY,
    request_hash TEXT NOT NULL,
    order_id     TEXT NOT NULL,
    created_at   TEXT NOT NULL
) WITHOUT ROWID;
