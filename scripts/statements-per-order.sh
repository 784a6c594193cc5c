#!/usr/bin/env bash
# Statements per order on PostgreSQL (docs/scale-out.md): a throwaway cluster with pg_stat_statements, the built
# service on it (dotnet build src/OrderService -c Release --artifacts-path ./artifacts), N keyed workflows one after
# another, then every statement the database ran, with calls per order. Loopback only; run as root (the cluster runs
# as user postgres). Usage: N=100 LAYOUT=Relational|Document GROUP=true|false scripts/statements-per-order.sh
set -euo pipefail
N=${N:-100}; LAYOUT=${LAYOUT:-Relational}; GROUP=${GROUP:-true}
PGBIN=/usr/lib/postgresql/15/bin; ROOT=$(mktemp -d /tmp/orders-stmts-XXXX); PGPORT=$((20000 + RANDOM % 20000)); HTTP=$((40000 + RANDOM % 20000))
chown postgres:postgres "$ROOT"
runuser -u postgres -- $PGBIN/initdb -D "$ROOT/data" -U postgres -A trust --no-sync >/dev/null
cat >> "$ROOT/data/postgresql.conf" <<CONF
port = $PGPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$ROOT'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
CONF
runuser -u postgres -- $PGBIN/pg_ctl -D "$ROOT/data" -l "$ROOT/log" -w start >/dev/null
PSQL="$PGBIN/psql -h 127.0.0.1 -p $PGPORT -U postgres -X -q -A"
$PSQL -d postgres -c "CREATE DATABASE orders" ; $PSQL -d orders -c "CREATE EXTENSION pg_stat_statements"
dotnet $(cd "$(dirname "$0")/.." && pwd)/artifacts/bin/OrderService/release/OrderService.dll --urls http://127.0.0.1:$HTTP \
  --Authorization:Mode=None --Store:Provider=PostgreSql --Store:Layout=$LAYOUT --Store:PostgreSql:GroupCommit=$GROUP \
  "--ConnectionStrings:Orders=Host=127.0.0.1;Port=$PGPORT;Username=postgres;Database=orders" >"$ROOT/service.log" 2>&1 &
SVC=$!
trap 'kill $SVC 2>/dev/null; runuser -u postgres -- $PGBIN/pg_ctl -D "$ROOT/data" -m immediate stop >/dev/null; rm -rf "$ROOT"' EXIT
for i in $(seq 1 100); do curl -sf http://127.0.0.1:$HTTP/health/ready >/dev/null && break; sleep 0.3; done
B=http://127.0.0.1:$HTTP; J='Content-Type: application/json'
# one warm-up workflow creates the schema; then reset the counters
id=$(curl -sf -XPOST $B/orders -H "$J" -d '{"customerId":"warm","lines":[{"sku":"S","quantity":1,"unitPrice":1}]}' | sed 's/.*"id":"\([^"]*\)".*/\1/')
$PSQL -d orders -c "SELECT pg_stat_statements_reset()" >/dev/null
for i in $(seq 1 $N); do
  c="cust$((i % 10))"
  id=$(curl -sf -m 10 -XPOST $B/orders -H "$J" -H "Idempotency-Key: c-$i-$$" -d "{\"customerId\":\"$c\",\"lines\":[{\"sku\":\"S\",\"quantity\":1,\"unitPrice\":1},{\"sku\":\"T\",\"quantity\":2,\"unitPrice\":3}]}" | sed 's/^{"id":"\([^"]*\)".*/\1/')
  curl -sf -m 10 -o /dev/null -XPOST $B/orders/$id/pay -H "$J" -H "Idempotency-Key: p-$i-$$" -H 'If-Match: "1"' -d '{"paymentReference":"r"}'
  curl -sf -m 10 -o /dev/null -XPOST $B/orders/$id/ship -H "$J" -H "Idempotency-Key: s-$i-$$" -d '{"carrier":"c","trackingNumber":"t"}'
  curl -sf -m 10 -o /dev/null -XPOST $B/orders/$id/complete -H "$J" -H "Idempotency-Key: d-$i-$$" -d '{}'
  curl -sf -m 10 -o /dev/null $B/orders/$id
  ids="${ids:-}${ids:+,}\"$id\""
done
curl -sf -m 10 -o /dev/null -XPOST $B/orders/batch -H "$J" -d "{\"ids\":[$ids]}"
for k in $(seq 0 9); do curl -sf -m 10 -o /dev/null "$B/customers/cust$k/orders?limit=100"; done
echo "N=$N layout=$LAYOUT groupcommit=$GROUP: $N workflows (keyed create, pay with If-Match, ship, complete, GET), 1 batch of $N ids, 10 listings"
$PSQL -d orders -F $'\t' -c "SELECT calls, rows, round(calls::numeric/$N,2) AS per_order, regexp_replace(left(query,150),'\s+',' ','g') FROM pg_stat_statements WHERE dbid=(SELECT oid FROM pg_database WHERE datname='orders') ORDER BY calls DESC"
