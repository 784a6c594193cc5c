#!/usr/bin/env python3
"""Splits a service CPU profile by layer: reads `perf script -F comm,ip,sym,dso` (stdin) and gives each sample
to the layer of the frame nearest its leaf that belongs to one (walking from the leaf towards the root), so a
layer's share is its own code plus the runtime, library and kernel work it called directly: a socket send made
by Npgsql counts as the store driver's, one made by Kestrel as the HTTP server's, the async machinery resuming a
Polly state machine as Polly's. (A first-layer-on-the-stack split misleads with async code: continuations run
inline, so the store's frames sit under Polly's and Kestrel's on the same stack.)

Frames are recognized by assembly: JIT-compiled ones by the "[Assembly]" the runtime's perf map puts in their
names, ReadyToRun ones by the .dll they run from.
"""
import collections
import re
import sys

DRIVER = "store driver (Npgsql, Microsoft.Data.Sqlite, SQLite, SqlClient, MongoDB.Driver)"
ASSEMBLY_LAYERS = [  # (pattern on the frame's own assembly, layer), first match wins
    (re.compile(r"^(Npgsql.*|Microsoft\.Data\.Sqlite|SQLitePCLRaw.*|libe_sqlite3|Microsoft\.Data\.SqlClient|MongoDB\..*)$"), DRIVER),
    (re.compile(r"^Dapper$"), "Dapper"),
    (re.compile(r"^Polly.*$"), "resilience (Polly, OrderService.Data.Resilience)"),
    (re.compile(r"^OrderService\.Data$"), "store (OrderService.Data)"),
    (re.compile(r"^System\.Text\.Json$"), "JSON (System.Text.Json)"),
    (re.compile(r"^OrderService$"), "handlers (OrderService)"),
    (re.compile(r"^(Microsoft\.AspNetCore.*|System\.IO\.Pipelines)$"), "HTTP server (Kestrel, pipes, routing, middleware)"),
    (re.compile(r"^System\.Net\.Sockets$"), "socket engine and thread pool (no request code nearer the leaf)"),
    (re.compile(r"^libclrjit$"), "JIT (tier-up)"),
]
JIT_FRAME = re.compile(r"\[([A-Za-z][\w.]+)\] ([\w.]+)")
MODULE = re.compile(r"\(([^()]*/)?([^/()]+?)(\.dll|\.so[.\d]*)?\)\s*$")
LIBC_SOCKET = re.compile(r"__send|__libc_recv|__libc_send")


def assembly_of(frame: str) -> tuple[str, str]:
    """The frame's assembly (or native module) and, for JIT-compiled code, its type name."""
    named = JIT_FRAME.search(frame)
    if named:
        return named.group(1), named.group(2)
    module = MODULE.search(frame)
    return (module.group(2) if module else ""), ""


def layer_of(frames: list[str]) -> str:
    for frame in frames:  # leaf first
        assembly, type_name = assembly_of(frame)
        if assembly == "OrderService.Data" and type_name.startswith("OrderService.Data.Resilience"):
            return "resilience (Polly, OrderService.Data.Resilience)"
        for pattern, layer in ASSEMBLY_LAYERS:
            if pattern.match(assembly):
                return layer
    # perf unwinds by frame pointers and libc's send/recv keep none: a socket call whose caller could not be seen.
    if any(LIBC_SOCKET.search(frame) for frame in frames):
        return "socket send/recv in the kernel (caller not unwound past libc)"
    if any("gc_heap" in frame or "GCHeap" in frame or "SVR::" in frame or "WKS::" in frame for frame in frames):
        return "GC"
    return "other (runtime, kernel, unnamed)"


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
        counts[layer_of(stack[1:])] += 1
        stack = []
    if total == 0:
        print("no samples")
        return
    for name, count in counts.most_common():
        print(f"{100.0 * count / total:6.2f}%  {name}")
    print(f"({total} samples)")

if __name__ == "__main__":
    main()
