#!/usr/bin/env python3
"""Memory on one huge file: peak resident memory of each command beside the file's size.

A folder holding one Markdown file of SIZE MiB (200 by default: a log or dump someone
dropped in); each command runs on it, and `folio watch` (one folder, and a pair) runs
until the file is loaded, then sees the file appended to once. Prints each peak, its
ratio to the file's size, and the load limit of docs/performance.md (2x the file + 50 MiB).

    python3 Benchmarks/hugefile.py --folio .build/release/folio [--size 200]
"""
import argparse, os, shutil, signal, subprocess, tempfile, time


def peak_of_run(argv):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(out.stderr.strip().splitlines()[-1]) * 1024


def peak_of_watch(argv, huge, settle):
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        time.sleep(settle)
        with open(huge, "a") as f:
            f.write("one more line\n")
        time.sleep(settle)
        with open(f"/proc/{process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--folio", required=True)
    parser.add_argument("--size", type=int, default=200, help="MiB")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds to wait for a watch to load, then to see the edit")
    args = parser.parse_args()
    folio = os.path.abspath(args.folio)
    top = tempfile.mkdtemp(prefix="folio-hugefile-")
    try:
        a, b = os.path.join(top, "A"), os.path.join(top, "B")
        os.makedirs(a)
        os.makedirs(b)
        huge = os.path.join(a, "huge.md")
        line = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
        with open(huge, "w") as f:
            f.write("---\ntitle: Huge\n---\n")
            f.write(line * (args.size * 1024 * 1024 // len(line)))
        size = os.path.getsize(huge)
        limit = 2 * size + 50 * 1024 * 1024
        state = os.path.join(top, "state")
        rows = [
            ("check", peak_of_run([folio, "check", a])),
            ("list", peak_of_run([folio, "list", a])),
            ("sync (first)", peak_of_run([folio, "sync", a, b, "--state", state])),
            ("watch A", peak_of_watch([folio, "watch", a], huge, args.settle)),
            ("watch A B", peak_of_watch([folio, "watch", a, b, "--state", state], huge, args.settle)),
        ]
        print(f"file: {size / 2**20:.0f} MiB; limit 2x + 50 MiB = {limit / 2**20:.0f} MiB")
        for name, peak in rows:
            print(f"{name:14} peak {peak / 2**20:6.0f} MiB  {peak / size:4.2f}x the file  {'within' if peak <= limit else 'OVER'} the limit")
    finally:
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
