-- The relational layout on Citus, after the versioned scripts: idempotent, run at every start in the
-- migrations' transaction. Every order table is distributed on the order id and colocated, so one order's
-- rows live on one shard. customers is no longer written (a reference table is a write to every worker:
-- one worker down would stop every create); the customer id stays a column of the order.
-- Creating the distributed functions in the transaction that distributed the tables needs one connection per worker.
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass) THEN
        ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_customer_id_fkey;
        ALTER TABLE order_lines DROP CONSTRAINT IF EXISTS order_lines_order_id_fkey;
        ALTER TABLE order_events DROP CONSTRAINT IF EXISTS order_events_order_id_fkey;
        -- A unique key must hold the distribution column: a key is unique per order, and a keyed create's
        -- order id is derived from its key, so one key still makes one order.
        ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_pkey;
        ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (order_id, key);
        PERFORM create_distributed_table('orders', 'id');
        PERFORM create_distributed_table('order_lines', 'order_id', colocate_with => 'orders');
        PERFORM create_distributed_table('order_events', 'order_id', colocate_with => 'orders');
        PERFORM create_distributed_table('idempotency_keys', 'order_id', colocate_with => 'orders');
        ALTER TABLE order_lines ADD CONSTRAINT order_lines_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id);
        ALTER TABLE order_events ADD CONSTRAINT order_events_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id);
    END IF;
END $$;

-- A create as one call that Citus delegates to the worker holding the order's shard (the function is
-- distributed on its first argument, colocated with orders): one task, one local transaction there.
-- A row back only when this call inserted the key (if any) and the order.
CREATE OR REPLACE FUNCTION orders_create(
    p_id uuid, p_customer_id text, p_total numeric, p_at timestamptz, p_lines jsonb, p_data jsonb, p_key text, p_request_hash text)
RETURNS TABLE (id uuid)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (key, request_hash, order_id, created_at) VALUES (p_key, p_request_hash, p_id, p_at)
        ON CONFLICT (order_id, key) DO NOTHING;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    END IF;

    INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at)
    VALUES (p_id, p_customer_id, 'Created', p_total, 1, p_at, p_at)
    ON CONFLICT (id) DO NOTHING;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price)
    SELECT p_id, l.line_no, l.sku, l.quantity, l.unit_price
    FROM jsonb_to_recordset(p_lines) AS l(line_no int, sku text, quantity int, unit_price numeric);
    INSERT INTO order_events (order_id, sequence, type, at, data) VALUES (p_id, 1, 'Created', p_at, p_data);
    RETURN QUERY SELECT p_id;
END
$fn$;

-- A transition as one delegated call: the conditional update, its event and its key (no ON CONFLICT: a
-- stored key is a unique violation that undoes the call), then the order as written. No row when the
-- update matched nothing.
CREATE OR REPLACE FUNCTION orders_transition(
    p_id uuid, p_target text, p_allowed text[], p_expected int, p_event text, p_at timestamptz, p_data jsonb, p_key text, p_request_hash text)
RETURNS TABLE (id uuid, customer_id text, status text, total numeric, version int, created_at timestamptz, updated_at timestamptz, lines json, events json)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    written int;
BEGIN
    UPDATE orders o SET status = p_target, version = o.version + 1, updated_at = p_at
    WHERE o.id = p_id AND o.status = ANY (p_allowed) AND (p_expected IS NULL OR o.version = p_expected)
    RETURNING o.version INTO written;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    INSERT INTO order_events (order_id, sequence, type, at, data) VALUES (p_id, written, p_event, p_at, p_data);
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (key, request_hash, order_id, version, created_at) VALUES (p_key, p_request_hash, p_id, written, p_at);
    END IF;

    RETURN QUERY
    SELECT o.id, o.customer_id::text, o.status::text, o.total, o.version, o.created_at, o.updated_at,
        (SELECT json_agg(json_build_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER BY l.line_no)
         FROM order_lines l WHERE l.order_id = p_id),
        (SELECT json_agg(json_build_object('sequence', e.sequence, 'type', e.type, 'at', e.at, 'data', e.data) ORDER BY e.sequence)
         FROM order_events e WHERE e.order_id = p_id)
    FROM orders o WHERE o.id = p_id;
END
$fn$;

SELECT create_distributed_function('orders_create(uuid, text, numeric, timestamptz, jsonb, jsonb, text, text)', '$1', colocate_with => 'orders')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE objid = 'orders_create(uuid, text, numeric, timestamptz, jsonb, jsonb, text, text)'::regprocedure AND distribution_argument_index IS NOT NULL);
SELECT create_distributed_function('orders_transition(uuid, text, text[], int, text, timestamptz, jsonb, text, text)', '$1', colocate_with => 'orders')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE objid = 'orders_transition(uuid, text, text[], int, text, timestamptz, jsonb, text, text)'::regprocedure AND distribution_argument_index IS NOT NULL);
