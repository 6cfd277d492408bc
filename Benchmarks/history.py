#!/usr/bin/env python3
"""The shared history's size: `folio watch DIR` on a folder of FILES recipes while every
file is edited ROUNDS times (10,000 edits of 1,000 files by default), each round left
quiet long enough for the watcher to record every edit. Then the size of DIR/.folio/
(this device's log and the versions kept), against the folder's own size, with how
many events the device logged in all (its log's last number) and how many lines and
versions are kept after compaction.

With one device, every version but each file's newest is superseded (every device has
moved past it), so the history should stay near one version per file, not grow with
the edits.

Run by hand from the package root, in one go:

  swift build -c release && python3 Benchmarks/history.py --files 1000 --rounds 10
"""
import argparse
import os
import shutil
import signal
import subprocess
import tempfile
import time

RECIPE = ("---\ntitle: Soup {n}\nkind: recipe\ntime: 15m\nservings: {s}\n---\nHot.\n\n## Ingredients\n- Water\n- Salt\n\n"
          "## Steps\n1. Boil the water.\n2. Add the salt.\n")
QUIET = 2.0


def size_of(folder, skip=None):
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        if skip:
            dirnames[:] = [d for d in dirnames if d != skip]
        for name in filenames:
            total += os.path.getsize(os.path.join(dirpath, name))
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/release/folio")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="folio-history-bench-")
    folder, state = os.path.join(work, "folder"), os.path.join(work, "state")
    os.makedirs(os.path.join(folder, "recipes"))
    paths = [os.path.join(folder, "recipes", f"soup-{i}.md") for i in range(args.files)]
    for i, path in enumerate(paths):
        with open(path, "w") as f:
            f.write(RECIPE.format(n=i, s=0))
    watch = subprocess.Popen([args.folio, "watch", folder, "--state", state], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not os.path.isdir(os.path.join(folder, ".folio", "logs")):
            time.sleep(0.1)
        time.sleep(QUIET + 1)
        started = time.time()
        for round_ in range(1, args.rounds + 1):
            for i, path in enumerate(paths):
                with open(path, "w") as f:
                    f.write(RECIPE.format(n=i, s=round_))
            # Left alone past the quiet period, so every edit is recorded.
            time.sleep(QUIET + 2)
        time.sleep(QUIET + 2)
        elapsed = time.time() - started
    finally:
        os.killpg(watch.pid, signal.SIGTERM)
        watch.wait(timeout=10)
    logs = os.path.join(folder, ".folio", "logs")
    log = os.path.join(logs, os.listdir(logs)[0])
    with open(log, "rb") as f:
        lines = f.read().splitlines()
    logged = int(lines[-1].split(b"\t")[0]) if lines else 0
    versions = sum(len(files) for _, _, files in os.walk(os.path.join(folder, ".folio", "versions")))
    history = size_of(os.path.join(folder, ".folio"))
    records = size_of(folder, skip=".folio")
    edits = args.files * args.rounds
    print(f"{edits} edits of {args.files} files over {elapsed:.0f} s, `folio watch` recording:")
    print(f"  events logged in all: {logged} ({logged - args.files} after the first record of each file)")
    print(f"  kept: {len(lines)} log lines, {versions} versions")
    print(f"  .folio/ on disk: {history / 1024:.0f} KiB; the records: {records / 1024:.0f} KiB; ratio {history / records:.2f}x")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
