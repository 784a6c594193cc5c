-- The document layout on Citus, after its versioned scripts: idempotent, run at every start in their transaction.
-- The documents are distributed on the order id, and the keys colocated with the order they name.
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'order_documents'::regclass) THEN
        -- A unique key must hold the distribution column: a key is unique per order, and a keyed create's order id
        -- is derived from its key, so one key still makes one order.
        ALTER TABLE order_document_keys DROP CONSTRAINT IF EXISTS order_document_keys_pkey;
        ALTER TABLE order_document_keys ADD CONSTRAINT order_document_keys_pkey PRIMARY KEY (order_id, key);
        PERFORM create_distributed_table('order_documents', 'id');
        PERFORM create_distributed_table('order_document_keys', 'order_id', colocate_with => 'order_documents');
    END IF;
END $$;

-- The keyed create as one call Citus delegates to the order's worker: the key, then the document only when the key
-- was new. A row only when both were inserted.
CREATE OR REPLACE FUNCTION order_documents_create(
    p_id uuid, p_customer_id text, p_status text, p_version int, p_created_at timestamptz, p_document jsonb, p_key text, p_request_hash text)
RETURNS TABLE (id uuid)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    INSERT INTO order_document_keys (key, request_hash, order_id, created_at) VALUES (p_key, p_request_hash, p_id, p_created_at)
    ON CONFLICT (order_id, key) DO NOTHING;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    RETURN QUERY
    INSERT INTO order_documents (id, customer_id, status, version, created_at, document)
    VALUES (p_id, p_customer_id, p_status, p_version, p_created_at, p_document)
    ON CONFLICT (id) DO NOTHING
    RETURNING id;
END
$fn$;

-- A transition as one delegated call: the conditional update of the document, then its key if any (no ON CONFLICT:
-- a stored key is a unique violation that undoes the update). The document only when the update applied. Citus
-- refuses STABLE functions (jsonb_build_object) over columns in an UPDATE, so the row is locked and checked first
-- (under READ COMMITTED the lock re-checks the WHERE on a concurrent winner's row: one winner), the new fields are
-- built from values, and the UPDATE only joins them with immutable operators. A function for the unkeyed step too.
CREATE OR REPLACE FUNCTION order_documents_transition(
    p_id uuid, p_status text, p_allowed text[], p_expected int, p_type text, p_at text, p_data jsonb, p_key text, p_request_hash text, p_key_at timestamptz)
RETURNS TABLE (document jsonb)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    written int;
    stored jsonb;
BEGIN
    SELECT d.version + 1 INTO written FROM order_documents d
    WHERE d.id = p_id AND d.status = ANY (p_allowed) AND (p_expected IS NULL OR d.version = p_expected)
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    UPDATE order_documents d
    SET status = p_status,
        version = written,
        document = jsonb_set(
            d.document || jsonb_build_object('status', p_status, 'version', written, 'updatedAt', p_at),
            '{events}',
            (d.document -> 'events') || jsonb_build_array(jsonb_build_object('sequence', written, 'type', p_type, 'at', p_at, 'data', p_data)))
    WHERE d.id = p_id
    RETURNING d.document INTO stored;

    IF p_key IS NOT NULL THEN
        INSERT INTO order_document_keys (key, request_hash, order_id, version, created_at) VALUES (p_key, p_request_hash, p_id, written, p_key_at);
    END IF;

    RETURN QUERY SELECT stored;
END
$fn$;

SELECT create_distributed_function('order_documents_create(uuid, text, text, int, timestamptz, jsonb, text, text)', '$1', colocate_with => 'order_documents')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE objid = 'order_documents_create(uuid, text, text, int, timestamptz, jsonb, text, text)'::regprocedure AND distribution_argument_index IS NOT NULL);
SELECT create_distributed_function('order_documents_transition(uuid, text, text[], int, text, text, jsonb, text, text, timestamptz)', '$1', colocate_with => 'order_documents')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE objid = 'order_documents_transition(uuid, text, text[], int, text, text, jsonb, text, text, timestamptz)'::regprocedure AND distribution_argument_index IS NOT NULL);
