#!/usr/bin/env python3
"""Fold latency: from a Syncthing conflict copy appearing in a watched folder to the
copy being folded into its file, under `folio watch DIR`.

Each round: a recipe is written and left for Folio to record (the version both devices
start from); then, as Syncthing does when two devices edited it, the file is replaced
by one device's edit (servings) and the other's (time) is written as
`NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.md`. The clock starts when the copy is
renamed into place and stops when it is gone and the file holds both edits. Folio
waits for the sync tool to leave a file and its copy alone for the quiet period (2 s)
before folding, so the latency is that period plus Folio's own work; the figure that
is Folio's is the difference, printed as the overhead.

Run by hand from the package root, in one go:

  swift build -c release && python3 Benchmarks/fold.py --rounds 20 --files 1000
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

RECIPE = "---\ntitle: Soup {n}\nkind: recipe\ntime: 15m\nservings: 4\n---\nHot.\n\n## Ingredients\n- Water\n\n## Steps\n1. Boil.\n"
QUIET = 2.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/release/folio")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--files", type=int, default=1000, help="other records in the folder")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="folio-fold-bench-")
    folder, state = os.path.join(work, "folder"), os.path.join(work, "state")
    os.makedirs(os.path.join(folder, "recipes"))
    for index in range(args.files):
        with open(os.path.join(folder, "recipes", f"other-{index}.md"), "w") as f:
            f.write(RECIPE.format(n=index))
    watch = subprocess.Popen([args.folio, "watch", folder, "--state", state], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    latencies = []
    try:
        time.sleep(2)
        for round_ in range(args.rounds):
            path = os.path.join(folder, "recipes", f"soup-{round_}.md")
            base = RECIPE.format(n=f"round {round_}")
            with open(path, "w") as f:
                f.write(base)
            time.sleep(QUIET + 0.6)  # left alone for the quiet period, then recorded by the watcher
            copy = path[:-3] + ".sync-conflict-20261201-120000-ABCDEFG.md"
            staged = os.path.join(folder, "recipes", f".staged-{round_}")
            with open(staged, "w") as f:
                f.write(base.replace("time: 15m", "time: 20m"))
            with open(path + ".new", "w") as f:
                f.write(base.replace("servings: 4", "servings: 6"))
            os.rename(path + ".new", path)
            started = time.perf_counter()
            os.rename(staged, copy)
            deadline = started + 15
            while os.path.exists(copy) and time.perf_counter() < deadline:
                time.sleep(0.002)
            elapsed = time.perf_counter() - started
            with open(path) as f:
                text = f.read()
            if os.path.exists(copy) or "time: 20m" not in text or "servings: 6" not in text:
                raise SystemExit(f"round {round_}: not folded within 15 s")
            latencies.append(elapsed)
    finally:
        os.killpg(watch.pid, signal.SIGTERM)
        watch.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"fold latency over {len(latencies)} copies, {args.files} other records in the folder:")
    print(f"  p50 {p50:.3f} s, p99 {p99:.3f} s, max {latencies[-1]:.3f} s")
    print(f"  quiet period {QUIET:.1f} s: Folio's own overhead p50 {p50 - QUIET:.3f} s (ratio to the quiet period {p50 / QUIET:.2f}x)")


if __name__ == "__main__":
    main()
