#!/usr/bin/env python3
"""The two halves of scripts/start-under-load.sh.

  start-under-load.py sample PID PG_PORT DATABASE FILE
      Once a second until PID ends, one line: seconds since the start, the process's user+system clock ticks, the
      ticks of its tiered-JIT thread (".NET Tiered Com..."), and order_events rows inserted in DATABASE
      (pg_stat_user_tables; PostgreSQL reports them at least once a second while a backend is busy).

  start-under-load.py summarize NAME FILE
      One markdown table row from such a file (four events per workflow):
      - settled after: the first second whose CPU per workflow, and that of the two seconds after it, is within
        1.25x of the steady value;
      - the first 8 s: workflows, CPU per workflow, JIT CPU;
      - steady: CPU per workflow from 10 s after ready to the end of the load.
"""
import os
import subprocess
import sys
import time

EVENTS_PER_WORKFLOW = 4
FIRST = 8.0        # seconds counted as "the first seconds" after ready
STEADY_FROM = 10.0
SETTLED = 1.25     # within this factor of the steady CPU per workflow
BUSY = 200         # workflows per second below which a second is not under load (the start, the tail)


def ticks(pid):
    with open(f'/proc/{pid}/stat') as f:
        stat = f.read()
    fields = stat[stat.rindex(')') + 2:].split(' ')
    total, jit = int(fields[11]) + int(fields[12]), 0
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                thread = f.read()
        except OSError:
            continue  # a thread that ended meanwhile
        if 'Tiered Com' in thread[thread.index('(') + 1:thread.rindex(')')]:
            t = thread[thread.rindex(')') + 2:].split(' ')
            jit += int(t[11]) + int(t[12])
    return total, jit


def events(port, database):
    query = "select coalesce(sum(n_tup_ins), 0) from pg_stat_user_tables where relname = 'order_events'"
    reply = subprocess.run(['psql', '-h', '127.0.0.1', '-p', port, '-U', 'postgres', '-d', database, '-Atc', query],
                           capture_output=True, text=True, check=False)
    return int(reply.stdout.strip() or 0) if reply.returncode == 0 else -1


def sample(pid, port, database, path):
    start = time.monotonic()
    with open(path, 'w') as out:
        while True:
            try:
                total, jit = ticks(pid)
            except OSError:
                return  # the service has ended
            out.write(f'{time.monotonic() - start:.2f} {total} {jit} {events(port, database)}\n')
            out.flush()
            time.sleep(1)


def summarize(name, path):
    hz = os.sysconf('SC_CLK_TCK')
    with open(path) as f:
        rows = [tuple(float(x) for x in line.split()) for line in f if line.strip()]
    seconds = []  # (end, CPU ms, JIT ms, workflows, length) per interval between two samples
    for a, b in zip(rows, rows[1:]):
        if a[3] < 0 or b[3] < 0:
            continue  # psql did not answer
        seconds.append((b[0], (b[1] - a[1]) * 1000 / hz, (b[2] - a[2]) * 1000 / hz, (b[3] - a[3]) / EVENTS_PER_WORKFLOW, b[0] - a[0]))
    busy = [s for s in seconds if s[3] > 0 and s[3] / s[4] >= BUSY]
    steady = [s for s in busy if s[0] >= STEADY_FROM]
    if not steady:
        print(f'| {name} | the load ended before {STEADY_FROM:.0f} s | | | | | |')
        return
    steady_cpu = sum(s[1] for s in steady) / sum(s[3] for s in steady)
    per_workflow = [(s[0], s[1] / s[3]) for s in busy]
    settled = next((end for i, (end, _) in enumerate(per_workflow)
                    if all(cpu <= SETTLED * steady_cpu for _, cpu in per_workflow[i:i + 3])), None)
    first = [s for s in seconds if s[0] <= FIRST]
    first_workflows = sum(s[3] for s in first)
    first_cpu = sum(s[1] for s in first) / first_workflows if first_workflows else float('nan')
    settled_text = f'{settled:.1f} s' if settled is not None else 'not within the run'
    print(f'| {name} | {settled_text} | {first_workflows:,.0f} | {first_cpu:.3f} | {sum(s[2] for s in first):,.0f} '
          f'| {steady_cpu:.3f} | {first_cpu / steady_cpu:.2f}x |')


if __name__ == '__main__':
    if sys.argv[1] == 'sample':
        sample(*sys.argv[2:6])
    else:
        summarize(*sys.argv[2:4])
