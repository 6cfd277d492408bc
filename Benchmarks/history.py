#!/usr/bin/env python3
"""What `folio watch DIR` writes, and where, on a folder of generated records: into the
folder and into its state folder, right after it says "watching" and after EDITS edits
(random files, seeded), in a plain folder and in one Syncthing shares (its `.stfolder`
marker, one device); with the time to "watching" beside `folio check`'s on the same
tree, and the resident memory of `folio watch` under SOAK seconds of churn.

The bounds it checks (issue 37): in a plain folder nothing is written; in a shared one
`.folio/` holds at most 1% of the folder's files and 2 MB beyond the versions really
pending for other devices (with one device: none); the state folder is no larger than
the folder on disk; "watching" comes within twice `folio check`'s time; memory under
churn grows by at most 8 MiB. `--compare OTHER` runs another build the same way, each
scenario alternating the two, in one run.

Run by hand from the package root:

  swift build -c release && python3 Benchmarks/history.py --sizes 10000,100000 --edits 10000 --soak 90

`--devices` adds two devices taking turns on one Syncthing folder (A starts, B joins, B
takes the edits, A comes back, B comes back): what `.folio/` holds after each step.

The time to "watching" is taken once in each scenario, then START_RUNS times on one
folder per size and kind, the builds alternated, and given as medians (one start varies
by a few tenths of a second at 100,000 files on this machine).
"""
import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

RECIPE = ("---\ntitle: Soup {n}\nkind: recipe\ntime: 15m\nservings: {s}\ntags:\n  - soup\n  - winter\n---\n"
          "A soup for a cold evening, number {n}.\n\n## Ingredients\n- 1 l water\n- 2 carrots\n- 1 onion\n- salt\n\n"
          "## Steps\n1. Chop the carrots and the onion.\n2. Boil the water.\n3. Add everything and simmer for {s} minutes.\n"
          "4. Salt to taste.\n")
PER_FOLDER = 500


def usage(folder, skip=None):
    """(files, apparent bytes, bytes on disk) below `folder`, not descending into `skip`."""
    files = apparent = disk = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        if skip is not None:
            dirnames[:] = [d for d in dirnames if d not in skip]
        for name in filenames:
            st = os.lstat(os.path.join(dirpath, name))
            files += 1
            apparent += st.st_size
            disk += st.st_blocks * 512
    return files, apparent, disk


def mib(n):
    return f"{n / 1048576:.1f} MiB"


def largest_files(folder, count=3):
    """The `count` largest files below `folder`: 'name 1.2 MiB, ...' (where the state's bytes go)."""
    sizes = []
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            path = os.path.join(dirpath, name)
            sizes.append((os.lstat(path).st_size, os.path.relpath(path, folder)))
    return ", ".join(f"{rel} {mib(size)}" for size, rel in sorted(sizes, reverse=True)[:count])


def make_folder(root, count, shared):
    os.makedirs(root)
    if shared:
        os.makedirs(os.path.join(root, ".stfolder"))
    paths = []
    for i in range(count):
        sub = os.path.join(root, "recipes", f"{i // PER_FOLDER:03d}")
        if i % PER_FOLDER == 0:
            os.makedirs(sub)
        path = os.path.join(sub, f"soup-{i}.md")
        with open(path, "w") as f:
            f.write(RECIPE.format(n=i, s=10))
        paths.append(path)
    return paths


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def start_watch(folio, folder, state):
    started = time.time()
    watch = subprocess.Popen([folio, "watch", folder, "--state", state], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
    line = b""
    while b"watching" not in line:
        line = watch.stderr.readline()
        if not line and watch.poll() is not None:
            raise SystemExit(f"folio watch exited {watch.returncode}")
    return watch, time.time() - started


def stop(watch):
    os.killpg(watch.pid, signal.SIGTERM)
    try:
        watch.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(watch.pid, signal.SIGKILL)
        watch.wait()


def written_into(folder, originals):
    """Files in the folder that are not the records (nor Syncthing's marker)."""
    extra = files = apparent = disk = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != ".stfolder"]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if path in originals:
                continue
            st = os.lstat(path)
            files += 1
            apparent += st.st_size
            disk += st.st_blocks * 512
    return files, apparent, disk


def edit_randomly(paths, edits, seed):
    """EDITS edits of random files (seeded), in runs of 1,000 with 0.7 s between, then 4 s
    for the watcher to settle."""
    rng = random.Random(seed)
    done = 0
    while done < edits:
        for _ in range(min(1000, edits - done)):
            i = rng.randrange(len(paths))
            with open(paths[i], "w") as f:
                f.write(RECIPE.format(n=i, s=rng.randrange(11, 10 ** 6)))
            done += 1
        time.sleep(0.7)
    time.sleep(4)


