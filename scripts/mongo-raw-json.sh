#!/usr/bin/env bash
# MongoDB batches and listings over HTTP, the Order path against raw BSON to JSON (Store:MongoDb:RawBsonToJson=false
# and true): two instances of the built service (artifacts/bin/OrderService/release) on one database, the same orders.
# Seeds N completed orders of one customer (three lines, four events each), then, round after round and instance after
# instance, which one first alternating (so machine noise spreads over both alike): GET /customers/{id}/orders?limit=N
# and POST /orders/batch with the N ids, one request at a time, timed to the last byte by curl; then 8 of each with 4
# in flight, timed as a whole.
# Prints the medians, the ratio raw/Orders, and whether both instances answered the same bytes.
#
#   scripts/mongo-raw-json.sh MONGODB_URI [ORDERS=1000] [ROUNDS=15]
#   e.g. scripts/mongo-raw-json.sh "mongodb://127.0.0.1:27017/?directConnection=true"
#
# The orders go to a database of their own (rawjson_<pid>), left on the server afterwards. Needs curl and python3.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
uri="${1:?usage: scripts/mongo-raw-json.sh MONGODB_URI [ORDERS] [ROUNDS]}"
orders="${2:-1000}"
rounds="${3:-15}"
dll="$repo/artifacts/bin/OrderService/release/OrderService.dll"
work="$(mktemp -d)"
database="rawjson_$$"
customer="bench-raw-$$"
database_uri="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit((p.scheme, p.netloc, "/" + sys.argv[2], p.query, "")))' "$uri" "$database")"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

start() { # name port raw
  Store__Provider=MongoDb Store__Layout=Document ConnectionStrings__Orders="$database_uri" Store__MongoDb__RawBsonToJson="$3" \
    Resilience__AttemptTimeoutSeconds=30 Resilience__TotalTimeoutSeconds=60 Logging__LogLevel__Default=Warning \
    dotnet "$dll" --urls "http://127.0.0.1:$2" >"$work/$1.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$2/health/ready" >/dev/null && return 0; sleep 0.5; done
  echo "the $1 instance did not get ready: $(tail -n 5 "$work/$1.log")" >&2; exit 1
}

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
raw_port="$(port)"; orders_port="$(port)"
start raw "$raw_port" true
start orders "$orders_port" false

echo "==> seeding $orders completed orders of $customer into $database"
python3 - "$raw_port" "$customer" "$orders" "$work/ids.json" <<'PY'
import json, sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
port, customer, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
base = f"http://127.0.0.1:{port}"
def post(path, body):
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)
def workflow(i):
    order = post("/orders", {"customerId": customer, "lines": [
        {"sku": f"SKU-{i}", "quantity": 2, "unitPrice": 19.99}, {"sku": "SKU-B", "quantity": 1, "unitPrice": 5.00},
        {"sku": "SKU-C", "quantity": 10, "unitPrice": 0.25}]})
    post(f"/orders/{order['id']}/pay", {"paymentReference": f"pay-{i}"})
    post(f"/orders/{order['id']}/ship", {"carrier": "DHL", "trackingNumber": f"TRK{i}"})
    post(f"/orders/{order['id']}/complete", {})
    return order["id"]
with ThreadPoolExecutor(4) as pool:
    ids = list(pool.map(workflow, range(count)))
json.dump({"ids": ids}, open(out, "w"))
PY

listing="/customers/$customer/orders?limit=$orders"
one() { # port kind -> seconds to the last byte
  if [[ "$2" == listing ]]; then curl -fs -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$1$listing"
  else curl -fs -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' --data-binary "@$work/ids.json" "http://127.0.0.1:$1/orders/batch"; fi
}
parallel() { # port kind -> seconds for 8 requests, 4 in flight
  local started; started="$(date +%s.%N)"
  for _ in 1 2 3 4 5 6 7 8; do echo; done | xargs -P 4 -I{} bash -c "$(declare -f one); listing='$listing' work='$work' one $1 $2 >/dev/null"
  python3 -c "import sys, time; print(time.time() - float(sys.argv[1]))" "$started"
}

for kind in listing batch; do
  if [[ "$kind" == listing ]]; then curl -fs "http://127.0.0.1:$raw_port$listing" >"$work/raw.$kind"; curl -fs "http://127.0.0.1:$orders_port$listing" >"$work/orders.$kind"
  else for p in raw orders; do port_of="${p}_port"; curl -fs -H 'Content-Type: application/json' --data-binary "@$work/ids.json" "http://127.0.0.1:${!port_of}/orders/batch" >"$work/$p.$kind"; done; fi
  cmp -s "$work/raw.$kind" "$work/orders.$kind" && echo "$kind: both instances answer the same $(wc -c <"$work/raw.$kind") bytes" || { echo "$kind: the bodies differ" >&2; exit 1; }
done

echo "==> $rounds rounds (after 3 to warm up)"
for round in $(seq 1 $((rounds + 3))); do
  # Which instance goes first alternates, so neither always follows the other's load on the server.
  if (( round % 2 )); then order="raw orders"; else order="orders raw"; fi
  for kind in listing batch; do
    for p in $order; do
      port_of="${p}_port"
      seq_time="$(one "${!port_of}" "$kind")"
      par_time="$(parallel "${!port_of}" "$kind")"
      if (( round > 3 )); then echo "$seq_time" >>"$work/$p.$kind.one"; echo "$par_time" >>"$work/$p.$kind.par"; fi
    done
  done
done

python3 - "$work" "$orders" <<'PY'
import statistics, sys
work, count = sys.argv[1], sys.argv[2]
def median(name): return statistics.median(float(x) for x in open(f"{work}/{name}"))
print(f"{'':40} {'Orders':>10} {'raw JSON':>10} {'raw/Orders':>10}")
for kind in ("listing", "batch"):
    for suffix, what in (("one", "one at a time, s"), ("par", "8 with 4 in flight, s")):
        o, r = median(f"orders.{kind}.{suffix}"), median(f"raw.{kind}.{suffix}")
        print(f"{kind + ' of ' + count + ', ' + what:40} {o:10.4f} {r:10.4f} {r / o:10.2f}x")
PY
