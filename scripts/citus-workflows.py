#!/usr/bin/env python3
"""Bounded keyed workflows against a running service, optionally killing one Citus worker (kill -9) mid-run.

Each workflow: a keyed create, a keyed pay with If-Match, a keyed ship, a keyed complete. A step answered 503 is
sent again with the same key (after its Retry-After, capped) until a deadline; any 500 is counted and reported.
With --kill-worker DIR:N, worker N of the Citus engine in DIR (../shared/engines/citus) is killed with SIGKILL after
--kill-after seconds and started again (start.sh DIR) after --down-for seconds; answers are counted per phase
(before, outage, after). At the end every acknowledged workflow (its complete answered 200) is read back and must be
Completed with events Created, Paid, Shipped, Completed: the lost count must be 0.

  scripts/citus-workflows.py --url http://127.0.0.1:5080 --workflows 2000 --concurrency 100 \
      --kill-worker /tmp/citus-engine:1 --kill-after 5 --down-for 10
Prints one JSON object. Standard library only.
"""
import argparse, asyncio, json, os, signal, subprocess, sys, time, uuid
from urllib.parse import urlsplit

async def request(pool, method, path, body=None, headers=None):
    reader, writer = await pool.get()
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        await writer.drain()
        status_line = await reader.readline()
        status = int(status_line.split()[1])
        response_headers = {}
        while True:
            line = (await reader.readline()).decode().rstrip("\r\n")
            if not line:
                break
            k, _, v = line.partition(":")
            response_headers[k.strip().lower()] = v.strip()
        if response_headers.get("transfer-encoding", "").lower() == "chunked":
            payload = b""
            while True:
                size = int((await reader.readline()).strip(), 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    break
                payload += chunk[:-2]
        else:
            length = int(response_headers.get("content-length", "0"))
            payload = await reader.readexactly(length) if length else b""
        pool.put_nowait((reader, writer))
        return status, response_headers, payload
    except Exception:
        writer.close()
        pool.put_nowait(await open_connection(pool.target))
        raise

async def open_connection(target):
    return await asyncio.open_connection(target[0], target[1])

class Stats:
    def __init__(self):
        self.phase = "before"
        self.counts = {}
        self.first_attempts = {}
        self.retry_after_missing = 0

    def add(self, status, first):
        key = (self.phase, status)
        self.counts[key] = self.counts.get(key, 0) + 1
        if first:
            self.first_attempts[key] = self.first_attempts.get(key, 0) + 1

async def step(pool, stats, method, path, body, headers, deadline):
    first = True
    while True:
        try:
            status, response_headers, payload = await request(pool, method, path, body, headers)
        except Exception:
            status, response_headers, payload = 0, {}, b""
        stats.add(status, first)
        first = False
        if status == 503:
            if "retry-after" not in response_headers:
                stats.retry_after_missing += 1
            if time.monotonic() > deadline:
                return status, payload
            await asyncio.sleep(min(1.0, float(response_headers.get("retry-after", "1"))))
            continue
        if status == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            continue
        return status, payload

async def workflow(pool, stats, deadline):
    tag = uuid.uuid4().hex
    status, payload = await step(pool, stats, "POST", "/orders",
        {"customerId": f"c-{tag[:12]}", "lines": [{"sku": "SKU-1", "quantity": 1, "unitPrice": 9.5}]},
        {"Idempotency-Key": f"create-{tag}"}, deadline)
    if status != 201:
        return None, (status, "create", payload[:300].decode(errors="replace"))
    order_id = json.loads(payload)["id"]
    steps = [("pay", {"paymentReference": "P-1"}, {"If-Match": '"1"'}), ("ship", {"carrier": "C", "trackingNumber": "T"}, {}), ("complete", None, {})]
    for action, body, extra in steps:
        status, _ = await step(pool, stats, "POST", f"/orders/{order_id}/{action}", body, {"Idempotency-Key": f"{action}-{tag}", **extra}, deadline)
        if status != 200:
            return None, (status, action, payload[:300].decode(errors="replace"))
    return order_id, 200

async def run(args):
    target = urlsplit(args.url)
    pool = asyncio.Queue()
    pool.target = (target.hostname, target.port)
    for _ in range(args.concurrency):
        pool.put_nowait(await open_connection(pool.target))
    stats = Stats()
    acknowledged, failures = [], []
    started = time.monotonic()
    budget = iter(range(args.workflows))

    async def copy():
        for _ in budget:
            order_id, status = await workflow(pool, stats, time.monotonic() + args.step_deadline)
            if order_id:
                acknowledged.append(order_id)
            else:
                failures.append(status)

    async def fault():
        if not args.kill_worker:
            return
        folder, number = args.kill_worker.rsplit(":", 1)
        await asyncio.sleep(args.kill_after)
        pid = int(open(os.path.join(folder, "run", f"worker{number}.pid")).read().split()[0])
        # The machine dies: the postmaster and every backend of it at once.
        children = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(p) == pid]
        for victim in [pid, *children]:
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                pass
        stats.phase = "outage"
        stats.killed_at = time.monotonic() - started
        await asyncio.sleep(args.down_for)
        env = dict(os.environ)
        await asyncio.to_thread(subprocess.run, [os.path.join(args.engine, "start.sh"), folder], env=env, capture_output=True, check=True)
        stats.phase = "after"
        stats.restarted_at = time.monotonic() - started

    await asyncio.gather(fault(), *(copy() for _ in range(args.concurrency)))
    elapsed = time.monotonic() - started

    lost = []
    for order_id in acknowledged:
        status, _, payload = await request(pool, "GET", f"/orders/{order_id}")
        order = json.loads(payload) if status == 200 else {}
        if order.get("status") != "Completed" or [e["type"] for e in order.get("events", [])] != ["Created", "Paid", "Shipped", "Completed"]:
            lost.append(order_id)

    def by_phase(counts):
        phases = {}
        for (phase, status), count in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            phases.setdefault(phase, {})[str(status)] = count
        return phases

    def share(phases):
        return {p: round(sum(c for s, c in v.items() if s not in ("503", "500", "0")) / max(1, sum(v.values())), 3) for p, v in phases.items()}

    phases, firsts = by_phase(stats.counts), by_phase(stats.first_attempts)
    answered = share(phases)
    print(json.dumps({
        "workflows": args.workflows, "concurrency": args.concurrency, "seconds": round(elapsed, 1),
        "acknowledged": len(acknowledged), "wf_per_s": round(len(acknowledged) / elapsed, 1),
        "not_completed": failures[:10], "not_completed_count": len(failures), "lost": len(lost), "answers_by_phase": phases,
        "share_answered_by_phase": answered,
        "share_of_first_attempts_answered_by_phase": share(firsts), "status_500": sum(v.get("500", 0) for v in phases.values()),
        "503_without_retry_after": stats.retry_after_missing,
        "killed_at_s": round(getattr(stats, "killed_at", 0), 1), "restarted_at_s": round(getattr(stats, "restarted_at", 0), 1),
    }))

def _parent(pid):
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--workflows", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--step-deadline", type=float, default=60, help="seconds a workflow keeps resending a step answered 503")
    parser.add_argument("--kill-worker", help="DIR:N: kill -9 worker N of the Citus engine in DIR")
    parser.add_argument("--kill-after", type=float, default=5)
    parser.add_argument("--down-for", type=float, default=10)
    parser.add_argument("--engine", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "engines", "citus"))
    asyncio.run(run(parser.parse_args()))

if __name__ == "__main__":
    main()
