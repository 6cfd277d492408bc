#!/usr/bin/env python3
"""Store benchmark: load N generated documents into Folio's store, side by side with
reading every byte (`find ... | xargs cat`), and time representative queries.

Uses the tree generator of Benchmarks/check.py (same seed, same mix: 40% recipes of
~2 KB, 40% todos of ~300 B, 20% workouts of ~400 B; 500 files per folder). For each N:
one untimed warm-up, then R rounds alternating the two tools; medians, peak RSS (GNU
time), and the targets (issue 43): load within 1.2x the cat time, peak memory at most
1.5 KB per record beyond the files' bytes (also shown beyond the process's own fixed
cost: the same binary loading an empty folder — Swift's runtime, Foundation and its
ICU data, which a 10,000-record folder pays as much as a million-record one). Then, at the largest N, p50/p99 latency of 5 queries over RUNS runs
(indexed: p99 under 5 ms; full-text: p99 under 50 ms).

Run by hand from the package root:

  swift build -c release && python3 Benchmarks/store.py --files 10000 --files 100000
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (the generator and the process runner)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query-runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--bench", default=os.path.join(root_dir, ".build", "release", "folio-bench"))
    parser.add_argument("--before", help="an older folio-bench, loaded in the same alternation (before -> after)")
    args = parser.parse_args()
    sizes = args.files or [10000, 100000]
    if not os.access(args.bench, os.X_OK):
        sys.exit(f"{args.bench} not found: run `swift build -c release` first")
    print("folio store benchmark")
    print(f"  command line: {' '.join(sys.argv)}")
    print(f"  machine:      nproc {len(os.sched_getaffinity(0))}, CPU {check.cpu_model()}")
    print(f"  peak RSS:     {'GNU time' if check.GNU_TIME else 'wait4 (install GNU time for exact figures)'}")
    base = tempfile.mkdtemp(prefix="folio-store-bench-", dir="/tmp")
    failures = 0
    try:
        for n in sizes:
            root = tempfile.mkdtemp(prefix=f"files-{n}-", dir=base)
            stats = check.generate_tree(root, n, args.seed)
            disk = stats.total_bytes
            print(f"\n== N = {n:,}: {disk:,} bytes ({disk / 1e6:.1f} MB), sha256 {stats.sha256[:16]}")
            tools = {
                "folio load": [args.bench, "load", root],
                "cat": ["bash", "-c", f"find '{root}' -type f -name '*.md' -print0 | xargs -0 cat > /dev/null"],
            }
            if args.before:
                tools["before load"] = [args.before, "load", root]
            results = {tool: [] for tool in tools}
            for round_number in range(args.runs + 1):
                for tool, argv in tools.items():
                    run = check.run_once(argv)
                    if run.exit_code != 0:
                        print(f"  {tool} exited {run.exit_code}")
                        failures += 1
                    if round_number > 0:
                        results[tool].append(run)
            print(f"  {'tool':<11} {'median s':>9} {'min s':>8} {'max s':>8} {'CPU s':>7} {'peak RSS MiB':>13}")
            medians = {}
            for tool, runs in results.items():
                seconds = [r.seconds for r in runs]
                medians[tool] = statistics.median(seconds)
                rss = max(r.maxrss_kib for r in runs) / 1024
                cpu = statistics.median(r.cpu_seconds for r in runs)
                print(f"  {tool:<11} {medians[tool]:9.3f} {min(seconds):8.3f} {max(seconds):8.3f} {cpu:7.2f} {rss:13.1f}")
            if args.before:
                print(f"  before -> after: {medians['before load']:.3f} -> {medians['folio load']:.3f} s "
                      f"({medians['folio load'] / medians['before load']:.2f}x); CPU "
                      f"{statistics.median(r.cpu_seconds for r in results['before load']):.2f} -> "
                      f"{statistics.median(r.cpu_seconds for r in results['folio load']):.2f} s")
            ratio = medians["folio load"] / medians["cat"]
            peak = max(r.maxrss_kib for r in results["folio load"]) / 1024
            beyond = (peak * 2**20 - disk) / n
            print(f"  load/cat {ratio:.2f}x (target <= 1.2x): {'PASS' if ratio <= 1.2 else 'FAIL'}")
            print(f"  peak {peak:.1f} MiB for {disk / 2**20:.1f} MiB of files: {beyond:.0f} bytes per record beyond the files' "
                  f"(target <= 1536): {'PASS' if beyond <= 1536 else 'FAIL'}")
            empty = tempfile.mkdtemp(prefix="empty-", dir=base)
            fixed = max(check.run_once([args.bench, "load", empty]).maxrss_kib for _ in range(3)) / 1024
            print(f"  the process alone (an empty folder loaded): {fixed:.1f} MiB, {fixed * 2**20 / n:.0f} bytes per record at this size; "
                  f"beyond the files and it: {(peak - fixed) * 2**20 / n - disk / n:.0f} bytes per record")
            failures += (ratio > 1.2) + (beyond > 1536)
            if n == max(sizes):
                run = check.run_once([args.bench, "queries", root, str(args.query_runs)], capture=True)
                print(f"\n  queries over {n:,} documents, {args.query_runs} runs each:")
                for line in run.stdout.splitlines():
                    print("    " + line)
                    columns = line.split("\t")
                    if len(columns) == 5 and columns[1] in ("indexed", "full-text"):
                        limit_ms = 5 if columns[1] == "indexed" else 50
                        ok = float(columns[4]) < limit_ms
                        failures += not ok
                        print(f"      p99 {columns[4]} ms, target < {limit_ms} ms: {'PASS' if ok else 'FAIL'}")
            shutil.rmtree(root)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
