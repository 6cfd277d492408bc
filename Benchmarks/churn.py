#!/usr/bin/env python3
"""Memory under churn: `folio watch DIR` on a generated tree while files are edited
over and over, resident memory sampled as it goes.

A watcher runs for weeks, so its memory must follow what the folder holds, not how
many edits it has seen. Each edit appends the line `soak alpha` to a random file or
takes it out again (so no new words reach the index); with `--unique`, every tenth
edit also adds a word never seen before, and the next edit of that file takes it out.
At the end every file is put back as it was. The limit is the watcher's own memory
right after it loaded the folder (what the content needs); the ratios printed are
against it, plus the growth per 10,000 edits over the second half of the run (a
watcher that keeps every version it saw grows linearly; one that does not levels off).

Run by hand from the package root, in one go:

  swift build -c release && python3 Benchmarks/churn.py --files 10000 --seconds 90
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time

WORDS = ("uova guanciale pepe sale olio aglio pasta riso acqua fuoco lento crema burro latte farina zucchero "
         "limone basilico pomodoro cipolla carota sedano vino brodo").split()
SOAK = "soak alpha\n"


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def write(path, text):
    # As editors save: a temporary file renamed over the old one.
    temporary = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".swp")
    with open(temporary, "w") as f:
        f.write(text)
    os.rename(temporary, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/release/folio")
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--unique", action="store_true", help="every tenth edit adds a word never seen before")
    parser.add_argument("--rate", type=float, default=400, help="edits per second (the issue's run: about 390)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="folio-churn-bench-")
    folder, state = os.path.join(work, "folder"), os.path.join(work, "state")
    original = {}
    for n in range(args.files):
        directory = os.path.join(folder, f"d{n % 100:02d}")
        os.makedirs(directory, exist_ok=True)
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 120)))
        text = f"---\ntitle: Record {n}\ntags: [t{n % 13}]\ntime: {n % 50 + 5}m\n---\n{body}\n"
        path = os.path.join(directory, f"r{n}.md")
        with open(path, "w") as f:
            f.write(text)
        original[path] = text
    paths = sorted(original)
    current = dict(original)
    watch = subprocess.Popen([args.folio, "watch", folder, "--state", state], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    samples = []
    try:
        # Loaded when its memory has stopped moving.
        last = -1.0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(1)
            now = rss_mib(watch.pid)
            if abs(now - last) < 0.5:
                break
            last = now
        loaded = rss_mib(watch.pid)
        print(f"{args.files} files loaded: {loaded:.1f} MiB resident", flush=True)
        print(f"{'seconds':>8} {'edits':>8} {'MiB':>8} {'/ loaded':>9}", flush=True)
        start = time.monotonic()
        next_sample = start
        edits = 0
        while time.monotonic() - start < args.seconds:
            path = rng.choice(paths)
            text = current[path]
            if text != original[path]:
                text = original[path]
            elif args.unique and edits % 10 == 0:
                text = text + f"unique{edits} {SOAK}"
            else:
                text = text + SOAK
            write(path, text)
            current[path] = text
            edits += 1
            now = time.monotonic()
            ahead = start + edits / args.rate - now
            if ahead > 0:
                time.sleep(ahead)
            if now >= next_sample:
                resident = rss_mib(watch.pid)
                samples.append((now - start, edits, resident))
                print(f"{now - start:8.1f} {edits:8d} {resident:8.1f} {resident / loaded:9.2f}", flush=True)
                next_sample += 5
        for path in paths:
            if current[path] != original[path]:
                write(path, original[path])
        time.sleep(5)
        final = rss_mib(watch.pid)
        half = [s for s in samples if s[0] >= args.seconds / 2]
        growth = 0.0
        if len(half) >= 2 and half[-1][1] > half[0][1]:
            growth = (half[-1][2] - half[0][2]) / (half[-1][1] - half[0][1]) * 10000
        peak = max([loaded, final] + [s[2] for s in samples])
        print(f"edits {edits} in {args.seconds:.0f} s ({edits / args.seconds:.0f}/s){' with unique words' if args.unique else ''}")
        print(f"resident: loaded {loaded:.1f} MiB, peak {peak:.1f} MiB ({peak / loaded:.2f}x), "
              f"after every file was put back {final:.1f} MiB ({final / loaded:.2f}x)")
        print(f"growth over the second half: {growth:+.2f} MiB per 10,000 edits")
    finally:
        os.killpg(watch.pid, signal.SIGTERM)
        try:
            watch.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(watch.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
