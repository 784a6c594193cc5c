#!/usr/bin/env python3
"""Splits a service CPU profile by layer: reads `perf script -F comm,ip,sym,dso` (stdin) and gives each sample
to the first layer whose code is on its stack, checked in the order below (so a socket send made by Npgsql
counts as the store driver's, one made by Kestrel as the HTTP server's). Unlike a by-module split, a layer's
share includes the kernel and runtime work it caused: what removing that layer could save, at most.

Frames are recognized by assembly: JIT-compiled ones by the "[Assembly]" the runtime's perf map puts in their
names, ReadyToRun ones by the .dll they run from.
"""
import collections
import re
import sys

LAYERS = [
    ("store driver (Npgsql, Microsoft.Data.Sqlite, SQLite, SqlClient, MongoDB.Driver)",
     re.compile(r"\b(Npgsql|Microsoft\.Data\.Sqlite|SQLitePCLRaw[\w.]*|libe_sqlite3|e_sqlite3|Microsoft\.Data\.SqlClient|MongoDB\.[\w.]+)\b")),
    ("Dapper", re.compile(r"\bDapper\b")),
    ("resilience (Polly)", re.compile(r"\bPolly[\w.]*\b")),
    ("store (OrderService.Data)", re.compile(r"\bOrderService\.Data\b")),
    ("JSON (System.Text.Json)", re.compile(r"\bSystem\.Text\.Json\b")),
    ("handlers (OrderService)", re.compile(r"\bOrderService\b(?!\.Data)")),
    ("HTTP server (Kestrel, routing, middleware)", re.compile(r"\bMicrosoft\.AspNetCore[\w.]*\b")),
    ("sockets and thread pool (no request code on the stack)", re.compile(r"System\.Net\.Sockets|ThreadPoolWorkQueue|PortableThreadPool|WorkerThread|LowLevelLifoSemaphore|epoll_wait")),
    ("JIT (tier-up)", re.compile(r"libclrjit")),
    ("GC", re.compile(r"\bgc_heap|GCHeap|WKS::|SVR::|gc_thread|GCToEEInterface")),
]

def main() -> None:
    counts = collections.Counter()
    total = 0
    stack: list[str] = []
    for line in list(sys.stdin) + [""]:
        if line.strip():
            if not line.startswith((" ", "\t")):
                stack = [line]  # the sample's header line (thread name)
            else:
                stack.append(line)
            continue
        if not stack:
            continue
        total += 1
        text = "".join(stack)
        for name, pattern in LAYERS:
            if pattern.search(text):
                counts[name] += 1
                break
        else:
            counts["other (runtime, kernel, unnamed)"] += 1
        stack = []
    if total == 0:
        print("no samples")
        return
    for name, count in counts.most_common():
        print(f"{100.0 * count / total:6.2f}%  {name}")
    print(f"({total} samples)")

if __name__ == "__main__":
    main()
