#!/usr/bin/env python3
"""Real crashes: `folio sync A B` killed with SIGKILL at random moments, then synced to
the end, round after round, on a tree of thousands of files edited on both sides.

Each round edits both replicas (edits, double edits, creations, deletions, deletion
against edit, renames, renames with edits, edits of the same file in different lines
and in the same line, binary and large files), every version written carrying unique
tokens. The time an uninterrupted sync of that round takes is measured on a copy of
the folders; then `folio sync` is started and killed after a random time within it,
again and again (each restart picks up what the last left), until a sync finishes on
its own. A last sync runs to the end and the round is checked:

  - the replicas hold the same files, byte for byte;
  - a further sync changes nothing;
  - no temporary file of Folio's is left in either replica;
  - every token of the last version either side wrote is found in A, B (a conflict
    copy included) or Folio's trash;
  - every file deleted on one side and synced away is listed by `folio restore`.

Prints the seed (FOLIO_SEED=N replays a run), the kills and the tokens traced per
round and in all, and exits 1 on any loss. Run from the package root:

  python3 Tests/Crash/realkill.py --folio .build/debug/folio --kills 200
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOKEN = re.compile(rb"K\d+r\d+[AB]n\d+")
TEMPORARY = re.compile(r"^\..+\.folio-\d+-\d+\.tmp$")
LINES = 10


class Run:
    def __init__(self, args, seed):
        self.args = args
        self.rng = random.Random(seed)
        self.seed = seed
        self.counter = 0
        self.work = tempfile.mkdtemp(prefix="folio-realkill-")
        self.a, self.b, self.state = (os.path.join(self.work, n) for n in ("A", "B", "state"))
        self.kills = 0
        self.finished_early = 0
        self.traced = 0
        self.failures = []

    # Tokens and file contents -------------------------------------------------------

    def token(self, round_, side):
        self.counter += 1
        return f"K{self.seed}r{round_}{side}n{self.counter}"

    def record(self, path, round_, side, kind):
        tokens = [self.token(round_, side) for _ in range(LINES)]
        text = f"---\ntitle: {tokens[0]}\nkind: {kind}\n---\n" + "".join(f"line {k}: {t}\n" for k, t in enumerate(tokens))
        return text.encode()

    @staticmethod
    def read(path):
        with open(path, "rb") as f:
            return f.read()

    @staticmethod
    def write(path, data):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = os.path.join(os.path.dirname(path), ".edit-" + os.path.basename(path))
        with open(temporary, "wb") as f:
            f.write(data)
        os.rename(temporary, path)

    def replace_line(self, root, path, line, token):
        data = self.read(os.path.join(root, path))
        lines = data.split(b"\n")
        # Body lines start after the front matter's 4 lines.
        index = 4 + line
        if index < len(lines) and lines[index].startswith(b"line "):
            lines[index] = f"line {line}: {token}".encode()
        else:
            lines.insert(len(lines) - 1, f"added: {token}".encode())
        self.write(os.path.join(root, path), b"\n".join(lines))

    # The tree ------------------------------------------------------------------------

    def files(self, root):
        out = {}
        for folder, dirs, names in os.walk(root):
            for name in names:
                full = os.path.join(folder, name)
                out[os.path.relpath(full, root)] = full
        return out

    def texts(self, root):
        return sorted(p for p in self.files(root) if p.endswith(".md") and ".sync-conflict-" not in p and not p.startswith("."))

    def setup(self):
        os.makedirs(self.b)
        for n in range(self.args.files):
            self.write(os.path.join(self.a, f"d{n % 20:02d}", f"r{n}.md"), self.record(None, 0, "A", "note"))
        for n in range(self.args.binaries):
            data = bytearray(self.rng.randbytes(32 << 10))
            data[100:100] = b"\n" + self.token(0, "A").encode() + b"\n"  # a token ends at a break, not in random digits
            self.write(os.path.join(self.a, "bin", f"b{n}.dat"), bytes(data))
        for n in range(2):
            body = "".join(f"bulk line {k} {'x' * 60}\n" for k in range(25_000))
            self.write(os.path.join(self.a, "large", f"l{n}.md"), f"---\ntitle: Large {n}\n---\nline 0: {self.token(0, 'A')}\n{body}".encode())
        code, _ = self.sync()
        assert code == 0, f"the first sync exited {code}"

    # Edits ---------------------------------------------------------------------------

    def edit_round(self, round_):
        """Edits both replicas; returns the tokens the last versions hold and the paths
        deleted (on one side, untouched on the other)."""
        expected = set()
        deleted = []
        paths = self.texts(self.a)
        self.rng.shuffle(paths)
        plain = [p for p in paths if p.startswith("d")]
        take = lambda n: [plain.pop() for _ in range(min(n, len(plain)))]
        roots = {"A": self.a, "B": self.b}

        def edit(side, path, line):
            token = self.token(round_, side)
            self.replace_line(roots[side], path, line, token)
            return token

        def tokens_of(side, path):
            return set(m.decode() for m in TOKEN.findall(self.read(os.path.join(roots[side], path))))

        n = self.args.edits
        for side in "AB":
            for path in take(n):                               # an edit
                edit(side, path, self.rng.randrange(LINES))
                expected |= tokens_of(side, path)
            for path in take(n // 4):                          # two edits before the sync
                edit(side, path, 1)
                edit(side, path, 6)
                expected |= tokens_of(side, path)
            for _ in range(n // 2):                            # a new file
                path = f"new{round_}/{side}{self.counter}.md"
                self.write(os.path.join(roots[side], path), self.record(None, round_, side, "todo"))
                expected |= tokens_of(side, path)
            for path in take(n // 4):                          # a deletion
                os.unlink(os.path.join(roots[side], path))
                deleted.append(path)
            for path in take(n // 4):                          # a rename
                target = f"moved{round_}/{side}-{os.path.basename(path)}"
                os.makedirs(os.path.join(roots[side], os.path.dirname(target)), exist_ok=True)
                os.rename(os.path.join(roots[side], path), os.path.join(roots[side], target))
                expected |= tokens_of(side, target)
            for path in take(n // 4):                          # a rename and an edit
                target = os.path.join(os.path.dirname(path), f"renamed-{round_}-{os.path.basename(path)}")
                os.rename(os.path.join(roots[side], path), os.path.join(roots[side], target))
                edit(side, target, self.rng.randrange(LINES))
                expected |= tokens_of(side, target)
        for path in take(n // 4):                              # deleted in one, edited in the other
            side = self.rng.choice("AB")
            other = "B" if side == "A" else "A"
            os.unlink(os.path.join(roots[side], path))
            edit(other, path, 3)
            expected |= tokens_of(other, path)
        for path in take(n // 2):                              # both, different lines: merged
            new = {edit("A", path, 2), edit("B", path, 7)}
            # What each replaced is gone from the merge; the rest of both, and both new lines, stay.
            expected |= (tokens_of("A", path) & tokens_of("B", path)) | new
        for path in take(n // 4):                              # both, the same line
            edit("A", path, 4)
            edit("B", path, 4)
            expected |= tokens_of("A", path) | tokens_of("B", path)
        for n_ in range(self.args.binaries):                   # binary files: one side, or both
            path = f"bin/b{n_}.dat"
            sides = self.rng.choice(["A", "B", "AB"])
            for side in sides:
                data = bytearray(self.read(os.path.join(roots[side], path)))
                token = self.token(round_, side).encode()
                data[200:200] = b"\n" + token + b"\n"
                self.write(os.path.join(roots[side], path), bytes(data))
                expected.add(token.decode())
        side = self.rng.choice("AB")                           # a large file
        path = f"large/l{self.rng.randrange(2)}.md"
        expected.add(edit(side, path, 0))
        return expected, deleted

    # Syncs ---------------------------------------------------------------------------

    def command(self, a=None, b=None, state=None, extra=()):
        return [self.args.folio, "sync", a or self.a, b or self.b, "--state", state or self.state, *extra]

    def sync(self, extra=()):
        done = subprocess.run(self.command(extra=extra), capture_output=True, timeout=300)
        return done.returncode, done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")

    def calibrate(self):
        """How long an uninterrupted sync of this round takes, on a copy: the replicas
        as hard links (the same inodes, so the same stamps, and Folio only ever
        replaces a file by renaming, never writes one in place), the state folder
        copied but for its trash. The copy's roots are other folders: --allow-mass-delete lets the sync
        past the check that refuses a replica that is no longer the same folder."""
        copy = os.path.join(self.work, "calibration")
        shutil.rmtree(copy, ignore_errors=True)
        os.makedirs(copy)
        for name in ("A", "B"):
            subprocess.run(["cp", "-al", os.path.join(self.work, name), os.path.join(copy, name)], check=True)
        # The trash (which grows round after round) plays no part in what a sync does.
        shutil.copytree(self.state, os.path.join(copy, "state"), symlinks=True, ignore=lambda folder, names:
                        ["trash"] if os.path.samefile(folder, self.state) else [])
        start = time.monotonic()
        done = subprocess.run(self.command(*(os.path.join(copy, n) for n in ("A", "B", "state")), extra=("--allow-mass-delete",)),
                              capture_output=True, timeout=300)
        took = time.monotonic() - start
        if done.returncode not in (0, 1):
            self.failures.append(f"the calibration sync exited {done.returncode}: {done.stderr.decode(errors='replace')[-300:]}")
        shutil.rmtree(copy, ignore_errors=True)
        return took

    def kill_until_done(self, duration, budget):
        """Starts the sync and kills it at a random moment within `duration`, until a
        sync finishes before its kill or `budget` kills were made."""
        kills = 0
        while kills < budget:
            process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            delay = self.rng.uniform(0, duration)
            try:
                process.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
                process.wait()
                kills += 1
                continue
            if process.returncode not in (0, 1):
                self.failures.append(f"an unkilled sync exited {process.returncode}")
            self.finished_early += 1
            break
        return kills

    # Checks --------------------------------------------------------------------------

    def check(self, round_, expected, deleted):
        files_a, files_b = self.files(self.a), self.files(self.b)
        problems = []
        if sorted(files_a) != sorted(files_b):
            problems.append(f"the replicas hold different files: only in A {sorted(set(files_a) - set(files_b))[:5]}, "
                            f"only in B {sorted(set(files_b) - set(files_a))[:5]}")
        for path in sorted(set(files_a) & set(files_b)):
            if self.read(files_a[path]) != self.read(files_b[path]):
                problems.append(f"{path} differs between A and B")
        left = [p for p in list(files_a) + list(files_b) if TEMPORARY.match(os.path.basename(p))]
        if left:
            problems.append(f"temporary files left: {left[:5]}")
        found = set()
        for root in (self.a, self.b, os.path.join(self.state, "trash")):
            for full in self.files(root).values() if os.path.isdir(root) else []:
                found |= set(m.decode() for m in TOKEN.findall(self.read(full)))
        lost = sorted(expected - found)
        if lost:
            problems.append(f"{len(lost)} of {len(expected)} tokens lost, e.g. {lost[:5]}")
        self.traced += len(expected)
        code, output = self.sync(extra=("--json",))
        if any(f'"{key}": [\n' in output for key in ("copied", "deleted", "merged", "moved", "folded")):
            problems.append(f"a further sync changed something (exit {code}): {output[:400]}")
        listing = subprocess.run([self.args.folio, "restore", self.a, self.b, "--state", self.state],
                                 capture_output=True, timeout=60).stdout.decode(errors="replace")
        for path in deleted:
            if path not in listing:
                problems.append(f"{path}, deleted, is not listed by folio restore")
        for problem in problems:
            self.failures.append(f"round {round_}: {problem}")

    def run(self):
        self.setup()
        round_ = 0
        while self.kills < self.args.kills and round_ < self.args.max_rounds:
            round_ += 1
            times = [time.monotonic()]
            expected, deleted = self.edit_round(round_)
            times.append(time.monotonic())
            duration = self.calibrate()
            times.append(time.monotonic())
            # At most a few dozen kills a round: a sync killed again and again before it
            # commits redoes its reading each time, and the kills are to be spread over
            # many different rounds of edits.
            kills = self.kill_until_done(duration, min(self.args.kills - self.kills, self.args.kills_per_round))
            self.kills += kills
            times.append(time.monotonic())
            code, output = self.sync()
            if code not in (0, 1):
                self.failures.append(f"round {round_}: the last sync exited {code}: {output[-400:]}")
            times.append(time.monotonic())
            self.check(round_, expected, deleted)
            times.append(time.monotonic())
            phases = "/".join(f"{b - a:.1f}" for a, b in zip(times, times[1:]))
            print(f"round {round_}: sync {duration:.2f} s, {kills} kills, {len(expected)} tokens traced, "
                  f"{len(deleted)} deletions, last sync exit {code} (edit/calibrate/kills/sync/check {phases} s)", flush=True)
            if self.failures:
                break
        return round_


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folio", default=".build/debug/folio")
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--binaries", type=int, default=4)
    parser.add_argument("--edits", type=int, default=40, help="plain edits per side and round (other kinds scale with it)")
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--kills-per-round", type=int, default=25)
    parser.add_argument("--max-rounds", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the folders (always kept on a failure)")
    args = parser.parse_args()
    seed = int(os.environ.get("FOLIO_SEED") or random.randrange(1, 10**6))
    print(f"seed {seed} (FOLIO_SEED={seed} replays)", flush=True)
    run = Run(args, seed)
    started = time.monotonic()
    try:
        rounds = run.run()
    except Exception as error:  # a crash of the harness is a failure too, with the folders kept
        run.failures.append(f"the harness failed: {error!r}")
        rounds = -1
    print(f"kills {run.kills} in {rounds} rounds ({run.finished_early} syncs finished before their kill), "
          f"tokens traced {run.traced}, lost {'some' if run.failures else 0}, {time.monotonic() - started:.0f} s")
    finish(run.failures, run.work, seed, keep=args.keep)


def finish(failures, work, seed, keep=False):
    """Prints the failures and exits 1 with the folders kept, or removes them."""
    if failures:
        for failure in failures[:20]:
            print("FAIL " + failure)
        print(f"folders kept in {work}; seed {seed}")
        sys.exit(1)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
