#!/usr/bin/env python3
"""A writer racing the sync: while `folio sync A B` runs again and again (then while
`folio watch A B` runs), a writer keeps saving edits into both replicas as editors do
(a temporary file renamed over the old one), each edit a line with a unique token.
When the writer stops, the replicas are synced to the end and checked: they hold the
same files, no temporary file of Folio's is left, and every line the writer wrote
and did not itself replace later is found in A, B (conflict copies included) or
Folio's trash. Nothing the writer saved may be lost to a sync that ran meanwhile.

The writer saves as a careful editor does, so that it never clobbers the sync's own
writes (which would lose lines by the writer's doing, not Folio's): it reads the file,
writes its edit to a scratch file (`.NAME.swp`, which Folio never syncs), swaps the two
in one step (renameat2 RENAME_EXCHANGE), and checks what it displaced: if the sync
replaced the file after the read, it swaps back and tries again. A token is owed until
a later save that read it replaces its line; every token owed at the end must be found.

Prints the seed (FOLIO_SEED=N replays the choices; the interleaving is the
scheduler's), and per phase the syncs run, the saves made and the lines traced; exits
1 on any loss. Run from the package root:

  python3 Tests/Crash/racewriter.py --folio .build/debug/folio --seconds 20
"""
import argparse
import ctypes
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realkill import TOKEN, TEMPORARY, Run, finish  # noqa: E402  (shared helpers: tokens, tree walks, file writes)

LINES = 10
LIBC = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2


def exchange(first, second):
    """Swaps two paths in one step (Linux renameat2 RENAME_EXCHANGE)."""
    if LIBC.renameat2(AT_FDCWD, first.encode(), AT_FDCWD, second.encode(), RENAME_EXCHANGE) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error), second)


def save_guarded(full, edit):
    """Reads `full`, writes `edit(bytes)` in its place unless the file changed after the
    read (then reads again); returns (old, new) bytes, or None if the file is gone."""
    scratch = os.path.join(os.path.dirname(full), "." + os.path.basename(full) + ".swp")
    for _ in range(50):
        try:
            with open(full, "rb") as f:
                old = f.read()
        except FileNotFoundError:
            return None
        new = edit(old)
        if new is None:
            return None
        with open(scratch, "wb") as f:
            f.write(new)
        try:
            exchange(scratch, full)
        except FileNotFoundError:
            os.unlink(scratch)
            return None
        with open(scratch, "rb") as f:
            displaced = f.read()
        if displaced == old:
            os.unlink(scratch)
            return old, new
        # The sync wrote the file after the read: its version goes back, and the edit is redone on it.
        exchange(scratch, full)
        with open(scratch, "rb") as f:
            ours = f.read()
        if ours == new:
            os.unlink(scratch)
        else:
            raise RuntimeError(f"{full} changed twice during one save; the scratch file is kept")
    return None


