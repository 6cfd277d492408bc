#!/usr/bin/env python3
"""git-sync benchmark (issue 39): three devices, each following its clone of a bare repository
served by OpenSSH on 127.0.0.1 with `folio watch DIR --git-sync --commit-after 1s --fetch-every 2s`
(release build).

  * Edit -> other work trees: an edit saved on one device (a line added to a record, devices in
    turn, at a random moment), timed until both other devices' work trees hold it (polled every
    10 ms); p50 and p90. The bound it is measured against: commit-after, then on average half a
    fetch interval before the others look (1 s + 1 s = 2 s), plus the passes' own time.
  * Idle CPU per minute: user+system time of one idle `watch --git-sync` and of every process it
    ran (git, ssh: reaped children's times), over IDLE seconds, scaled to a minute. Side by side,
    in the same run: plain `folio watch DIR` (no git-sync), and the floor of any tool that fetches
    every 2 s — a shell loop of `git fetch` and `sleep 2`.

Run by hand from the package root (needs openssh-server and git):

  swift build -c release --product folio && python3 Benchmarks/gitsync.py [--edits 30] [--idle 60]
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
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "GitSync"))
import gitlib  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime + the reaped children's (cutime + cstime) of `pid`, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICKS


def idle_cpu_per_minute(pid, seconds):
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) * 60 / seconds


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--folio", default=os.path.join(HERE, "..", ".build", "release", "folio"))
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--idle", type=float, default=60)
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folio = os.path.abspath(args.folio)
    root = tempfile.mkdtemp(prefix="folio-gitsync-bench-")
    files = {f"recipes/r{i:04}.md": f"---\ntitle: Recipe {i}\ntime: {10 + i % 50}m\n---\nSteps.\n" for i in range(args.records)}
    cluster = None
    loop = None
    plain = None
    try:
        cluster = gitlib.Cluster(root, ["A", "B", "C"], folio, files)
        cluster.watch(commit_after="1s", fetch_every="2s")
        gitlib.wait_until(cluster.in_step, 60, 0.2, "the devices to agree at the start")
        latencies = []
        for i in range(args.edits):
            device = cluster.devices[i % 3]
            others = [d for d in cluster.devices if d is not device]
            rel = rng.choice(sorted(files))
            marker = f"- step {i} ({device.name})"
            time.sleep(rng.uniform(0, 2))    # a moment unrelated to the fetch timers
            text = device.read(rel)
            device.write(rel, text + marker + "\n")
            saved = time.monotonic()
            gitlib.wait_until(lambda: all(marker in (d.read(rel) or "") for d in others), 60, 0.01, f"edit {i} on the others")
            latencies.append(time.monotonic() - saved)
            gitlib.wait_until(cluster.in_step, 60, 0.1, f"the devices to agree after edit {i}")
        # Idle: device A's watch, then the peers, one at a time, each on its own fresh footing.
        time.sleep(3)
        folio_idle = idle_cpu_per_minute(cluster.devices[0].process.pid, args.idle)
        cluster.stop()
        clone = cluster.devices[0]
        cluster.remote.start()
        loop = subprocess.Popen(["sh", "-c", f"while true; do git -C '{clone.folder}' fetch -q; sleep 2; done"], env=clone.env,
                                start_new_session=True)
        time.sleep(3)
        floor_idle = idle_cpu_per_minute(loop.pid, args.idle)
        os.killpg(loop.pid, 9)
        loop.wait()
        loop = None
        cluster.remote.stop()
        plain = subprocess.Popen([folio, "watch", clone.folder, "--state", os.path.join(root, "state-plain")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        gitlib.wait_until(lambda: "watching" in (plain.stderr.readline() or ""), 60, 0.01, "plain watch to start")
        time.sleep(3)
        plain_idle = idle_cpu_per_minute(plain.pid, args.idle)
        p50, p90 = statistics.median(latencies), percentile(latencies, 90)
        bound = 2.0
        print(f"{args.records} records, 3 devices over ssh on 127.0.0.1, --commit-after 1s --fetch-every 2s, {args.edits} edits")
        print(f"edit -> both other work trees: p50 {p50:.2f} s ({p50 / bound:.2f}x the 2 s bound of commit-after + half a fetch interval), "
              f"p90 {p90:.2f} s, max {max(latencies):.2f} s")
        print(f"idle CPU per minute: watch --git-sync {folio_idle:.2f} s; plain watch {plain_idle:.3f} s; "
              f"a shell loop of git fetch every 2 s {floor_idle:.2f} s "
              f"(git-sync = {folio_idle / floor_idle:.2f}x the fetch loop; {100 * folio_idle / 60:.1f}% of one core)")
        return 0
    finally:
        if loop:
            os.killpg(loop.pid, 9)
        if plain and plain.poll() is None:
            plain.terminate()
            plain.wait()
        if cluster:
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
