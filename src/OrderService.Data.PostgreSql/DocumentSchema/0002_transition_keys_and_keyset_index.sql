-- Document layout, version 2: retry-safe transitions and keyset paging of the customer listing.
-- A transition's Idempotency-Key is stored in the same statement as its document update, with the version
-- that step produced (create keys share the table, one namespace; their step is version 1, the default).
ALTER TABLE order_document_keys ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;

-- The listing pages by (created_at DESC, id DESC): with id in the index a page's lookahead is an
-- index-only scan and ties need no sort. The old index is a prefix of this one. Status stays out (HOT updates).
CREATE INDEX IF NOT EXISTS ix_order_documents_customer_created_id
    ON order_documents (customer_id, created_at DESC, id DESC);
DROP INDEX IF EXISTS ix_order_documents_customer_created;
