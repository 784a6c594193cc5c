#!/usr/bin/env bash
# What a transition's read-back costs PostgreSQL (docs/performance.md#what-stands-in-the-way-of-the-targets): the
# service's one-statement pay (PostgreSqlDialect.BuildTransition: the write and the order with its lines and events as
# JSON) against the same write returning the order row only, and against the lines and events as arrays. One client,
# pgbench -M prepared with generic plans as the store runs them (plan_cache_mode=force_generic_plan), on a throwaway
# cluster with the service's schema and ORDERS orders of 2 lines and 1 event; the mean execution time of each statement
# from pg_stat_statements, the rows interleaved ROUNDS times. Run as root (the cluster runs as user postgres).
#
#   ORDERS=100000 ROUNDS=3 TRANSACTIONS=5000 scripts/transition-read-back.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
orders=${ORDERS:-100000}; rounds=${ROUNDS:-3}; transactions=${TRANSACTIONS:-5000}
source "$root/scripts/lib/throwaway-postgres.sh"
dir=$(mktemp -d /tmp/orders-read-back-XXXX); port=$((20000 + RANDOM % 20000))
trap 'throwaway_postgres_stop "$dir"' EXIT
throwaway_postgres_start "$dir" "$port" "shared_preload_libraries = 'pg_stat_statements'
plan_cache_mode = force_generic_plan"
psql() { command psql -X -q -v ON_ERROR_STOP=1 -d orders "$@"; }
command psql -X -q -d postgres -c "CREATE DATABASE orders"
for schema in "$root"/src/OrderService.Data.PostgreSql/Schema/*.sql; do psql -f "$schema"; done
id="('00000000-0000-7000-8000-' || lpad(to_hex(g), 12, '0'))::uuid"
psql <<SQL
CREATE EXTENSION pg_stat_statements;
INSERT INTO customers VALUES ('c1', now());
INSERT INTO orders SELECT $id, 'c1', 'Created', 45.48, 1, now(), now() FROM generate_series(1, $orders) g;
INSERT INTO order_lines SELECT $id, l, 'SKU-' || l, 2, 19.99 FROM generate_series(1, $orders) g, generate_series(1, 2) l;
INSERT INTO order_events SELECT $id, 1, 'Created', now(), '{"total":45.48}' FROM generate_series(1, $orders) g;
VACUUM ANALYZE;
SQL

# The write part of every row: a pay of a random order (status not checked, so that any order can take one).
write="\\set g random(1, $orders)
WITH u AS (UPDATE orders SET status = 'Paid', version = version + 1, updated_at = now()
  WHERE id = ('00000000-0000-7000-8000-' || lpad(to_hex(:g::bigint), 12, '0'))::uuid
  RETURNING id, customer_id, status, total, version, created_at, updated_at),
e AS (INSERT INTO order_events (order_id, sequence, type, at, data)
  SELECT id, version, 'Paid', now(), '{\"paymentReference\":\"PAY-1\"}'::jsonb FROM u RETURNING sequence, type, at, data)"
cat >"$dir/json.sql" <<SQL
$write
SELECT u.id, u.customer_id, u.status, u.total, u.version, u.created_at, u.updated_at,
  (SELECT json_agg(json_build_object('sku', l.sku, 'quantity', l.quantity, 'unitPrice', l.unit_price) ORDER BY l.line_no)
     FROM order_lines l WHERE l.order_id = u.id) AS lines,
  (SELECT json_agg(json_build_object('sequence', x.sequence, 'type', x.type, 'at', x.at, 'data', x.data) ORDER BY x.sequence)
     FROM (SELECT v.sequence, v.type, v.at, v.data FROM order_events v WHERE v.order_id = u.id
           UNION ALL SELECT sequence, type, at, data FROM e) x) AS events /* json */
FROM u;
SQL
cat >"$dir/row.sql" <<SQL
$write
SELECT u.id, u.customer_id, u.status, u.total, u.version, u.created_at, u.updated_at /* row */ FROM u;
SQL
cat >"$dir/arrays.sql" <<SQL
$write
SELECT u.id, u.customer_id, u.status, u.total, u.version, u.created_at, u.updated_at, ls.*, es.* /* arrays */
FROM u
CROSS JOIN LATERAL (SELECT array_agg(s.line_no) AS line_nos, array_agg(s.sku) AS skus, array_agg(s.quantity) AS quantities,
    array_agg(s.unit_price) AS unit_prices
  FROM (SELECT line_no, sku, quantity, unit_price FROM order_lines WHERE order_id = u.id ORDER BY line_no) s) ls
CROSS JOIN LATERAL (SELECT array_agg(s.sequence) AS sequences, array_agg(s.type) AS types, array_agg(s.at) AS ats,
    array_agg(s.data) AS datas
  FROM ((SELECT sequence, type, at, data FROM order_events WHERE order_id = u.id ORDER BY sequence)
        UNION ALL SELECT sequence, type, at, data FROM e) s) es;
SQL

psql -c "SELECT pg_stat_statements_reset()" >/dev/null
for round in $(seq 1 "$rounds"); do
  for shape in json row arrays; do
    pgbench -n -M prepared -c 1 -t "$transactions" -f "$dir/$shape.sql" -h 127.0.0.1 -p "$port" -U postgres orders >/dev/null
  done
done
echo "statement (one pay, $((rounds * transactions)) each, ~$((1 + rounds * transactions * 3 / orders)) events per order at the end) | mean execution µs"
psql -At -F ' | ' -c "SELECT substring(query FROM '/\* ([a-z]+) \*/'), round((mean_exec_time * 1000)::numeric, 1)
  FROM pg_stat_statements WHERE query LIKE '%/* %' AND calls >= $transactions ORDER BY mean_exec_time DESC"
