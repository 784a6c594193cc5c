-- Document layout, version 2: retry-safe transitions and keyset paging of the customer listing.
-- A transition's Idempotency-Key is stored in the same write as its document update, with the version that
-- step produced (create keys share the table, one namespace; their step is version 1, the default).
ALTER TABLE order_document_keys ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- The listing pages by (created_at DESC, id DESC). order_documents is a rowid table, so the old index
-- ended in the rowid: with id in it, a page's lookahead reads the index alone, in order.
CREATE INDEX IF NOT EXISTS ix_order_documents_customer_created_id
    ON order_documents (customer_id, created_at DESC, id DESC);
DROP INDEX IF EXISTS ix_order_documents_customer_created;
