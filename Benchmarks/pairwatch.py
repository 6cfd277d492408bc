#!/usr/bin/env python3
"""Pair-watch benchmark: what one edit costs while two replicas are kept in step.

For each N (the generator of Benchmarks/check.py, 200 files per folder), in one run:

  * `folio watch A B` (release build) on a fresh pair, and two Syncthing instances on
    127.0.0.1 sharing a fresh pair (the peer), each started and settled first;
  * then EDITS edits, alternated between the tools: a line appended to a random
    Markdown file of A, and B polled (every 2 ms) until its copy holds the line. The
    edit-to-replica latency is the time from the write to B holding it; p50 and p90.
  * CPU per edit: the tool's user+system time (from /proc, every process of the tool)
    over the edit phase, less its idle rate measured just before, over the edits.
    Folio's targets: p50 <= 100 ms, CPU <= 20 ms per edit.

Syncthing runs with fsWatcherDelayS=1 (its smallest; it aggregates a watcher's events
for that long before it scans), so its latency is bounded below by about a second.

Run by hand from the package root (needs Debian's syncthing):

  swift build -c release --product folio && python3 Benchmarks/pairwatch.py --files 10000 --files 100000
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Syncthing"))
import check  # noqa: E402  (the generator)
import stlib  # noqa: E402  (Syncthing on loopback)

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids):
    """User+system CPU of the processes `pids` and their waited-for children."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])
    return total / TICKS


def process_group(pid):
    """Every process in pid's process group (Syncthing's monitor spawns its worker)."""
    pgid = os.getpgid(pid)
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == pgid:
                    found.append(int(entry))
            except OSError:
                pass
    return found


def markdown_files(root):
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.relpath(os.path.join(folder, name), root) for name in names if name.endswith(".md")]
    return sorted(found)


def wait_for(path, marker, limit):
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        try:
            with open(path, "rb") as handle:
                if marker in handle.read():
                    return True
        except OSError:
            pass
        time.sleep(0.002)
    return False


def carry_probe(pair, name):
    """A new file in A, waited for in B: the pair is settled and following."""
    with open(os.path.join(pair.a, "probe.md"), "w") as handle:
        handle.write("---\ntitle: Probe\n---\n")
    if not wait_for(os.path.join(pair.b, "probe.md"), b"Probe", 120):
        raise RuntimeError(f"{name} did not carry a probe file across")


