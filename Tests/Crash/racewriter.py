#!/usr/bin/env python3
"""A writer racing the syncs: while `folio sync A B` runs in a loop, in two loops at
once, or while `folio watch A B` follows the pair, a writer works on both replicas as
careful programs do, so that what it replaced is always known exactly:

  - 60% edits: the file read, a line of it replaced by a new token, the new version
    written to a scratch file (`.NAME.swp`, which Folio never syncs) and swapped in
    with renameat2(RENAME_EXCHANGE); what the swap displaced is read back, and the
    tokens it held that the new version does not are the writer's own removals;
  - 15% deletions: the file moved out of the replica, then read (its tokens are the
    writer's removals);
  - 10% renames inside the replica: renameat2(RENAME_NOREPLACE) to `hot/rTOKEN.md`,
    the writer then working on the new name — half of its next eight operations
    go to the file just renamed, on either side, as a person goes on editing a
    note just renamed (the other side has the new name once a sync moved it there);
  - 15% appends in place: a line with a new token written with O_APPEND.

Twelve "hot" files take 70% of the operations, among 200 others (a file keeps its
heat when renamed);
a few milliseconds pass between two operations. Each round lasts `--round-seconds`
and runs one of the modes in turn (`sync`: one loop; `sync2`: two loops at once;
`watch`: `folio watch A B --quiet 20ms`); then the writer stops, the pair is synced
until a sync changes nothing, and the round is checked: A and B hold the same files,
no temporary file of Folio's is left, and every token the writer wrote and did not
itself remove is in A, B (conflict copies included) or Folio's trash.

`--load` runs what a busy machine runs beside the syncs: two busy loops, and a
process flushing 64 MB at a time to the same disk (`dd … conv=fsync` in a loop);
`--flush` the flushing process alone.
`--delay US` has folio pause up to US microseconds before one system call in four
(`FOLIO_TEST_DELAY_US`), so that every window between a check and the step it guards
is wide open.

Prints the seed (FOLIO_SEED=N replays the writer's choices; the interleaving is the
scheduler's), a line per round, and last `rounds R, syncs S, operations O, lines
written W, lines lost L`; exits 1 on any loss, with the folders kept. Run from the
package root:

  python3 Tests/Crash/racewriter.py --folio .build/release/folio --rounds 10 --load
"""
import argparse
import ctypes
import errno
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realkill import TEMPORARY, Run, finish  # noqa: E402  (shared helpers: tree walks, file writes)

TOKEN = re.compile(rb"TK[0-9a-f]+Z")
LINES = 10
LIBC = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_NOREPLACE, RENAME_EXCHANGE = -100, 1, 2
MODES = {"sync": "sync loop", "sync2": "two concurrent sync loops", "watch": "folio watch A B --quiet 20ms"}


def rename2(first, second, flags):
    """renameat2(2) with `flags` (Linux)."""
    if LIBC.renameat2(AT_FDCWD, first.encode(), AT_FDCWD, second.encode(), flags) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error), second)


