"""Three devices, each following its clone with `folio watch DIR --git-sync`, through rounds of
offline edits: they converge to one tree with every mergeable edit in its file and one conflict
copy per real clash, git fsck clean throughout (issue 39).

Each round some devices go offline (their ssh configuration pointed at a closed port), every
device edits — its own field of a record (never a clash), a new record of its own — and, now and
then, two offline devices set the same field of one record to different values (a real clash:
neither could see the other's). The round waits until every edit is committed, brings everyone
back online and waits until the three work trees and the remote agree. Then it checks.

    python3 Tests/GitSync/devices.py --folio .build/debug/folio [--rounds 6] [--seed 1]

Prints one line per round and a summary; exits 1 on the first failed check (with its seed).
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gitlib  # noqa: E402

RECORDS = ["r1.md", "r2.md", "r3.md"]
NAMES = ["ALPHA", "BRAVO", "CHARLIE"]
COPY = re.compile(r"^(?P<stem>.+)\.sync-conflict-\d{8}-\d{6}-(?P<device>[a-z0-9-]+)\.md$")   # git-sync's copies


def record(title, fields):
    lines = ["---", f"title: {title}"] + [f"{k}: {v}" for k, v in fields.items()] + ["---", f"{title}, as kept in git.", ""]
    return "\n".join(lines)


def front_matter(text):
    """The fields of a record written by record() (or merged from such records)."""
    fields = {}
    if not text or not text.startswith("---\n"):
        return None
    for line in text.split("\n")[1:]:
        if line == "---":
            return fields
        key, _, value = line.partition(": ")
        fields[key] = value
    return None


DESCRIBE = None   # what the cluster holds and said, printed with a failure


def check(condition, message, seed):
    if not condition:
        print(f"FAIL (seed {seed}): {message}", flush=True)
        if DESCRIBE:
            print(DESCRIBE(), flush=True)
        raise SystemExit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--folio", required=True)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--commit-after", default="300ms")
    parser.add_argument("--fetch-every", default="1s")
    parser.add_argument("--settle-timeout", type=float, default=90)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"seed {seed}; {len(NAMES)} devices, {args.rounds} rounds, --commit-after {args.commit_after} --fetch-every {args.fetch_every}", flush=True)
    if not gitlib.SSHD or not gitlib.GIT:
        print("notice: sshd or git is not installed (apt-get install openssh-server git)", flush=True)
        return 2
    root = tempfile.mkdtemp(prefix="folio-gitsync-")
    files = {r: record(r[:-3].upper(), {"time": "15m"}) for r in RECORDS}
    cluster = None
    try:
        cluster = gitlib.Cluster(root, NAMES, os.path.abspath(args.folio), files)
        cluster.watch(commit_after=args.commit_after, fetch_every=args.fetch_every)
        global DESCRIBE
        DESCRIBE = cluster.describe
        # What the files must hold: each device's own field per record, the shared field's
        # value where no clash is pending, the new records.
        own = {r: {} for r in RECORDS}          # record -> {field: value}
        new_records = {}
        clashes = []                            # (record, round)
        offline_periods = {d.name: 0 for d in cluster.devices}
        settle_times = []
        edits = 0
        for round_number in range(1, args.rounds + 1):
            offline = [d for d in cluster.devices if rng.random() < 0.5]
            for d in offline:
                offline_periods[d.name] += 1
            for d in offline:
                d.set_online(False)
            # Every device edits what only it edits: a field of its own in one record, a new record.
            for d in cluster.devices:
                r = rng.choice(RECORDS)
                current = front_matter(d.read(r)) or {}
                field = "by_" + d.name.lower()
                value = f"round {round_number}"
                current[field] = value
                title = current.pop("title", r[:-3].upper())
                d.write(r, record(title, current))
                own[r][field] = value
                rel = f"notes/{d.name.lower()}-{round_number}.md"
                text = record(f"{d.name} {round_number}", {"round": str(round_number)})
                d.write(rel, text)
                new_records[rel] = text
                edits += 2
            # Two offline devices setting one field two ways: a real clash.
            if len(offline) >= 2 and rng.random() < 0.7:
                first, second = rng.sample(offline, 2)
                r = rng.choice(RECORDS)
                for d, minutes in ((first, 20 + round_number), (second, 40 + round_number)):
                    current = front_matter(d.read(r)) or {}
                    current["time"] = f"{minutes}m"
                    title = current.pop("title", r[:-3].upper())
                    d.write(r, record(title, current))
                    edits += 1
                clashes.append((r, round_number))
            # Every edit committed, online or not.
            started = time.monotonic()
            try:
                gitlib.wait_until(lambda: all(d.status() == "" for d in cluster.devices), args.settle_timeout, 0.1,
                                  f"round {round_number}: every device's edits committed")
            except TimeoutError as error:
                print(f"FAIL (seed {seed}): {error}", flush=True)
                print(cluster.describe(), flush=True)
                return 1
            offline_names = [d.name for d in offline]
            for d in offline:
                d.set_online(True)
            back = time.monotonic()
            try:
                gitlib.wait_until(cluster.in_step, args.settle_timeout, 0.2, f"round {round_number}: the three work trees and the remote to agree")
            except TimeoutError as error:
                print(f"FAIL (seed {seed}): {error}", flush=True)
                print(cluster.describe(), flush=True)
                return 1
            settle = time.monotonic() - back
            settle_times.append(settle)
            tree = cluster.devices[0].files()
            copies = sorted(p for p in tree if COPY.match(os.path.basename(p)))
            # Checks: every own-field edit and every new record in place; one copy per clash.
            for r, fields in own.items():
                held = front_matter(tree.get(r))
                check(held is not None, f"round {round_number}: {r} is not a record: {tree.get(r)!r}", seed)
                for field, value in fields.items():
                    check(held.get(field) == value, f"round {round_number}: {r} has {field}={held.get(field)!r}, not {value!r}", seed)
            for rel, text in new_records.items():
                check(tree.get(rel) == text, f"round {round_number}: {rel} is {tree.get(rel)!r}", seed)
            check(len(copies) == len(clashes), f"round {round_number}: {len(copies)} conflict copies {copies} for {len(clashes)} clashes {clashes}", seed)
            for text in tree.values():
                check(text is None or "<<<<<<<" not in text, f"round {round_number}: conflict markers in the tree", seed)
            for d in cluster.devices:
                fsck = subprocess.run([gitlib.GIT, "-C", d.folder, "fsck", "--no-progress", "--strict"], capture_output=True, text=True, env=d.env)
                check(fsck.returncode == 0, f"round {round_number}: git fsck in {d.name}: {fsck.stdout}{fsck.stderr}", seed)
            fsck = subprocess.run([gitlib.GIT, "-C", cluster.remote.repository, "fsck", "--no-progress", "--strict"], capture_output=True, text=True)
            check(fsck.returncode == 0, f"round {round_number}: git fsck in the remote: {fsck.stdout}{fsck.stderr}", seed)
            print(f"round {round_number}: offline {','.join(offline_names) or '-'}; edits so far {edits}; clashes {len(clashes)}; "
                  f"copies {len(copies)}; committed {back - started:.1f} s after the edits, in step {settle:.1f} s after back online", flush=True)
        # Each device told of the others' records as arrivals (the store followed what git brought in).
        for d in cluster.devices:
            told = "\n".join(l for _, s, l in d.output() if s == "out")
            missing = [rel for rel in new_records if not rel.startswith(f"notes/{d.name.lower()}-") and f"added {rel}" not in told]
            check(not missing, f"{d.name} did not print `added` for {missing[:3]}", seed)
        # Said once each time a device was cut off (and not again while it lasted).
        offline_said = {d.name: sum("the remote could not be reached" in l for l in d.errors()) for d in cluster.devices}
        # Never said twice in one period (a period in which no pass reached the remote
        # before it ended may say nothing).
        check(all(1 <= offline_said[n] <= offline_periods[n] for n in offline_periods if offline_periods[n]),
              f"offline said {offline_said} times, for {offline_periods} periods offline", seed)
        codes = cluster.stop()
        check(all(c == 0 for c in codes.values()), f"watch exit statuses {codes}", seed)
        print(f"PASS seed {seed}: {args.rounds} rounds, {edits} edits, {len(clashes)} clashes, {len(clashes)} copies; "
              f"in step after back online: median {statistics.median(settle_times):.1f} s, max {max(settle_times):.1f} s; "
              f"offline said {offline_said}; exit statuses {codes}", flush=True)
        return 0
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
