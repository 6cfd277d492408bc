#!/usr/bin/env python3
"""Watcher benchmark: how fast edits reach the store, and what watching costs.

On a generated tree (the generator of Benchmarks/check.py, 200 files per folder, so
100,000 files lie in 500 folders), in one run:

  1. latency from a write on disk to the change being visible in the store, p50/p99
     over EDITS edits with the default 50 ms quiet period (target: p99 < 100 ms);
  2. a burst of 10,000 file creations: time from the last write until all are
     indexed (target: < 2 s);
  3. watch set-up over the tree against `inotifywait -r` (inotify-tools), from
     process start to "Watches established.", alternated, medians of R rounds
     (target: within 1.5x);
  4. CPU used while idle, watching the loaded tree for IDLE seconds (target: ~0).

Run by hand from the package root (needs inotify-tools: apt-get install inotify-tools):

  swift build -c release && python3 Benchmarks/watch.py --files 100000
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (the generator)


def time_until_established(argv):
    """Seconds from spawning argv until it prints 'Watches established.' on stderr."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr:
        if b"Watches established" in line:
            elapsed = time.perf_counter() - started
            break
    else:
        elapsed = float("nan")
    process.terminate()
    process.wait()
    return elapsed


def run(argv):
    out = subprocess.run(argv, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--burst", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--idle", type=int, default=10)
    parser.add_argument("--seed", type=int, default=42)
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--bench", default=os.path.join(root_dir, ".build", "release", "folio-bench"))
    args = parser.parse_args()
    if not os.access(args.bench, os.X_OK):
        sys.exit(f"{args.bench} not found: run `swift build -c release` first")
    inotifywait = shutil.which("inotifywait")
    if not inotifywait:
        sys.exit("inotifywait not found: apt-get install inotify-tools")
    print("folio watch benchmark")
    print(f"  command line: {' '.join(sys.argv)}")
    print(f"  machine:      nproc {len(os.sched_getaffinity(0))}, CPU {check.cpu_model()}")
    base = tempfile.mkdtemp(prefix="folio-watch-bench-", dir="/tmp")
    try:
        check.FILES_PER_FOLDER = 200
        root = os.path.join(base, "tree")
        os.makedirs(root)
        stats = check.generate_tree(root, args.files, args.seed)
        folders = sum(1 for _, dirs, _ in os.walk(root) for _ in dirs)
        print(f"\n== {args.files:,} files in {folders} folders, {stats.total_bytes / 1e6:.1f} MB")

        setup = {"folio": [], "inotifywait -r": []}
        for _ in range(args.rounds + 1):  # the first round warms the caches and is dropped
            setup["folio"].append(time_until_established([args.bench, "watch-setup", root]))
            setup["inotifywait -r"].append(time_until_established([inotifywait, "-r", "-m", root]))
        medians = {tool: statistics.median(times[1:]) for tool, times in setup.items()}
        ratio = medians["folio"] / medians["inotifywait -r"]
        print(f"  watch set-up: folio {medians['folio']:.3f} s, inotifywait -r {medians['inotifywait -r']:.3f} s "
              f"(medians of {args.rounds}): {ratio:.2f}x (target <= 1.5x) {'PASS' if ratio <= 1.5 else 'FAIL'}")

        print("  " + run([args.bench, "watch-idle", root, str(args.idle)]))
        print("  " + run([args.bench, "watch-latency", root, str(args.edits)]))
        print("  " + run([args.bench, "watch-burst", root, str(args.burst)]))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