class FolioPair:
    name = "folio watch"

    def __init__(self, folio, tree, work):
        self.a, self.b = os.path.join(work, "folio-a"), os.path.join(work, "folio-b")
        subprocess.run(["cp", "-a", tree, self.a], check=True)
        subprocess.run(["cp", "-a", tree, self.b], check=True)
        self.state = os.path.join(work, "folio-state")
        self.log = open(os.path.join(work, "folio-watch.log"), "wb")
        self.process = subprocess.Popen([folio, "watch", self.a, self.b, "--state", self.state], stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        # Settled once the first sync recorded the archive: then a probe file goes across.
        stlib.wait_until(lambda: os.path.exists(os.path.join(self.state, "archive")), 600, interval=0.2, what="folio's first sync")
        carry_probe(self, "folio watch")

    def pids(self):
        return [self.process.pid]

    def stop(self):
        stlib.stop_process_group(self.process)
        self.log.close()


class SyncthingPair:
    name = "syncthing"

    def __init__(self, tree, work):
        self.nodes = stlib.make_cluster(os.path.join(work, "st"), ["a", "b"], [("b", "a")], rescan=3600)
        for node in self.nodes:
            shutil.rmtree(node.data)
            subprocess.run(["cp", "-a", tree, node.data], check=True)
            os.makedirs(os.path.join(node.data, ".stfolder"), exist_ok=True)
        stlib.start_cluster(self.nodes, timeout=120)
        stlib.wait_in_sync(self.nodes, timeout=1800)
        self.a, self.b = self.nodes[0].data, self.nodes[1].data
        carry_probe(self, "syncthing")

    def pids(self):
        return [pid for node in self.nodes for pid in process_group(node.proc.pid)]

    def stop(self):
        stlib.stop_cluster(self.nodes)


def measure(pairs, files, edits, idle, seed):
    rng = random.Random(seed)
    results = {pair.name: {"latency": [], "lost": 0} for pair in pairs}
    # Idle rate first, then the edits (alternated one by one), CPU counted around them.
    idle_rate = {}
    for pair in pairs:
        before = cpu_seconds(pair.pids())
        time.sleep(idle)
        idle_rate[pair.name] = (cpu_seconds(pair.pids()) - before) / idle
    spent = {pair.name: 0.0 for pair in pairs}
    busy = {pair.name: 0.0 for pair in pairs}
    for index in range(edits):
        relative = rng.choice(files)
        for pair in pairs:
            marker = f"bench edit {index} {pair.name}".encode()
            before, started = cpu_seconds(pair.pids()), time.perf_counter()
            with open(os.path.join(pair.a, relative), "ab") as handle:
                handle.write(b"\n" + marker + b"\n")
            arrived = wait_for(os.path.join(pair.b, relative), marker, 30)
            latency = time.perf_counter() - started
            # Let the tool finish what the edit set off (its echo on B, its records).
            time.sleep(0.3)
            busy[pair.name] += time.perf_counter() - started
            spent[pair.name] += cpu_seconds(pair.pids()) - before
            if arrived:
                results[pair.name]["latency"].append(latency)
            else:
                results[pair.name]["lost"] += 1
    for pair in pairs:
        result = results[pair.name]
        result["idle cpu/s"] = idle_rate[pair.name]
        result["cpu/edit"] = max(spent[pair.name] - idle_rate[pair.name] * busy[pair.name], 0) / edits
    return results


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, action="append")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--idle", type=float, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--no-syncthing", action="store_true", help="measure folio alone")
    root_dir = os.path.dirname(HERE)
    parser.add_argument("--folio", default=os.path.join(root_dir, ".build", "release", "folio"))
    args = parser.parse_args()
    sizes = args.files or [10000]
    print(f"pair-watch benchmark: {os.cpu_count()} cores, folio {args.folio}, {args.edits} edits per size, seed {args.seed}")
    for n in sizes:
        work = tempfile.mkdtemp(prefix=f"folio-pairwatch-{n}-")
        tree = os.path.join(work, "tree")
        os.makedirs(tree)
        check.generate_tree(tree, n, args.seed)
        pairs = []
        try:
            started = time.perf_counter()
            pairs.append(FolioPair(args.folio, tree, work))
            print(f"\n{n} files: folio watch settled in {time.perf_counter() - started:.1f} s", flush=True)
            if not args.no_syncthing:
                started = time.perf_counter()
                pairs.append(SyncthingPair(tree, work))
                print(f"{n} files: syncthing settled in {time.perf_counter() - started:.1f} s", flush=True)
            files = markdown_files(tree)
            results = measure(pairs, files, args.edits, args.idle, args.seed)
        finally:
            for pair in pairs:
                pair.stop()
        print(f"{'tool':<14}{'p50 ms':>10}{'p90 ms':>10}{'cpu/edit ms':>14}{'idle cpu %':>12}{'lost':>6}")
        for name, result in results.items():
            latency = result["latency"]
            print(f"{name:<14}{percentile(latency, 0.5) * 1000:>10.1f}{percentile(latency, 0.9) * 1000:>10.1f}"
                  f"{result['cpu/edit'] * 1000:>14.1f}{result['idle cpu/s'] * 100:>12.2f}{result['lost']:>6}")
        folio = results["folio watch"]
        p50, cpu = percentile(folio["latency"], 0.5) * 1000, folio["cpu/edit"] * 1000
        print(f"folio: p50 {p50:.1f} ms (target <= 100: {'met' if p50 <= 100 else 'NOT met'}), "
              f"cpu/edit {cpu:.1f} ms (target <= 20: {'met' if cpu <= 20 else 'NOT met'})")
        if "syncthing" in results:
            peer = results["syncthing"]
            print(f"ratios folio/syncthing: p50 {percentile(folio['latency'], 0.5) / percentile(peer['latency'], 0.5):.3f}x, "
                  f"cpu/edit {folio['cpu/edit'] / max(peer['cpu/edit'], 1e-9):.3f}x")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
