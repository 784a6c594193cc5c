-- One OrderService workflow as plain per-statement SQL, for pgbench (the shoot-out's PostgreSQL reference).
-- Four transactions, as the service runs them: create, then pay, ship and complete, each a
-- read-modify-write that checks the status and version, bumps the version and appends an event.
-- The order id is made on the client without a round trip, as the service makes its UUIDv7: a
-- per-client counter (start it with -D n=0) times 1000 plus the client id, so ids grow over time
-- like UUIDv7 and the primary key index takes appends, not random inserts. -D customers=0|1 (below).
\set n :n + 1
\set oid :n * 1000 + :client_id
-- 1. create: the customer (parent), the order, its lines and its Created event
BEGIN;
-- -D customers=1 as the service on PostgreSQL does; 0 on Citus, where the service writes no customers row.
\if :customers
INSERT INTO customers (id, created_at) VALUES ('pgbench-' || :client_id::text, now()) ON CONFLICT (id) DO NOTHING;
\endif
INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 'pgbench-' || :client_id::text, 'Created', 45.48, 1, now(), now());
INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 1, 'SKU-RED-42', 2, 19.99),
         (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 2, 'SKU-BLUE-7', 1, 5.50);
INSERT INTO order_events (order_id, sequence, type, at, data)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 1, 'Created', now(), '{"total":45.48}');
COMMIT;
-- 2. pay: read, check Created at version 1, write Paid, append the event
BEGIN;
SELECT status, version FROM orders WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid FOR UPDATE;
UPDATE orders SET status = 'Paid', version = 2, updated_at = now()
  WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid AND status = 'Created' AND version = 1;
INSERT INTO order_events (order_id, sequence, type, at, data)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 2, 'Paid', now(), '{"paymentReference":"PAY-pgbench"}');
COMMIT;
-- 3. ship
BEGIN;
SELECT status, version FROM orders WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid FOR UPDATE;
UPDATE orders SET status = 'Shipped', version = 3, updated_at = now()
  WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid AND status = 'Paid' AND version = 2;
INSERT INTO order_events (order_id, sequence, type, at, data)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 3, 'Shipped', now(), '{"carrier":"LoadPost","trackingNumber":"TRK"}');
COMMIT;
-- 4. complete
BEGIN;
SELECT status, version FROM orders WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid FOR UPDATE;
UPDATE orders SET status = 'Completed', version = 4, updated_at = now()
  WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid AND status = 'Shipped' AND version = 3;
INSERT INTO order_events (order_id, sequence, type, at, data)
  VALUES (('00000000-0000-7000-8000-' || lpad(to_hex(:oid::bigint), 12, '0'))::uuid, 4, 'Completed', now(), '{}');
COMMIT;
