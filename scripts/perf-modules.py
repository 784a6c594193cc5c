#!/usr/bin/env python3
"""Groups `perf report --no-children --sort dso,symbol` output (stdin) by module and JIT tier.

JIT-compiled frames are named by the runtime's perf map: "[Assembly] Type::Method[Tier]". Grouping them by
assembly and tier shows where a profile's CPU goes when it is flat (no frame over ~1%), and how much of it is
code still waiting for tier-1 (QuickJitted, ReadyToRun "*.dll" frames) or the JIT itself (libclrjit.so).
"""
import collections
import re
import sys

totals = collections.Counter()
for line in sys.stdin:
    match = re.match(r"\s*([\d.]+)%\s+(\S+(?: tid \d+)?)\s+\[(.)\]\s+(.*)", line)
    if not match:
        continue
    share, module, symbol = float(match.group(1)), match.group(2), match.group(4)
    if module.startswith("[JIT]"):
        if symbol.startswith("stub "):
            key = "JIT-generated stubs (dispatch, call counting, precode)"
        else:
            assembly = re.search(r"\[([A-Za-z][\w.]+)\] ", symbol)
            tiers = re.findall(r"\[(QuickJitted|OptimizedTier1|OptimizedTier1OSR|Optimized|Tier0|Instrumented\w*)\]", symbol)
            key = f"JIT code: {assembly.group(1) if assembly else 'other'} [{tiers[-1] if tiers else '?'}]"
    else:
        key = f"{module} (ReadyToRun code)" if module.endswith(".dll") else module
    totals[key] += share

for key, share in totals.most_common(int(sys.argv[1]) if len(sys.argv) > 1 else 40):
    print(f"{share:6.2f}%  {key}")