def scenario(folio, count, shared, edits, seed):
    work = tempfile.mkdtemp(prefix="folio-history-bench-")
    folder, state = os.path.join(work, "folder"), os.path.join(work, "state")
    try:
        paths = make_folder(folder, count, shared)
        originals = set(paths)
        t0 = time.time()
        subprocess.run([folio, "check", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        check = time.time() - t0
        watch, until_watching = start_watch(folio, folder, state)
        rows = {}
        try:
            time.sleep(3)
            rows["start"] = (written_into(folder, originals), usage(state), largest_files(state))
            edit_randomly(paths, edits, seed)
            rows["edits"] = (written_into(folder, originals), usage(state), largest_files(state))
        finally:
            stop(watch)
        records = usage(folder, skip={".folio", ".stfolder"})
        return check, until_watching, rows, records
    finally:
        shutil.rmtree(work, ignore_errors=True)


def folio_share(folder):
    """`.folio/` in the folder: (files, bytes, log lines per device, versions published)."""
    root = os.path.join(folder, ".folio")
    files, apparent, _ = usage(root) if os.path.isdir(root) else (0, 0, 0)
    lines = {}
    logs = os.path.join(root, "logs")
    for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
        with open(os.path.join(logs, name), "rb") as f:
            lines[name[:4]] = f.read().count(b"\n")
    versions = os.path.join(root, "versions")
    published = usage(versions)[0] if os.path.isdir(versions) else 0
    return files, apparent, lines, published


def cpu_ticks(pid):
    """User and system CPU time of PID so far, in clock ticks (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def wait_until_idle(pid, roots, quiet=2.0, limit=300.0):
    """Waits until the watcher PID used no CPU and nothing under ROOTS changed for QUIET
    seconds, at most LIMIT: a compaction may take longer than the 3 s a step gives the
    watcher, and much of it is work in memory that writes nothing until it is done.
    Returns how long the watcher was busy after the call (to within 0.5 s), or None."""
    def look():
        seen = []
        for dirpath, _, filenames in (walk for root in roots for walk in os.walk(root)):
            for name in filenames:
                try:
                    st = os.lstat(os.path.join(dirpath, name))
                except FileNotFoundError:
                    continue
                seen.append((dirpath, name, st.st_size, st.st_mtime_ns))
        return sorted(seen), cpu_ticks(pid)
    start = time.time()
    deadline = start + limit
    last, since = look(), start
    while time.time() < deadline and time.time() - since < quiet:
        time.sleep(0.5)
        now = look()
        # A tick or two a second is the watcher's own polling, not work.
        if now[0] != last[0] or now[1] - last[1] > 2:
            since = time.time()
        last = now
    return since - start if time.time() < deadline else None


def devices(folio, count, edits, seed):
    """Two devices on one Syncthing folder, one at a time (as the sync tool would show each
    the other's files): A starts and stops; B joins (its first start, A's log there), takes
    EDITS edits and stops; A comes back to them (arrivals); B comes back (compacts). What
    `.folio/` holds after each step, and how long the watcher was still busy after the
    step's 3 s (or the edits): each device is stopped only once it is idle."""
    work = tempfile.mkdtemp(prefix="folio-history-devices-")
    folder = os.path.join(work, "folder")
    state = {d: os.path.join(work, "state-" + d) for d in "ab"}
    steps = []
    try:
        paths = make_folder(folder, count, shared=True)
        t0 = time.time()
        subprocess.run([folio, "check", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        check = time.time() - t0
        joined = None
        for step, device in (("A's first start", "a"), ("B joins", "b"), ("edits", "b"), ("A back", "a"), ("B back", "b")):
            watch, watching = start_watch(folio, folder, state[device])
            if step == "B joins":
                joined = watching
            try:
                time.sleep(3)
                if step == "edits":
                    edit_randomly(paths, edits, seed)
                busy = wait_until_idle(watch.pid, [os.path.join(folder, ".folio"), state[device]])
            finally:
                stop(watch)
            # After its 3 s (and the edits), how much longer the watcher worked.
            settled = f"busy {busy:.1f} s more" if busy is not None else "still busy after 300 s more"
            steps.append((step if step != "edits" else f"after {edits} edits on B", folio_share(folder), settled))
        return check, joined, steps
    finally:
        shutil.rmtree(work, ignore_errors=True)


def soak(folio, seconds, files, seed):
    work = tempfile.mkdtemp(prefix="folio-history-soak-")
    folder, state = os.path.join(work, "folder"), os.path.join(work, "state")
    try:
        paths = make_folder(folder, files, shared=False)
        watch, _ = start_watch(folio, folder, state)
        try:
            time.sleep(3)
            before = rss(watch.pid)
            rng = random.Random(seed)
            edits = 0
            peak = before
            end = time.time() + seconds
            next_sample = time.time() + 1
            while time.time() < end:
                i = rng.randrange(files)
                with open(paths[i], "w") as f:
                    f.write(RECIPE.format(n=i, s=rng.randrange(11, 10 ** 6)))
                edits += 1
                if edits % 50 == 0:
                    time.sleep(0.05)
                if time.time() >= next_sample:
                    peak = max(peak, rss(watch.pid))
                    next_sample += 1
            time.sleep(4)
            after = rss(watch.pid)
            peak = max(peak, after)
        finally:
            stop(watch)
        return edits, before, peak, after
    finally:
        shutil.rmtree(work, ignore_errors=True)


def starts(builds, count, shared, runs):
    """Time to 'watching' against `folio check`, RUNS times each on one folder, the builds
    alternated (a fresh state folder every start): the medians and their ratio."""
    work = tempfile.mkdtemp(prefix="folio-history-start-")
    folder = os.path.join(work, "folder")
    times = {name: ([], []) for name, _ in builds}
    try:
        make_folder(folder, count, shared)
        for _ in range(runs):
            for name, folio in builds:
                t0 = time.time()
                subprocess.run([folio, "check", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[name][0].append(time.time() - t0)
                state = os.path.join(work, "state")
                watch, watching = start_watch(folio, folder, state)
                stop(watch)
                # Each start is a first start of the only device: a `.folio/` left by the one
                # before would be another device's, whose log this one then publishes to.
                shutil.rmtree(state)
                shutil.rmtree(os.path.join(folder, ".folio"), ignore_errors=True)
                times[name][1].append(watching)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {name: (statistics.median(checks), statistics.median(watches)) for name, (checks, watches) in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/release/folio")
    parser.add_argument("--compare", help="another build of folio, run alternately")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--edits", type=int, default=10000)
    parser.add_argument("--soak", type=float, default=90)
    parser.add_argument("--soak-files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start-runs", type=int, default=5, help="starts timed per build and folder (medians)")
    parser.add_argument("--devices", action="store_true", help="also two devices taking turns on one Syncthing folder")
    parser.add_argument("--devices-only", action="store_true", help="only that (with --start-runs 0 --soak 0)")
    args = parser.parse_args()
    builds = [("this", args.folio)] + ([("other", args.compare)] if args.compare else [])
    for count in [int(n) for n in args.sizes.split(",")] if not args.devices_only else []:
        for shared in (False, True):
            kind = "Syncthing folder" if shared else "plain folder"
            for name, folio in builds:
                check, watching, rows, records = scenario(folio, count, shared, args.edits, args.seed)
                print(f"{name}: {count} records, {kind} ({records[0]} files, {mib(records[1])}, {mib(records[2])} on disk):")
                print(f"  time to 'watching' {watching:.2f} s, folio check {check:.2f} s, ratio {watching / check:.2f}x (one start; medians below)")
                for when, label in (("start", "after start"), ("edits", f"after {args.edits} edits")):
                    (files, apparent, disk), (sfiles, sapparent, sdisk), largest = rows[when]
                    share = files / records[0] * 100
                    print(f"  {label}: into the folder {files} files ({share:.2f}% of its files), {mib(apparent)}, {mib(disk)} on disk;"
                          f" state folder {sfiles} files, {mib(sapparent)}, {mib(sdisk)} on disk"
                          f" ({sdisk / records[2]:.2f}x the folder on disk, {sapparent / records[1]:.2f}x its bytes; {largest})")
    if args.devices or args.devices_only:
        for count in [int(n) for n in args.sizes.split(",")]:
            for name, folio in builds:
                check, joined, steps = devices(folio, count, args.edits, args.seed)
                print(f"{name}: {count} records, Syncthing folder, two devices: B's first start (joining) {joined:.2f} s,"
                      f" folio check {check:.2f} s, ratio {joined / check:.2f}x")
                for step, (files, apparent, lines, published), settled in steps:
                    logs = ", ".join(f"{d}… {n}" for d, n in lines.items())
                    print(f"  {step}: .folio/ {files} files ({files / count * 100:.2f}% of the records), {mib(apparent)};"
                          f" log lines: {logs}; versions published {published}; the watcher {settled}")
    if args.start_runs > 0:
        for count in [int(n) for n in args.sizes.split(",")]:
            for shared in (False, True):
                kind = "Syncthing folder" if shared else "plain folder"
                for name, (check, watching) in starts(builds, count, shared, args.start_runs).items():
                    print(f"{name}: {count} records, {kind}, medians of {args.start_runs} starts: time to 'watching' {watching:.2f} s,"
                          f" folio check {check:.2f} s, ratio {watching / check:.2f}x (bound 2x)")
    if args.soak > 0:
        for name, folio in builds:
            edits, before, peak, after = soak(folio, args.soak, args.soak_files, args.seed)
            print(f"{name}: {args.soak:.0f} s of churn on {args.soak_files} records ({edits} edits): resident {mib(before)} → "
                  f"peak {mib(peak)}, end {mib(after)}; growth {mib(peak - before)} (bound 8 MiB)")


if __name__ == "__main__":
    main()