class Race:
    def __init__(self, args, seed):
        self.args = args
        self.seed = seed
        self.rng = random.Random(seed)
        self.work = tempfile.mkdtemp(prefix="folio-race-")
        self.roots = {"A": os.path.join(self.work, "A"), "B": os.path.join(self.work, "B")}
        self.state = os.path.join(self.work, "state")
        self.counter = 0
        self.failures = []

    def sync(self):
        done = subprocess.run([self.args.folio, "sync", self.roots["A"], self.roots["B"], "--state", self.state, "--json"],
                              capture_output=True, timeout=300)
        return done.returncode, done.stdout.decode(errors="replace")

    def setup(self):
        for root in self.roots.values():
            os.makedirs(root)
        for n in range(self.args.files):
            body = "".join(f"line {k}: start {n}-{k}\n" for k in range(LINES))
            Run.write(os.path.join(self.roots["A"], f"d{n % 10}", f"r{n}.md"), f"---\ntitle: R{n}\n---\n{body}".encode())
        code, _ = self.sync()
        assert code == 0, f"the first sync exited {code}"

    def writer(self, phase, stop, owed, saves):
        """Saves edits until `stop` is set. `owed` holds every token a save wrote that no
        later save (one that read it) replaced."""
        rng = random.Random(self.seed * 1000 + phase)
        paths = [f"d{n % 10}/r{n}.md" for n in range(self.args.files)]
        while not stop.is_set():
            side = rng.choice("AB")
            path = rng.choice(paths)
            self.counter += 1
            token = f"K{self.seed}r{phase}{side}n{self.counter}"
            line_choice = rng.random()
            replaced = []

            def edit(old):
                lines = old.split(b"\n")
                body = [i for i, line in enumerate(lines) if line.startswith(b"line ")]
                if not body:
                    return None
                index = body[int(line_choice * len(body))]
                replaced[:] = [m.decode() for m in TOKEN.findall(lines[index])]
                lines[index] = lines[index].split(b":")[0] + f": {token}".encode()
                return b"\n".join(lines)

            if save_guarded(os.path.join(self.roots[side], path), edit) is None:
                continue
            owed.difference_update(replaced)
            owed.add(token)
            saves[0] += 1
            time.sleep(rng.uniform(0, self.args.pause))

    def settle(self):
        """Syncs until a sync changes nothing (at most 6 times)."""
        for _ in range(6):
            code, output = self.sync()
            if code not in (0, 1):
                self.failures.append(f"a settling sync exited {code}")
            if not any(f'"{key}": [\n' in output for key in ("copied", "deleted", "merged", "moved", "changedDuringSync")):
                return
        self.failures.append("the replicas did not settle in 6 syncs")

    def check(self, phase, owed):
        files_a, files_b = Run.files(None, self.roots["A"]), Run.files(None, self.roots["B"])
        if sorted(files_a) != sorted(files_b):
            self.failures.append(f"{phase}: the replicas hold different files: "
                                 f"{sorted(set(files_a) ^ set(files_b))[:5]}")
        for path in sorted(set(files_a) & set(files_b)):
            if Run.read(files_a[path]) != Run.read(files_b[path]):
                self.failures.append(f"{phase}: {path} differs between A and B")
        left = [p for p in list(files_a) + list(files_b) if TEMPORARY.match(os.path.basename(p))]
        if left:
            self.failures.append(f"{phase}: temporary files left: {left[:5]}")
        found = set()
        for root in (self.roots["A"], self.roots["B"], os.path.join(self.state, "trash")):
            if os.path.isdir(root):
                for full in Run.files(None, root).values():
                    found |= set(m.decode() for m in TOKEN.findall(Run.read(full)))
        lost = sorted(owed - found)
        if lost:
            self.failures.append(f"{phase}: {len(lost)} of {len(owed)} lines lost, e.g. {lost[:5]}")
        return len(owed)

    def phase_syncs(self):
        stop, owed, saves = threading.Event(), set(), [0]
        thread = threading.Thread(target=self.writer, args=(1, stop, owed, saves))
        thread.start()
        syncs = 0
        deadline = time.monotonic() + self.args.seconds
        try:
            while time.monotonic() < deadline:
                code, _ = self.sync()
                if code not in (0, 1):
                    self.failures.append(f"a sync during the race exited {code}")
                syncs += 1
        finally:
            stop.set()
            thread.join()
        self.settle()
        traced = self.check("folio sync", owed)
        print(f"folio sync: {syncs} syncs, {saves[0]} saves, {traced} lines traced", flush=True)
        return syncs, saves[0], traced

    def phase_watch(self):
        watch = subprocess.Popen([self.args.folio, "watch", self.roots["A"], self.roots["B"], "--state", self.state],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        stop, owed, saves = threading.Event(), set(), [0]
        thread = threading.Thread(target=self.writer, args=(2, stop, owed, saves))
        try:
            time.sleep(1)
            thread.start()
            time.sleep(self.args.seconds)
        finally:
            stop.set()
            if thread.is_alive():
                thread.join()
            time.sleep(3)  # the watcher's last sync
            os.killpg(watch.pid, signal.SIGTERM)
            try:
                watch.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(watch.pid, signal.SIGKILL)
                watch.wait()
        self.settle()
        traced = self.check("folio watch A B", owed)
        print(f"folio watch A B: {saves[0]} saves, {traced} lines traced", flush=True)
        return saves[0], traced


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/debug/folio")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20, help="how long the writer races each phase")
    parser.add_argument("--pause", type=float, default=0.004, help="longest pause between two saves")
    args = parser.parse_args()
    seed = int(os.environ.get("FOLIO_SEED") or random.randrange(1, 10**6))
    print(f"seed {seed} (FOLIO_SEED={seed} replays the writer's choices)", flush=True)
    race = Race(args, seed)
    try:
        race.setup()
        syncs, saves, traced = race.phase_syncs()
        watch_saves, watch_traced = race.phase_watch()
    except Exception as error:  # a crash of the harness is a failure too, with the folders kept
        race.failures.append(f"the harness failed: {error!r}")
        syncs = saves = traced = watch_saves = watch_traced = 0
    print(f"syncs {syncs}, saves {saves + watch_saves}, lines traced {traced + watch_traced}, "
          f"lost {'some' if race.failures else 0}")
    finish(race.failures, race.work, seed)


if __name__ == "__main__":
    main()
