#!/usr/bin/env python3
"""Start-up cost of the rfguard command, measured beside a C++ hello world.

Each process's CPU time (user + system, from wait4's rusage) and wall time, for:
  true        /bin/true (the cost of a process at all)
  hello       a C++ hello world built here with `c++ -O2` (a C++ program's floor)
  version     RFGUARD --version
  plan        RFGUARD plan on a one-table, one-query SQL file (issue 16's
              "trivial query": parse, bind, normalise, place, verify, print)
and the same two commands of a second build when --baseline names one. The
commands take turns, one run each, so that a machine's drift reaches all of
them alike; medians over --runs runs, and ratios against hello in the same run.

usage: tools/bench_startup.py RFGUARD [--baseline OTHER_RFGUARD] [--runs N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HELLO = '#include <iostream>\nint main() { std::cout << "hello\\n"; }\n'
QUERY = "create table t (a int, b int);\nselect a from t where b = 1;\n"


def run_once(argv):
    """(cpu ms, wall ms) of one run of argv, its output discarded."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_startup: {' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}")
    return (usage.ru_utime + usage.ru_stime) * 1e3, wall * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rfguard")
    ap.add_argument("--baseline", help="another rfguard executable, measured alike")
    ap.add_argument("--runs", type=int, default=300, help="runs per command (default 300)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        hello = os.path.join(tmp, "hello")
        subprocess.run(["c++", "-O2", "-x", "c++", "-", "-o", hello], input=HELLO, text=True,
                       check=True)
        sql = os.path.join(tmp, "trivial.sql")
        with open(sql, "w") as f:
            f.write(QUERY)
        commands = [("true", ["/bin/true"]), ("hello", [hello])]
        builds = [("", os.path.abspath(args.rfguard))]
        if args.baseline:
            builds.append(("baseline ", os.path.abspath(args.baseline)))
        for label, exe in builds:
            commands.append((label + "version", [exe, "--version"]))
            commands.append((label + "plan", [exe, "plan", sql]))
        for _, argv in commands:  # warm the page cache
            run_once(argv)
        cpu = {name: [] for name, _ in commands}
        wall = {name: [] for name, _ in commands}
        for _ in range(args.runs):
            for name, argv in commands:
                c, w = run_once(argv)
                cpu[name].append(c)
                wall[name].append(w)

    hello_cpu = statistics.median(cpu["hello"])
    print(f"{args.runs} runs each, taking turns; medians")
    print(f"{'command':<18} {'cpu ms':>8} {'wall ms':>8} {'cpu/hello':>10}")
    for name, _ in commands:
        c = statistics.median(cpu[name])
        print(f"{name:<18} {c:8.2f} {statistics.median(wall[name]):8.2f} {c / hello_cpu:10.2f}")


if __name__ == "__main__":
    main()
