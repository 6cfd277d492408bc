#!/usr/bin/env python3
"""Events per save: how many changes `folio watch DIR --json` reports for one save.

A save written in place in CHUNKS pieces 100 ms apart, the file open all the while
(network editors, tools that write in chunks), should be one `updated` event, never a
half-written body nor a transient `invalid` (front matter not closed yet). Each round
saves one recipe this way under every watcher given (`--before` and this build,
alternated), then counts the events each printed for it. Prints, per chunk count,
the mean events per save, the saves seen half-written, and the ratio.

Run by hand from the package root:

  swift build -c release && python3 Benchmarks/slowsave.py --before /tmp/before/.build/release/folio
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

RECIPE = "---\ntitle: Soup {n}\nkind: recipe\ntime: {n}m\ntags: [a, b]\n---\n" + "A line of the method.\n" * 40


class Watch:
    """`folio watch DIR --json`, its events collected by a reader thread."""

    def __init__(self, binary, root):
        self.lines, self.lock = [], threading.Lock()
        self.process = subprocess.Popen([binary, "watch", root, "--json", "--state", root + ".state"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        threading.Thread(target=self.read, daemon=True).start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if b"Ctrl-C stops" in line or not line:
                break

    def read(self):
        for line in self.process.stdout:
            with self.lock:
                self.lines.append(json.loads(line))

    def take(self):
        with self.lock:
            lines, self.lines = self.lines, []
        return lines

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def slow_save(path, text, chunks, gap):
    data = text.encode()
    size = (len(data) + chunks - 1) // chunks
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        for start in range(0, len(data), size):
            os.write(fd, data[start:start + size])
            time.sleep(gap)
    finally:
        os.close(fd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folio", default=".build/release/folio")
    ap.add_argument("--before", required=True, help="another folio binary to compare with")
    ap.add_argument("--saves", type=int, default=10, help="saves per chunk count and binary")
    ap.add_argument("--chunks", default="1,2,4")
    ap.add_argument("--gap", type=float, default=0.1, help="seconds between chunks")
    args = ap.parse_args()
    tools = {"before": os.path.abspath(args.before), "now": os.path.abspath(args.folio)}
    base = tempfile.mkdtemp(prefix="folio-slowsave-")
    watches = {}
    try:
        for name, binary in tools.items():
            root = os.path.join(base, name)
            os.makedirs(os.path.join(root, "recipes"))
            with open(os.path.join(root, "recipes", "soup.md"), "w") as f:
                f.write(RECIPE.format(n=0))
            watches[name] = Watch(binary, root)
        time.sleep(1)
        for w in watches.values():
            w.take()
        n = 0
        print(f"{args.saves} saves per row, chunks {args.gap * 1000:.0f} ms apart, tools alternated")
        for chunks in [int(c) for c in args.chunks.split(",")]:
            counts = {name: [] for name in tools}
            half = {name: 0 for name in tools}
            for _ in range(args.saves):
                for name in tools:
                    n += 1
                    path = os.path.join(base, name, "recipes", "soup.md")
                    slow_save(path, RECIPE.format(n=n), chunks, args.gap)
                    time.sleep(2.6)  # past the 2 s hold and the quiet period
                    events = [e for e in watches[name].take() if e.get("path") == "recipes/soup.md"]
                    counts[name].append(len(events))
                    if any(e.get("event") == "invalid" for e in events) or len(events) > 1:
                        half[name] += 1
            mean = {name: sum(c) / len(c) for name, c in counts.items()}
            ratio = mean["now"] / mean["before"] if mean["before"] else float("nan")
            print(f"chunks={chunks}: events per save before {mean['before']:.2f} (saves seen half-written {half['before']}/{args.saves}), "
                  f"now {mean['now']:.2f} ({half['now']}/{args.saves}); now/before {ratio:.2f}")
    finally:
        for w in watches.values():
            w.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