def tokens(data):
    return set(m.decode() for m in TOKEN.findall(data))


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Race:
    def __init__(self, args, seed):
        self.args = args
        self.seed = seed
        self.rng = random.Random(seed)
        self.work = tempfile.mkdtemp(prefix="folio-race-")
        self.roots = {"A": os.path.join(self.work, "A"), "B": os.path.join(self.work, "B")}
        self.state = os.path.join(self.work, "state")
        self.removed = os.path.join(self.work, "removed")
        self.counter = 0
        self.failures = []
        # Where each token was written (side, path, how), for the report of a loss.
        self.origin = {}
        # The files the writer works on, hot and others, by the name it last gave them.
        self.names = {"hot": [], "other": []}
        # The file just renamed, and how many operations may still go to it.
        self.focus, self.focus_left = None, 0
        self.totals = {"syncs": 0, "operations": 0, "written": 0}
        self.load = []
        # With --log: the writer's operations and the syncs' reports, with their times.
        self.events = []

    def token(self):
        self.counter += 1
        return f"TK{self.counter:x}Z"

    def log(self, text):
        """With --log, notes what happened (a writer's operation, a sync's report) with the time."""
        if self.args.log:
            self.events.append(f"{time.time():.6f} {text}")

    def sync(self, timeout=300):
        started = time.time()
        done = subprocess.run([self.args.folio, "sync", self.roots["A"], self.roots["B"], "--state", self.state, "--json"],
                              capture_output=True, timeout=timeout)
        output = done.stdout.decode(errors="replace")
        if self.args.log:
            self.log(f"sync from {started:.6f} exit {done.returncode}: " + " ".join(output.split()))
        return done.returncode, output, done.stderr.decode(errors="replace")

    # Setting up --------------------------------------------------------------------

    def new_file(self, path, heat):
        body = "".join(f"line {k}: start\n" for k in range(LINES))
        Run.write(os.path.join(self.roots["A"], path), f"---\ntitle: {os.path.basename(path)}\n---\n{body}".encode())
        self.names[heat].append(path)

    def replenish(self):
        """Brings the files back to `--hot` hot ones and `--others` others (deletions
        take some each round), made in A and synced."""
        for _ in range(max(0, self.args.hot - len(self.names["hot"]))):
            self.new_file(f"hot/h{self.token()}.md", "hot")
        for _ in range(max(0, self.args.others - len(self.names["other"]))):
            self.new_file(f"d{self.counter % 10}/r{self.token()}.md", "other")
        code, _, err = self.sync()
        if code not in (0, 1):
            self.failures.append(f"a sync between rounds exited {code}: {err.strip()[:300]}")

    def start_load(self):
        for _ in range(2 if self.args.load else 0):
            self.load.append(subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True))
        if self.args.load or self.args.flush:
            ballast = os.path.join(self.work, "ballast")
            self.load.append(subprocess.Popen(
                ["sh", "-c", f"while :; do dd if=/dev/zero of='{ballast}' bs=1M count=64 conv=fsync status=none; done"],
                start_new_session=True))

    def stop_load(self):
        for process in self.load:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
        self.load = []

    # The writer ----------------------------------------------------------------------

    def pick(self, rng):
        if self.focus_left > 0:
            self.focus_left -= 1
            if rng.random() < 0.5 and any(self.focus in names for names in self.names.values()):
                return self.focus
        hot, others = self.names["hot"], self.names["other"]
        pool = hot if hot and (rng.random() < 0.7 or not others) else others
        return rng.choice(pool) if pool else None

    def edit(self, rng, side, path, owed):
        full = os.path.join(self.roots[side], path)
        scratch = os.path.join(os.path.dirname(full), "." + os.path.basename(full) + ".swp")
        try:
            old = read(full)
        except FileNotFoundError:
            return False
        lines = old.split(b"\n")
        body = [i for i, line in enumerate(lines) if line.startswith(b"line ")]
        if not body:
            return False
        token = self.token()
        index = rng.choice(body)
        lines[index] = lines[index].split(b":")[0] + f": {token}".encode()
        new = b"\n".join(lines)
        with open(scratch, "wb") as f:
            f.write(new)
        try:
            rename2(scratch, full, RENAME_EXCHANGE)
        except OSError as error:
            os.unlink(scratch)
            if error.errno == errno.ENOENT:
                return False
            raise
        displaced = read(scratch)
        os.unlink(scratch)
        owed.difference_update(tokens(displaced) - tokens(new))
        owed.add(token)
        self.log(f"edit {side}:{path} {token} displaced {sorted(tokens(displaced))} new {sorted(tokens(new))}")
        self.origin[token] = f"{side}:{path}"
        return True

    def delete(self, side, path, owed):
        full = os.path.join(self.roots[side], path)
        aside = os.path.join(self.removed, self.token())
        try:
            os.rename(full, aside)
        except FileNotFoundError:
            return False
        owed.difference_update(tokens(read(aside)))
        self.log(f"delete {side}:{path} held {sorted(tokens(read(aside)))}")
        for names in self.names.values():
            if path in names:
                names.remove(path)
        return True

    def rename(self, side, path):
        new = f"hot/r{self.token()}.md"
        try:
            rename2(os.path.join(self.roots[side], path), os.path.join(self.roots[side], new), RENAME_NOREPLACE)
        except FileNotFoundError:
            return False
        names = self.names["hot"] if path in self.names["hot"] else self.names["other"]
        names[names.index(path)] = new
        self.focus, self.focus_left = new, 8
        self.log(f"rename {side}:{path} -> {new}")
        return True

    def append(self, side, path, owed):
        token = self.token()
        try:
            fd = os.open(os.path.join(self.roots[side], path), os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            return False
        try:
            os.write(fd, f"line a: {token}\n".encode())
        finally:
            os.close(fd)
        owed.add(token)
        self.log(f"append {side}:{path} {token}")
        self.origin[token] = f"{side}:{path}, an append"
        return True

    def writer(self, round_, stop, owed, counts):
        rng = random.Random(self.seed * 1000 + round_)
        while not stop.is_set():
            path = self.pick(rng)
            if path is None:
                break
            side = rng.choice("AB")
            roll = rng.random()
            try:
                if roll < 0.60:
                    done = self.edit(rng, side, path, owed)
                    counts["written"] += done
                elif roll < 0.75:
                    done = self.delete(side, path, owed)
                elif roll < 0.85:
                    done = self.rename(side, path)
                else:
                    done = self.append(side, path, owed)
                    counts["written"] += done
            except OSError as error:  # a folder the sync is making or removing, say: the operation is skipped
                if error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EEXIST):
                    self.failures.append(f"the writer failed: {error!r}")
                    return
                done = False
            counts["operations"] += done
            time.sleep(rng.uniform(0.001, self.args.pause))

    # The syncs -------------------------------------------------------------------------

    def sync_loop(self, stop, counts, mode):
        while not stop.is_set():
            code, _, err = self.sync()
            counts["syncs"] += 1
            # Two loops at once: the second waits for the state folder's lock, and may give up (exit 2, naming the holder).
            if code not in (0, 1) and not (mode == "sync2" and code == 2 and "in use by another folio process" in err):
                self.failures.append(f"a sync during the race exited {code}: {err.strip()[:300]}")

    def settle(self, label):
        """Syncs until a sync changes nothing (at most 6 times)."""
        for _ in range(6):
            code, output, err = self.sync()
            if code not in (0, 1):
                self.failures.append(f"{label}: a settling sync exited {code}: {err.strip()[:300]}")
            if not any(f'"{key}": [\n' in output for key in ("copied", "deleted", "merged", "moved", "changedDuringSync", "folded")):
                return
        self.failures.append(f"{label}: the replicas did not settle in 6 syncs")

    def check(self, label, owed):
        files_a, files_b = Run.files(None, self.roots["A"]), Run.files(None, self.roots["B"])
        if sorted(files_a) != sorted(files_b):
            self.failures.append(f"{label}: the replicas hold different files: {sorted(set(files_a) ^ set(files_b))[:5]}")
        for path in sorted(set(files_a) & set(files_b)):
            if read(files_a[path]) != read(files_b[path]):
                self.failures.append(f"{label}: {path} differs between A and B")
        left = [p for p in list(files_a) + list(files_b) if TEMPORARY.match(os.path.basename(p))]
        if left:
            self.failures.append(f"{label}: temporary files left: {left[:5]}")
        found = set()
        for root in (self.roots["A"], self.roots["B"], os.path.join(self.state, "trash")):
            if os.path.isdir(root):
                for full in Run.files(None, root).values():
                    found |= tokens(read(full))
        lost = sorted(owed - found, key=lambda t: int(t[2:-1], 16))
        for token in lost:
            self.failures.append(f"{label}: writer's line {token} ({self.origin.get(token, '?')}) is in no file of A, B or the trash")
        # Reported once: a later round checks what is still owed.
        owed.difference_update(lost)
        # What is owed and found is carried on: a later round may still lose it.
        return len(lost)

    def round(self, number, mode):
        label = f"race round {number} ({MODES[mode]})"
        self.replenish()
        stop_writer, stop_syncs = threading.Event(), threading.Event()
        counts = {"syncs": 0, "operations": 0, "written": 0}
        owed = self.owed
        watch = None
        loops = []
        if mode == "watch":
            watch = subprocess.Popen([self.args.folio, "watch", self.roots["A"], self.roots["B"], "--state", self.state, "--quiet", "20ms"]
                                     + (["--json"] if self.args.log else []),
                                     stdout=open(os.path.join(self.args.log, f"watch-{number}.jsonl"), "w") if self.args.log else subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True)
            time.sleep(0.5)
        else:
            loops = [threading.Thread(target=self.sync_loop, args=(stop_syncs, counts, mode)) for _ in range(2 if mode == "sync2" else 1)]
            for loop in loops:
                loop.start()
        writer = threading.Thread(target=self.writer, args=(number, stop_writer, owed, counts))
        writer.start()
        try:
            time.sleep(self.args.round_seconds)
        finally:
            stop_writer.set()
            writer.join()
            stop_syncs.set()
            for loop in loops:
                loop.join()
            if watch is not None:
                time.sleep(1)  # the watcher's last sync
                os.killpg(watch.pid, signal.SIGTERM)
                try:
                    _, err = watch.communicate(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(watch.pid, signal.SIGKILL)
                    _, err = watch.communicate()
                if watch.returncode != 0:
                    self.failures.append(f"{label}: folio watch exited {watch.returncode}: {err.decode(errors='replace').strip()[-300:]}")
        self.settle(label)
        lost = self.check(label, owed)
        for key in self.totals:
            self.totals[key] += counts[key]
        print(f"{label}: {counts['syncs'] if watch is None else 'watch'} syncs, {counts['operations']} operations, "
              f"{counts['written']} lines written, {len(owed)} owed, {lost} lost", flush=True)
        return lost

    def run(self):
        for root in self.roots.values():
            os.makedirs(root)
        os.makedirs(self.removed)
        self.owed = set()
        self.replenish()
        self.start_load()
        lost = 0
        try:
            modes = self.args.modes.split(",")
            for number in range(1, self.args.rounds + 1):
                lost += self.round(number, modes[(number - 1) % len(modes)])
        finally:
            self.stop_load()
        return lost


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/debug/folio")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--round-seconds", type=float, default=3)
    parser.add_argument("--hot", type=int, default=12)
    parser.add_argument("--others", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.005, help="longest pause between two operations, in seconds")
    parser.add_argument("--modes", default="sync,sync2,watch", help="the rounds' modes, in turn: sync, sync2, watch")
    parser.add_argument("--load", action="store_true", help="two busy loops and a process flushing 64 MB at a time beside the syncs")
    parser.add_argument("--flush", action="store_true", help="only the process flushing 64 MB at a time (the disk busy, the cores left to the tests beside)")
    parser.add_argument("--delay", type=int, default=0, metavar="US",
                        help="folio pauses up to US microseconds before one system call in four (FOLIO_TEST_DELAY_US): the windows between a check and its step made wide")
    parser.add_argument("--log", metavar="DIR", help="write the writer's operations and every sync's report, with their times, to DIR/race.log")
    parser.add_argument("--keep", action="store_true", help="keep the folders even when nothing was lost")
    args = parser.parse_args()
    for mode in args.modes.split(","):
        if mode not in MODES:
            parser.error(f"unknown mode {mode!r}: use sync, sync2 or watch")
    if args.delay:
        os.environ["FOLIO_TEST_DELAY_US"] = str(args.delay)
    if args.log:
        os.makedirs(args.log, exist_ok=True)
    seed = int(os.environ.get("FOLIO_SEED") or random.randrange(1, 10**6))
    print(f"seed {seed} (FOLIO_SEED={seed} replays the writer's choices)", flush=True)
    race = Race(args, seed)

    def stopped(signum, frame):  # SIGTERM from the test runner: stop what was started, keep the folders
        race.stop_load()
        sys.exit(1)
    signal.signal(signal.SIGTERM, stopped)
    lost = 0
    try:
        lost = race.run()
    except Exception as error:  # a crash of the harness is a failure too, with the folders kept
        race.failures.append(f"the harness failed: {error!r}")
    totals = race.totals
    print(f"rounds {args.rounds}, syncs {totals['syncs']}, operations {totals['operations']}, "
          f"lines written {totals['written']}, lines lost {lost}, other failures {len(race.failures) - lost}", flush=True)
    if args.log:
        with open(os.path.join(args.log, "race.log"), "w") as f:
            f.write("\n".join(race.events) + "\n")
    finish(race.failures, race.work, seed, keep=args.keep)


if __name__ == "__main__":
    main()
