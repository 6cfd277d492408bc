#!/usr/bin/env python3
"""A seeded multi-round session of offline edits, real Syncthing and `folio watch` on every device.

Real Syncthing instances (loopback only, see stlib.py) share a folder of recipes and todos, `folio watch`
runs on every device, and each round the devices are cut off, edited (2-3 devices, seeded), reconnected and
left to settle; then every online device is checked.

usage: session.py --folio PATH [--seed N] [--rounds R] [--devices 3] [--late-join | --no-late-join]
                  [--no-folio] [--keep] [--json]

Devices A, B, C (A dials B and C, B dials C, as scenarios.py pairs them). Edit kinds, each writing unique
values/tokens the checks look for:
  fields       one recipe, a different front-matter key per device (time / servings / title)
  ingredients  one recipe, a different `- Token-…` ingredient line per device
  tick         one todo: done: true on one device, priority on another, due on a third
  untick       one todo that is done: done: false on one device, due on another
  reedit       one recipe: the same key twice on one device (3 s apart), another key on another device
  offline      a device (B or C) edits while offline and stays cut off for 2-3 rounds (editing its key again
               in later rounds, seeded); merged when back
  two-away     (--rounds >= 4) the other of B and C goes offline too while the first is away (1-2 rounds, its
               own record keys): two devices offline at once, back in the same or in different rounds
  away-other   while a device is away, an online device edits the record it changed (other fields) each round
  folder-pause (some rounds, seeded; at least one) an editor's FOLDER is paused (its device stays up) while it
               edits, and unpaused 2-5 s after the others are back: its edits meet theirs late
  clash        (<= 1 a round, seeded) the same key set to different values on two devices: the file holds
               one, exactly one conflict copy the other, folio prints `conflict kept`; afterwards the copy
               is deleted on one device, as a user would
  late-join    (after round 3) device D, introduced to A only, joins and must end with the same files
After each round, on every online device, ignoring `.folio/` (Folio's own folder: compared only loosely):
the folders are byte-identical; every expected key has its value (last writer per key) and appears once;
every ingredient token is in its record exactly once; conflict copies == real clashes of the round (no two
identical ones); no `…-FOLIOSV`/`-FOLIO0N` restored copy; settled (in sync and unchanged for 4 s) within
40 s. Then the expected state is re-read from A (so a failure is counted in its own round only).

Prints `round K | DEVICE | state` lines, a `round K | all | PASS/FAIL …` line per round (and one for the late
join), a table per edit kind, the run's counts (`run | copies seen=… folded=… kept=… restored=… (justified=…)
edits only in a copy=… needless copies=…`), then exactly `N passed, M failed`; exits 1 if any failed. --no-folio runs
Syncthing alone (the baseline; expected to fail). Every process started here is stopped at the end.
"""
import argparse
import datetime
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True    # no __pycache__ left in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stlib  # noqa: E402
from stlib import wait_until  # noqa: E402
from scenarios import Folio  # noqa: E402  (folio watch DATA --state STATE, its log, its trash)

SIDE_GAP = 1.1        # s between two devices' edits: distinct mtimes (Syncthing keeps the newer as the file)
REEDIT_GAP = 3.0      # s between a device's two edits of the same key (Folio records the first as a version)
QUIET = 4.0           # s the folders must stay unchanged (and in sync) to count as settled
# Folio writes back a version Syncthing dropped 20 s after the arrival that replaced it, where the other
# devices keep a history too (SharedFolder.dropSettled): a round found wanting is judged again once its
# folders stayed unchanged this long.
RESCUE_QUIET = 21.5
SETTLE_LIMIT = 40.0   # s allowed for settling, after the devices are in sync again
NUDGE_AFTER = 8.0     # s out of sync after which every device rescans (see wait_in_sync)
SYNC_LIMIT = 40.0     # s allowed for Syncthing to be in sync (setup, recovery)
CLEANUP_LIMIT = 25.0  # s allowed for deleting the copies left after a round and settling again
FOLIO_DIR = ".folio"
CONFLICT = re.compile(r"\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}")
RESTORED = re.compile(r"\.sync-conflict-\d{8}-\d{6}-FOLIO(SV|\d\d)")
KINDS = ("fields", "ingredients", "tick", "untick", "reedit", "offline", "two-away", "away-other", "folder-pause",
         "clash", "late-join", "stable", "convergence")
FOLDER_HOLD = (2.0, 5.0)  # s a paused folder stays paused after the other devices are back (seeded)

RECIPES = {
    "tomato-soup.md": ("Tomato Soup", "15m", 4, ["soup", "quick"], ["Tomatoes", "Onion", "Olive oil"],
                       ["Chop the onion.", "Simmer everything for ten minutes."]),
    "pancakes.md": ("Pancakes", "20m", 2, ["breakfast"], ["Flour", "Milk", "Eggs"],
                    ["Whisk everything.", "Fry in a hot pan."]),
    "green-curry.md": ("Green Curry", "35m", 3, ["dinner", "spicy"], ["Curry paste", "Coconut milk", "Rice"],
                       ["Fry the paste.", "Add the milk.", "Serve with rice."]),
    "lentil-salad.md": ("Lentil Salad", "25m", 4, ["lunch"], ["Lentils", "Parsley", "Lemon"],
                        ["Cook the lentils.", "Mix with the rest."]),
}
TODOS = {
    "todos/buy-flour.md": "Buy flour",
    "todos/call-plumber.md": "Call the plumber",
    "todos/renew-passport.md": "Renew passport",
    "todos/water-plants.md": "Water the plants",
}
RECIPE_KEYS = ("time", "servings", "title")


def recipe_text(title, time_, servings, tags, ingredients, steps):
    return (f"---\ntitle: {title}\nkind: recipe\ntime: {time_}\nservings: {servings}\ntags: [{', '.join(tags)}]\n"
            f"---\n\nA family favourite.\n\n## Ingredients\n\n" + "".join(f"- {i}\n" for i in ingredients)
            + "\n## Steps\n\n" + "".join(f"{k}. {s}\n" for k, s in enumerate(steps, 1)))


def todo_text(title):
    return f"---\ntitle: {title}\ndone: false\npriority: 1\ndue: 2027-01-10\n---\n\nNotes.\n"


# ---- reading and editing a record's text ----

FM_LINE = re.compile(r"^([A-Za-z_][\w-]*):(?:\s+(.*))?$")


def split_fm(text):
    """(front matter lines, the rest), or (None, text) when there is no front matter."""
    if not text or not text.startswith("---\n"):
        return None, text or ""
    end = text.find("\n---\n", 3)
    if end < 0:
        return None, text
    return text[4:end + 1], text[end + 5:]


def unquote(v):
    v = (v or "").strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def fields(text):
    """Top-level front matter key -> list of its values (a key written twice has two)."""
    fm, _ = split_fm(text)
    out = {}
    for line in (fm or "").splitlines():
        if line[:1].isspace() or line.startswith("-"):
            continue
        m = FM_LINE.match(line)
        if m:
            out.setdefault(m.group(1), []).append(unquote(m.group(2)))
    return out


def set_field(text, key, value):
    fm, rest = split_fm(text)
    if fm is None:
        raise ValueError("no front matter")
    lines = fm.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = FM_LINE.match(line.rstrip("\n"))
        if m and m.group(1) == key and not line[:1].isspace():
            lines[i] = f"{key}: {value}\n"
            break
    else:
        lines.append(f"{key}: {value}\n")
    return "---\n" + "".join(lines) + "---\n" + rest


def add_ingredient(text, item):
    """`- item` after the last list item of `## Ingredients`."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, l in enumerate(lines) if l.rstrip("\n") == "## Ingredients")
    except StopIteration:
        raise ValueError("no ## Ingredients")
    at = start + 1
    for j in range(start + 1, len(lines)):
        if lines[j].startswith("## "):
            break
        if lines[j].startswith("- "):
            at = j + 1
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    lines.insert(at, f"- {item}\n")
    return "".join(lines)


def token_count(text, tok):
    return sum(1 for l in (text or "").splitlines() if l.rstrip() == f"- {tok}")


def token_in_ingredients(text, tok):
    section, inside = [], False
    for l in (text or "").splitlines():
        if l.startswith("## "):
            inside = l == "## Ingredients"
        elif inside:
            section.append(l.rstrip())
    return f"- {tok}" in section


# ---- observing the folders ----

def is_folio_own(rel):
    return rel == FOLIO_DIR or rel.startswith(FOLIO_DIR + "/")


def walk(node, folio_temporaries=False):
    """Relative paths of every file in the shared folder, `.folio/` included, without Syncthing's own
    (.stfolder, .stversions), its temporary files and Folio's (a file Folio is writing; only those with
    `folio_temporaries`; stlib's listdir may leave `.folio/` out)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(node.data):
        dirnames[:] = [d for d in dirnames if d not in (".stfolder", ".stversions")]
        out += [os.path.relpath(os.path.join(dirpath, f), node.data) for f in filenames
                if not stlib.TEMPORARY.match(f) and bool(stlib.FOLIO_TEMPORARY.match(f)) == folio_temporaries]
    return sorted(out)


def hashes(node, own=False):
    """rel -> sha1 of the shared folder's files, without `.folio/` (or only it, with own=True)."""
    out = {}
    for rel in walk(node):
        if is_folio_own(rel) != own:
            continue
        try:
            with open(node.path(rel), "rb") as f:
                out[rel] = hashlib.sha1(f.read()).hexdigest()
        except (FileNotFoundError, IsADirectoryError):
            out[rel] = "gone"
    return out


def copies_of(listing):
    return sorted(r for r in listing if CONFLICT.search(r))


def original_of(copy):
    return CONFLICT.sub("", copy, count=1)


def short(rel):
    base = os.path.basename(rel)
    return base[:-3] if base.endswith(".md") else base


def names_list(names, most=3):
    names = list(names)
    return ", ".join(names[:most]) + (f" +{len(names) - most} more" if len(names) > most else "")


def log_counts(text):
    return {"folded": len(re.findall(r"(?m)^folded ", text)),
            "kept": len(re.findall(r"(?m)^conflict kept ", text)),
            "restored": len(re.findall(r"(?m)^restored ", text))}


class Session:
    def __init__(self, args, binary, root):
        self.args, self.binary, self.root = args, binary, root
        self.rng = random.Random(args.seed)
        self.names = "ABCDE"[:args.devices]
        self.nodes, self.by, self.folios = [], {}, {}
        self.last_fingerprint = None    # what the folders held when the last settle ended
        self.nudges = 0                 # folders paused and resumed to retry a failed pull (wait_in_sync)
        self.edges = set()              # frozenset({a, b}): the pairs that share the folder
        self.online = set()
        self.expected = {}              # record -> {"keys": {key: [value, kind]}, "tokens": {tok: [count, kind]}}
        self.seq = 10                   # unique values: time 11m, servings 12, …
        self.tok = 0
        self.away = {}                  # device kept cut off -> its edits: ("set", rec, key, value) / ("add", rec, tok)
        self.reserved = {}              # (rec, key) an away device changed -> that device: nobody else touches them
        self.changed_while_away = {}    # away device -> the records the others changed meanwhile
        self.seen_bytes = {}            # conflict copy seen while settling -> what it was last seen holding
        self.seen_first = {}            # conflict copy seen while settling -> when (monotonic s) it was first seen
        self.deck = []
        self.ticked = False
        self.stats = {k: [0, 0] for k in KINDS}     # kind -> [rounds used, rounds failed]
        self.log_pos = {}                            # device -> chars of its folio log already counted
        self.results = []
        self.totals = {k: 0 for k in ("copies", "folded", "kept", "restored", "justified", "only-in-copy",
                                      "needless")}
        # the offline devices (device -> [first round away, round back]), the clash and folder-pause rounds, seeded
        R = args.rounds
        self.schedule = {}
        self.second = None
        if args.devices >= 3 and R >= 3:
            first = self.rng.choice(self.names[1:3])
            length = self.rng.choice((2, 3))
            start = self.rng.randint(1, R - 2)
            self.schedule[first] = [start, start + min(length, R - start)]
            if R >= 4:
                # Two devices offline at once: the other of B and C leaves while the first is away.
                second = ({"B", "C"} - {first}).pop()
                start2 = self.rng.randint(start, self.schedule[first][1] - 1)
                back2 = min(start2 + self.rng.choice((1, 2)), R)
                if back2 > start2:
                    self.schedule[second] = [start2, back2]
                    self.second = second
        clash = [k for k in range(1, R + 1) if self.rng.random() < 0.35]
        if R >= 2 and not clash:
            clash = [self.rng.randint(2, R)]
        while len(clash) > max(1, R // 2):        # a few, never every round
            clash.remove(self.rng.choice(clash))
        self.clash_rounds = set(clash)
        pause = [k for k in range(1, R + 1) if self.rng.random() < 0.3] or [self.rng.randint(1, R)]
        self.pause_rounds = set(pause)

    # ---- cluster plumbing ----

    def start(self):
        names = list(self.names)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]   # A dials B, C; B dials C
        for attempt in range(3):    # a port picked free may be taken before Syncthing binds it: new ports
            self.nodes = stlib.make_cluster(self.root, names, pairs)
            self.by = {n.name: n for n in self.nodes}
            try:
                stlib.start_cluster(self.nodes)
                break
            except (RuntimeError, TimeoutError):
                stlib.stop_cluster(self.nodes)
                if attempt == 2:
                    raise
        self.edges = {frozenset(p) for p in pairs}
        self.online = set(names)
        A = self.by["A"]
        for rec, spec in RECIPES.items():
            self.write(A, rec, recipe_text(*spec))
        for rec, title in TODOS.items():
            self.write(A, rec, todo_text(title))
        want = hashes(A)
        wait_until(lambda: all(hashes(n) == want for n in self.nodes), 60, 0.2, what="the records on every device")
        self.wait_in_sync(self.nodes, 60)
        if not self.args.no_folio:
            for n in self.nodes:
                self.start_folio(n)
            # Devices that have been running Folio for a while: each device's log (at first its sign that
            # it keeps a history) is on every other before the rounds cut any off. A device whose log has
            # not reached the others is unknown to them, and their compaction may drop the version it holds
            # (see docs/shared-folders.md).
            wait_until(lambda: all(len(self.published_logs(n)) == len(self.nodes) for n in self.nodes), 30, 0.2,
                       what="every device's log on every device")
            time.sleep(2)
        for rec in list(RECIPES) + list(TODOS):
            self.expected[rec] = {"keys": {}, "tokens": {}}
        self.rebaseline()

    def published_logs(self, node):
        logs = os.path.join(node.data, FOLIO_DIR, "logs")
        return [f for f in os.listdir(logs) if f.endswith(".log")] if os.path.isdir(logs) else []

    def start_folio(self, node):
        f = Folio(self.binary, node, self.root)
        self.folios[node.name] = f
        f.wait_watching()
        self.log_pos.setdefault(node.name, 0)

    def stop(self):
        for f in self.folios.values():
            try:
                f.stop()
            except Exception:
                pass
        stlib.stop_cluster(self.nodes)

    def online_nodes(self):
        return [n for n in self.nodes if n.name in self.online]

    def shares(self, a, b):
        return frozenset((a.name, b.name)) in self.edges

    def in_sync(self, nodes):
        """stlib.in_sync_snapshot, for a share graph that need not be complete (D shares with A only) and
        leaving out the offline device."""
        try:
            return stlib.in_sync_snapshot(nodes, self.shares)
        except Exception:
            return False

    def wait_in_sync(self, nodes, timeout, stable=2):
        """Waits until Syncthing says the devices are in sync (`stable` looks in a row). Every
        NUDGE_AFTER s out of sync, each device rescans and has its folder paused and resumed: when
        Folio writes a file while Syncthing pulls it ("file modified but not rescanned"), Syncthing
        tries again only a minute later (a scan schedules no pull; a folder resumed pulls at once;
        which device is waiting its minute the REST status does not reliably say). A user would see
        that minute, or click Pause and Resume."""
        start = time.monotonic()
        deadline = start + timeout
        ok, nudged = 0, start
        while time.monotonic() < deadline:
            ok = ok + 1 if self.in_sync(nodes) else 0
            if ok >= stable:
                return True
            if ok == 0 and time.monotonic() - nudged >= NUDGE_AFTER:
                self.nudge(nodes)
                nudged = time.monotonic()
            time.sleep(0.25)
        try:
            why = stlib.not_in_sync_because(nodes, self.shares)
        except Exception as e:
            why = repr(e)
        raise TimeoutError(f"devices not in sync within {timeout:.0f}s ({why})")

    def nudge(self, nodes):
        """Each device rescans, then has its folder paused and resumed (see wait_in_sync)."""
        for n in nodes:
            try:
                n.scan(timeout=20)
            except Exception as e:
                print(f"  (rescan of {n.name}: {e!r})", flush=True)
        for n in nodes:
            try:
                n.pause_folder(True)
                n.pause_folder(False)
                self.nudges += 1
            except Exception as e:
                print(f"  (pause and resume of {n.name}: {e!r})", flush=True)

    def connected(self, nodes):
        return all(a.connected_to(b) for a in nodes for b in nodes if a.name < b.name and self.shares(a, b))

    def resume_online(self, timeout=60):
        """Resume, pair by pair, only the online devices with each other (the offline one stays paused on
        both sides): first every listening side lets its dialer in, then the dialers dial (a dialer resumed
        before its listener is refused and retries only ~5 s later)."""
        nodes = self.online_nodes()
        pairs = []
        for d in nodes:
            for l in nodes:
                if l.name in d.dials and self.shares(d, l):
                    pairs.append((d, l))
        for d, l in pairs:
            l.resume(d)
        for d, l in pairs:
            d.resume(l)
        # Seen once in 40 runs (seed 1): a pair still apart after 30 s although the reconnection interval is
        # 1 s. So a pair still apart after `kick` s is paused and resumed on both sides again, which dials at once.
        kick, deadline = 10, time.monotonic() + timeout
        while True:
            try:
                wait_until(lambda: self.connected(nodes), min(kick, max(0.1, deadline - time.monotonic())), 0.1,
                           what="the online devices reconnected")
                return
            except TimeoutError:
                apart = [(d, l) for d, l in pairs if not d.connected_to(l)]
                if time.monotonic() >= deadline:
                    raise TimeoutError(f"timeout {timeout}s waiting for the online devices reconnected (apart: "
                                       + ", ".join(f"{d.name}->{l.name}" for d, l in apart) + ")")
                print(f"  still apart after {kick} s, resumed again: " + ", ".join(f"{d.name}->{l.name}" for d, l in apart), flush=True)
                for d, l in apart:
                    d.pause(l); l.pause(d)
                time.sleep(0.5)
                for d, l in apart:
                    l.resume(d)
                for d, l in apart:
                    d.resume(l)

    def fingerprint(self, nodes):
        return tuple((n.name, rel, h) for n in nodes for rel, h in sorted(hashes(n).items()))

    def settle(self, nodes, limit=SETTLE_LIMIT, seen=None, quiet=QUIET, after=None):
        """Wait (at most `limit` s) until Syncthing is in sync and no folder (less `.folio/`) has changed for
        `quiet` s and still in sync after a forced rescan. Returns (settled, when the folders last changed, as
        time.monotonic()); adds every conflict copy it sees to `seen`. `after`: that pair from a settle just
        before, whose quiet this one continues."""
        t0 = time.monotonic()
        last, since = (self.last_fingerprint, after) if after is not None else (None, t0)
        out_of_sync = None      # since when the folders stayed unchanged but Syncthing was not in sync
        while time.monotonic() - t0 < limit:
            fp = self.fingerprint(nodes)
            if seen is not None:
                for _, rel, h in fp:
                    if CONFLICT.search(rel):
                        seen.add(rel)
                        self.seen_first.setdefault(rel, time.monotonic())
                        if h != "gone":
                            self.seen_bytes[rel] = h
            if fp != last:
                last, since = fp, time.monotonic()
            quiet_now = time.monotonic() - since >= quiet
            if quiet_now and not self.in_sync(nodes):
                out_of_sync = out_of_sync or time.monotonic()
                if time.monotonic() - out_of_sync >= NUDGE_AFTER:
                    self.nudge(nodes)
                    out_of_sync = None
                time.sleep(0.2)
                continue
            out_of_sync = None
            if quiet_now:
                # Syncthing's watcher reports a change after up to ~6 s (removals: fsWatcherDelayS x 6): rescan
                # now, so that "in sync" covers what is on disk, then ask again.
                for n in nodes:
                    try:
                        n.scan(timeout=20)
                    except Exception:
                        pass
                time.sleep(0.5)
                if self.in_sync(nodes) and self.fingerprint(nodes) == last:
                    time.sleep(0.25)
                    if self.in_sync(nodes) and self.fingerprint(nodes) == last:
                        self.last_fingerprint = last
                        return True, since
            time.sleep(0.2)
        self.last_fingerprint = last
        return False, since

    # ---- files ----

    def write(self, node, rel, text):
        path = node.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def value(self):
        self.seq += 1
        return self.seq

    def token(self, k, dev):
        self.tok += 1
        return f"Token-{k}{dev}{self.tok}"

    def new_value(self, rec, key, dev):
        n = self.value()
        if key == "time":
            return f"{n}m"
        if key in ("servings", "priority"):
            return str(n)
        if key == "due":
            return (datetime.date(2027, 1, 10) + datetime.timedelta(days=n)).isoformat()
        if key == "title":
            base = RECIPES[rec][0] if rec in RECIPES else TODOS[rec]
            return f"{base} {dev}{n}"
        raise ValueError(key)

    # ---- planning a round ----

    def deal(self, n):
        kinds = ["fields", "ingredients", "tick", "untick", "reedit"]
        out = []
        for _ in range(30):
            if len(out) == n:
                break
            if not self.deck:
                self.deck = kinds[:]
                self.rng.shuffle(self.deck)
                if not self.ticked:            # tick early: untick needs a todo that is done
                    self.deck.remove("tick")
                    self.deck.insert(0, "tick")
            kind = self.deck.pop(0)
            if kind in out or (kind == "untick" and not self.done_todos()):
                self.deck.append(kind)
                continue
            out.append(kind)
            self.ticked |= kind == "tick"
        return out

    def done_todos(self):
        return [r for r in TODOS if r in self.expected and self.expected[r]["keys"].get("done", [None])[0] == "true"]

    def free_keys(self, rec, keys):
        return [k for k in keys if (rec, k) not in self.reserved]

    def pick(self, candidates, used):
        cands = [r for r in candidates if r not in used and r in self.expected]
        if not cands:
            return None
        pend = [r for r in cands if any(r == p[1] for ops in self.away.values() for p in ops)]
        if pend and self.rng.random() < 0.5:
            return self.rng.choice(pend)
        return self.rng.choice(cands)

    def plan(self, k, going):
        """{device: [op]} and the clashes. op: ("set", rec, key, value, kind) | ("add", rec, tok, kind) |
        ("sleep", s). `going`: the devices that go offline this round (each edits, cut off)."""
        rng = self.rng
        editors = sorted(n for n in self.online if n not in going)
        m = min(len(editors), rng.choice((2, 3)))
        editors = rng.sample(editors, m)
        ops = {d: [] for d in editors}
        used, clashes, kinds = set(), [], []
        for d in going:
            kind = "two-away" if d == self.second else "offline"
            ops[d] = []
            X = rng.choice(list(RECIPES))
            keys = self.free_keys(X, RECIPE_KEYS)
            if keys:
                key = rng.choice(keys)
                ops[d].append(("set", X, key, self.new_value(X, key, d), kind))
                self.reserved[(X, key)] = d
            ops[d].append(("add", X, self.token(k, d), kind))
            T = rng.choice(list(TODOS))
            tkeys = self.free_keys(T, ("priority", "due"))
            if tkeys:
                tkey = rng.choice(tkeys)
                ops[d].append(("set", T, tkey, self.new_value(T, tkey, d), kind))
                self.reserved[(T, tkey)] = d
            self.away[d] = []
            self.changed_while_away[d] = set()
        for d in sorted(self.away):
            if d in going:
                continue
            # Still away: now and then it edits its own key again (a later version of the same change).
            mine = sorted(rk for rk, who in self.reserved.items() if who == d and rk[0] in RECIPES)
            if mine and rng.random() < 0.5:
                X, key = rng.choice(mine)
                ops[d] = [("set", X, key, self.new_value(X, key, d), "offline")]
        # An online device edits an away device's record (other fields) while it is away.
        away_recs = sorted({rk[0] for rk in self.reserved if rk[0] in RECIPES})
        if away_recs and editors:
            X = rng.choice(away_recs)
            keys = self.free_keys(X, RECIPE_KEYS)
            d = rng.choice(editors)
            if keys:
                key = rng.choice(keys)
                ops[d].append(("set", X, key, self.new_value(X, key, d), "away-other"))
            else:
                ops[d].append(("add", X, self.token(k, d), "away-other"))
            used.add(X)
            kinds.append("away-other")
        for kind in self.deal(2 if len(editors) >= 2 else 1):
            devs = editors[:]
            rng.shuffle(devs)
            if kind in ("fields", "ingredients", "reedit"):
                rec = self.pick(RECIPES, used)
            elif kind == "tick":
                rec = self.pick([t for t in TODOS if t not in self.done_todos()], used)
            else:
                rec = self.pick(self.done_todos(), used)
            if rec is None:
                continue
            used.add(rec)
            kinds.append(kind)
            if kind == "fields":
                keys = self.free_keys(rec, RECIPE_KEYS)
                rng.shuffle(keys)
                for d, key in zip(devs, keys):
                    ops[d].append(("set", rec, key, self.new_value(rec, key, d), kind))
            elif kind == "ingredients":
                for d in devs:
                    ops[d].append(("add", rec, self.token(k, d), kind))
            elif kind == "tick":
                ops[devs[0]].append(("set", rec, "done", "true", kind))
                others = self.free_keys(rec, ("priority", "due"))
                rng.shuffle(others)
                for d, key in zip(devs[1:], others):
                    ops[d].append(("set", rec, key, self.new_value(rec, key, d), kind))
            elif kind == "untick":
                ops[devs[0]].append(("set", rec, "done", "false", kind))
                others = self.free_keys(rec, ("due",)) or self.free_keys(rec, ("priority",))
                for d, key in zip(devs[1:], others):
                    ops[d].append(("set", rec, key, self.new_value(rec, key, d), kind))
            elif kind == "reedit":
                keys = self.free_keys(rec, RECIPE_KEYS)
                k1 = "time" if "time" in keys else keys[0]
                ops[devs[0]] += [("set", rec, k1, self.new_value(rec, k1, devs[0]), kind), ("sleep", REEDIT_GAP),
                                 ("set", rec, k1, self.new_value(rec, k1, devs[0]), kind)]
                rest = [x for x in keys if x != k1]
                if rest and len(devs) > 1:
                    k2 = rng.choice(rest)
                    ops[devs[1]].append(("set", rec, k2, self.new_value(rec, k2, devs[1]), kind))
        if k in self.clash_rounds and len(editors) >= 2:
            pend = {p[1] for ops in self.away.values() for p in ops} | {r for r, _ in self.reserved}
            cands = [r for r in list(RECIPES) + list(TODOS) if r not in used and r not in pend and r in self.expected]
            if cands:
                rec = rng.choice(cands)
                key = rng.choice(("servings", "title")) if rec in RECIPES else "priority"
                d1, d2 = rng.sample(editors, 2)
                values = {d1: self.new_value(rec, key, d1), d2: self.new_value(rec, key, d2)}
                for d, v in values.items():
                    ops[d].append(("set", rec, key, v, "clash"))
                used.add(rec)
                kinds.append("clash")
                clashes.append({"record": rec, "key": key, "values": values})
        return {d: o for d, o in ops.items() if o}, clashes, kinds

    def folder_to_pause(self, turns, k):
        """An online editor of a record someone else edits too this round (seeded), or None. Never A's
        before the late join: with A's folder paused and unpaused before D is added to it, Syncthing 1.19
        never brought D in sync with A (every round after the join timed out, the folders' bytes the same),
        with or without Folio."""
        editors = {}
        for d, ops in turns:
            if d in self.away or (d == "A" and self.args.late_join and k <= 3):
                continue
            for op in ops:
                if op[0] != "sleep":
                    editors.setdefault(op[1], set()).add(d)
        shared = sorted({d for devs in editors.values() if len(devs) > 1 for d in devs})
        return self.rng.choice(shared) if shared else None

    def show_plan(self, k, turns, paused=None):
        parts = []
        for d, ops in turns:
            items = []
            for op in ops:
                if op[0] == "set":
                    items.append(f"{short(op[1])}.{op[2]}={op[3]}[{op[4]}]")
                elif op[0] == "add":
                    items.append(f"{short(op[1])}+{op[2]}[{op[3]}]")
                else:
                    items.append(f"wait{op[1]:.0f}s")
            parts.append(f"{d}: " + " ".join(items))
        away = ",".join(sorted(self.away))
        print(f"round {k} | plan | " + "; ".join(parts) + (f" | folder paused: {paused}" if paused else "")
              + (f" | away: {away}" if away else ""), flush=True)

    def apply(self, turns):
        """Each device's edits in turn, SIDE_GAP apart. Returns problems (an edit that could not be made)."""
        problems = []
        for i, (d, ops) in enumerate(turns):
            if i:
                time.sleep(SIDE_GAP)
            node = self.by[d]
            for op in ops:
                if op[0] == "sleep":
                    time.sleep(op[1])
                    continue
                rec = op[1]
                text = node.read(rec)
                try:
                    if text is None:
                        raise ValueError("missing")
                    new = set_field(text, op[2], op[3]) if op[0] == "set" else add_ingredient(text, op[2])
                except ValueError as e:
                    problems.append(("convergence", f"edit on {d} skipped: {rec} {e}"))
                    continue
                self.write(node, rec, new)
        return problems

    def expect(self, rec, op):
        e = self.expected.setdefault(rec, {"keys": {}, "tokens": {}})
        if op[0] == "set":
            e["keys"][op[2]] = [op[3], op[4]]
        else:
            e["tokens"][op[2]] = [1, op[3]]

    # ---- checking ----

    def folio_delta(self, name):
        f = self.folios.get(name)
        if f is None:
            return ""
        text = f.text()
        return text[self.log_pos.get(name, 0):]

    def check(self, nodes, clashes, settled, seen):
        """Problems as {(kind, message): set of devices}."""
        probs = {}

        def add(kind, msg, dev="*"):
            probs.setdefault((kind, msg), set()).add(dev)

        listings = {n.name: hashes(n) for n in nodes}
        self.only_in_copy, self.needless = set(), set()     # this round's (record, key or token), copy names
        for n in nodes:
            left = walk(n, folio_temporaries=True)
            if settled and left:
                # One being written now is named or gone a moment later.
                time.sleep(1)
                left = sorted(set(left) & set(walk(n, folio_temporaries=True)))
                if left:
                    add("convergence", "Folio's temporary files left: " + names_list(left), n.name)
        ref = listings[nodes[0].name]
        differ = sorted({rel for l in listings.values() for rel in set(l) | set(ref) if l.get(rel) != ref.get(rel)})
        if differ:
            add("convergence", "folders differ: " + ", ".join(
                f"{rel}(" + ",".join(f"{n}:{(listings[n].get(rel) or 'missing')[:6]}" for n in listings) + ")"
                for rel in differ[:4]) + (f" +{len(differ) - 4} more" if len(differ) > 4 else ""))
        clash_recs = {c["record"]: c for c in clashes}
        restored_now = {}
        for n in nodes:
            listing = listings[n.name]
            cps = copies_of(listing)
            texts = {c: n.read(c) or "" for c in cps}
            for rec, exp in self.expected.items():
                own = {c: t for c, t in texts.items() if original_of(c) == rec}
                text = n.read(rec)
                if text is None:
                    add("convergence", f"{rec} missing", n.name)
                    continue
                f = fields(text)
                for key, (val, kind) in exp["keys"].items():
                    vals = f.get(key, [])
                    if len(vals) != 1:
                        add(kind, f"{short(rec)} has {len(vals)} `{key}:` lines", n.name)
                    elif isinstance(val, (set, frozenset)):
                        if vals[0] not in val:
                            add(kind, f"{short(rec)}.{key}={vals[0]} (want one of {sorted(val)})", n.name)
                    elif vals[0] != val:
                        where = [short(c) for c, t in own.items() if val in fields(t).get(key, [])]
                        if where:
                            self.only_in_copy.add((rec, key))
                        add(kind, f"{short(rec)}.{key}={vals[0]} (want {val}" +
                            (f", only in copy {','.join(where)})" if where else ")"), n.name)
                for tok, (cnt, kind) in exp["tokens"].items():
                    c = token_count(text, tok)
                    if c != cnt:
                        where = [short(x) for x, t in own.items() if token_count(t, tok)]
                        if where and c == 0:
                            self.only_in_copy.add((rec, tok))
                        trash = self.folios.get(n.name)
                        in_trash = trash is not None and any(token_count(t, tok) for t in trash.trash_texts())
                        add(kind, f"{short(rec)} has {tok} x{c} (want {cnt})" +
                            (f", in copy {','.join(where)}" if where else "") +
                            (", in trash" if in_trash and not where else "") +
                            (", LOST" if c == 0 and not where and not in_trash else ""), n.name)
                    elif c == 1 and not token_in_ingredients(text, tok):
                        add(kind, f"{short(rec)}: {tok} outside ## Ingredients", n.name)
            restored = [c for c in cps if RESTORED.search(c)]
            if restored:
                restored_now[n.name] = restored
            groups = {}
            for c in cps:
                if c not in restored:
                    groups.setdefault(original_of(c), {}).setdefault(listing[c], []).append(c)
            for rec, by_hash in groups.items():
                for names in by_hash.values():
                    if len(names) > 1:
                        add("convergence", f"{len(names)} byte-identical copies of {short(rec)}", n.name)
            distinct = sum(len(h) for h in groups.values())
            for r, h in groups.items():
                names = sorted(ns[0] for ns in h.values())
                self.needless.update(names[1:] if r in clash_recs else names)
            if distinct != len(clashes):
                extra = sorted(short(c) for r, h in groups.items() if r not in clash_recs for ns in h.values() for c in ns)
                add("convergence", f"{distinct} distinct conflict copies (want {len(clashes)})"
                    + (f": {names_list(extra)}" if extra else ""), n.name)
            for rec, c in clash_recs.items():
                vals = set(c["values"].values())
                got = fields(n.read(rec) or "").get(c["key"], [None])[0]
                h = groups.get(rec, {})
                if len(h) != 1:
                    add("clash", f"clash {short(rec)}.{c['key']}: {len(h)} distinct copies (want 1)", n.name)
                elif got in vals:
                    other = (vals - {got}).pop()
                    ctext = n.read(next(iter(h.values()))[0]) or ""
                    cv = fields(ctext).get(c["key"], [None])[0]
                    if cv != other:
                        add("clash", f"clash {short(rec)}.{c['key']}: copy holds {cv} (want {other})", n.name)
        if self.folios:
            for c in clashes:
                if not any(f"conflict kept {c['record']}" in self.folio_delta(n.name) for n in nodes):
                    add("clash", f"no folio printed `conflict kept {c['record']}`")
            for name, f in self.folios.items():
                if f.proc.poll() is not None:
                    add("convergence", f"folio exited {f.proc.returncode}", name)
        restored_seen = sorted({s for s in seen if RESTORED.search(s)})
        # A restore is right where Syncthing dropped a version: fewer distinct copies of a
        # record (by what each last held: a fold that clashed again may make a copy of bytes
        # seen before, and an overwritten copy lost what it held) were seen before the first
        # restore than the versions that met this round, less one (a copy first seen after it
        # may hold a fold of the restored version that clashed again). A restore whose bytes a
        # copy of Syncthing's holds (seen at any time: one that was late) was never right.
        editors = getattr(self, "round_editors", {})
        dropped = {}
        unjustified = []
        for rec in {original_of(s) for s in restored_seen}:
            names = [s for s in restored_seen if original_of(s) == rec]
            first_restore = min(self.seen_first.get(s, 0) for s in names)
            theirs = [s for s in seen if original_of(s) == rec and not RESTORED.search(s) and s in self.seen_bytes]
            copies_seen = {self.seen_bytes[s] for s in theirs if self.seen_first.get(s, 0) <= first_restore}
            dropped[rec] = max(0, len(editors.get(rec, ())) - 1 - len(copies_seen))
            late = {self.seen_bytes[s] for s in theirs}
            twins = [s for s in names if self.seen_bytes.get(s) in late]
            rest = [s for s in names if s not in twins]
            unjustified += twins + rest[dropped[rec]:]
        self.justified_restores = len(restored_seen) - len(unjustified)
        restored_now = {d: cs for d, cs in restored_now.items() if any(c in unjustified for c in cs)}
        self.needless.update(unjustified)
        restored_seen = unjustified
        if restored_now:
            every = sorted({c for cs in restored_now.values() for c in cs})
            add("convergence", f"{len(every)} restored copies present ("
                + " ".join(f"{d}={len(cs)}" for d, cs in sorted(restored_now.items())) + "): " + names_list(every))
        elif restored_seen:
            add("convergence", f"{len(restored_seen)} restored copies seen while settling: " + names_list(restored_seen))
        if not settled:
            add("convergence", f"did not settle within {SETTLE_LIMIT:.0f}s")
        return probs

    def folio_same(self, nodes):
        own = [hashes(n, own=True) for n in nodes]
        if not any(own):
            return "none"
        return "same" if all(o == own[0] for o in own) else "differs"

    def device_line(self, node):
        if node.name not in self.online:
            start, end = self.schedule.get(node.name, (None, None))
            return (f"offline (since round {start}, back in round {end}; "
                    f"{len(self.away.get(node.name, []))} edits pending) files={len([r for r in hashes(node) if not CONFLICT.search(r)])}")
        listing = hashes(node)
        cps = copies_of(listing)
        f = self.folios.get(node.name)
        parts = [f"files={len(listing) - len(cps)}",
                 f"copies={len(cps)}" + (" [" + names_list(cps, 4) + "]" if cps else ""),
                 f"restored={len([c for c in cps if RESTORED.search(c)])}"]
        if f is None:
            parts.append("no folio")
        else:
            c = log_counts(f.text())
            parts.append(f"trash={len(f.trash())} folded={c['folded']} kept={c['kept']} restored-logged={c['restored']}")
        own = hashes(node, own=True)
        if own:
            parts.append(f".folio={len(own)} files")
        if node.temporaries():
            parts.append(f"syncthing-tmp={len(node.temporaries())}")
        return " ".join(parts)

    # ---- after a round ----

    def cleanup(self, label, limit=CLEANUP_LIMIT):
        """Delete every conflict copy on A (a clash's, as a user would; any other, left over), then, if some
        remain, on every online device; settle after each (all within `limit` s). Returns problems (only for
        what stays)."""
        problems = []
        nodes = self.online_nodes()
        deadline = time.monotonic() + limit
        for targets in ([self.by["A"]], nodes):
            removed = 0
            for n in targets:
                for c in copies_of(hashes(n)):
                    try:
                        os.remove(n.path(c))
                        removed += 1
                    except FileNotFoundError:
                        pass
            if removed:
                settled, _ = self.settle(nodes, max(QUIET + 1, deadline - time.monotonic()))
                if not settled:
                    problems.append(("convergence", f"{label}: not settled after deleting the copies"))
            if not any(copies_of(hashes(n)) for n in nodes):
                return problems
        left = {n.name: len(copies_of(hashes(n))) for n in nodes if copies_of(hashes(n))}
        problems.append(("convergence", f"{label}: copies still there after deleting them: {left}"))
        return problems

    def rebaseline(self):
        """The expected state, read from A: what later rounds are compared with."""
        A = self.by["A"]
        for rec in list(self.expected):
            text = A.read(rec)
            if text is None:
                del self.expected[rec]
                continue
            f = fields(text)
            keys = RECIPE_KEYS if rec in RECIPES else ("title", "done", "priority", "due")
            self.expected[rec]["keys"] = {k: [f[k][0], "stable"] for k in keys if k in f}
            self.expected[rec]["tokens"] = {t: [token_count(text, t), "stable"]
                                            for t in self.expected[rec]["tokens"]}
            for line in text.splitlines():
                if line.startswith("- Token-"):
                    tok = line[2:].strip()
                    self.expected[rec]["tokens"][tok] = [token_count(text, tok), "stable"]

    def mark_logs(self):
        self.seen_bytes, self.seen_first = {}, {}
        for name, f in self.folios.items():
            self.log_pos[name] = len(f.text())

    def report(self, label, probs, extra, kinds, dev_lines):
        failed_kinds = {k for k, _ in probs}
        for kind in set(kinds) | {"stable", "convergence"}:
            self.stats[kind][0] += 1
            self.stats[kind][1] += kind in failed_kinds
        for d, line in dev_lines:
            print(f"{label} | {d} | {line}", flush=True)
        problems = [f"{m} [{','.join(sorted(ds))}]" if ds != {"*"} else m for (_, m), ds in sorted(probs.items())]
        verdict = "PASS" if not problems else "FAIL"
        print(f"{label} | all | {verdict} {extra}" + ("" if not problems else " | " + "; ".join(problems)), flush=True)
        if problems:
            for name in sorted(self.folios):
                lines = [l for l in self.folio_delta(name).splitlines() if l.strip()]
                if lines:
                    print(f"  folio log {name} (this round, last {min(len(lines), 12)} of {len(lines)}):\n"
                          + "".join("    " + l + "\n" for l in lines[-12:]), end="", flush=True)
        r = {"round": label, "passed": not problems, "problems": problems, "kinds": kinds, "summary": extra,
             "devices": dict(dev_lines)}
        self.results.append(r)
        if self.args.json:
            print(json.dumps(r), flush=True)
        return not problems

    # ---- one round ----

    def run_round(self, k):
        label = f"round {k}"
        probs = {}
        kinds = []
        self.mark_logs()
        going = sorted(d for d, (start, _) in self.schedule.items() if start == k)
        back = sorted(d for d, (_, end) in self.schedule.items() if end == k and d in self.away)
        settled, settle_s, seen = False, 0.0, set()
        clashes = []
        paused = None
        try:
            ops, clashes, kinds = self.plan(k, going)
            turns = list(ops.items())
            self.rng.shuffle(turns)
            if k in self.pause_rounds:
                paused = self.folder_to_pause(turns, k)
            self.show_plan(k, turns, paused)
            if paused:
                # Its folder, not its device: Syncthing neither scans nor syncs it until it is unpaused.
                self.by[paused].pause_folder(True)
                kinds.append("folder-pause")
            stlib.pause_all(self.nodes)
            for kind, msg in self.apply(turns):
                probs.setdefault((kind, msg), set()).add("*")
            for n in self.nodes:
                if n.name != paused:
                    n.scan()
            for d, o in turns:
                for op in o:
                    if op[0] == "sleep":
                        continue
                    if d in self.away:
                        self.away[d].append(op)
                    else:
                        self.expect(op[1], op)
            # Who edited each record this round (the devices whose versions meet): with k editors
            # Syncthing makes k-1 conflict copies; fewer seen means it dropped a version, and
            # only then may Folio restore one.
            self.round_editors = {}
            for d, o in turns:
                for op in o:
                    if op[0] != "sleep" and d not in self.away:
                        self.round_editors.setdefault(op[1], set()).add(d)
            for d in back:
                for p in self.away[d]:
                    self.round_editors.setdefault(p[1], set()).add(d)
                    # What the others made of the record meanwhile is one more version meeting it, unless
                    # an editor this round made a newer one from it.
                    if p[1] in self.changed_while_away[d] and not self.round_editors[p[1]] - set(back):
                        self.round_editors[p[1]].add("others")
            for d, o in turns:
                for op in o:
                    if op[0] != "sleep" and d not in self.away:
                        for a in self.changed_while_away:
                            self.changed_while_away[a].add(op[1])
            for c in clashes:
                self.expected[c["record"]]["keys"][c["key"]] = [frozenset(c["values"].values()), "clash"]
            for d in going:
                self.online.discard(d)
            for d in back:
                self.online.add(d)
                for p in self.away.pop(d):
                    self.expect(p[1], p)
                    for a in self.changed_while_away:
                        if a != d:
                            self.changed_while_away[a].add(p[1])
                self.changed_while_away.pop(d, None)
                self.reserved = {rk: who for rk, who in self.reserved.items() if who != d}
                kinds.append("two-away" if d == self.second else "offline")
            nodes = self.online_nodes()
            self.resume_online()
            t0 = time.monotonic()       # settled: in sync and unchanged for QUIET s, within SETTLE_LIMIT s of here
            if paused:
                time.sleep(self.rng.uniform(*FOLDER_HOLD))
                self.by[paused].pause_folder(False)
            try:
                self.wait_in_sync(nodes, SETTLE_LIMIT)
            except TimeoutError as e:
                probs.setdefault(("convergence", f"after the resume: {e}"), set()).add("*")
            settled, last_change = self.settle(nodes, max(0.0, SETTLE_LIMIT - (time.monotonic() - t0)), seen)
            found = self.check(nodes, clashes, settled, seen)
            settle_s = time.monotonic() - t0
            if found and not self.args.no_folio:
                # Judged again once nothing changed for RESCUE_QUIET s (no version is still to be written
                # back), as settled when the folders last changed: that, with QUIET s unchanged after it,
                # must fall within SETTLE_LIMIT s, as for any round.
                settled, last_change = self.settle(nodes, max(0.0, SETTLE_LIMIT - (time.monotonic() - t0)) + RESCUE_QUIET + 5,
                                                   seen, quiet=RESCUE_QUIET, after=last_change)
                settle_s = last_change - t0 + QUIET
                settled = settled and settle_s <= SETTLE_LIMIT
                found = self.check(nodes, clashes, settled, seen)
            for key, devs in found.items():
                probs.setdefault(key, set()).update(devs)
            if found:
                self.keep_histories(f"round-{k}")
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            probs.setdefault(("convergence", f"error: {e!r}"), set()).add("*")
        deltas = {"folded": 0, "kept": 0, "restored": 0}
        for name in self.folios:
            for key, v in log_counts(self.folio_delta(name)).items():
                deltas[key] += v
        restored_seen = len({s for s in seen if RESTORED.search(s)})
        restored = max(restored_seen, deltas['restored'])
        self.count_round(len(seen), deltas, restored)
        extra = (f"settle={settle_s:.1f}s copies seen={len(seen)} folded={deltas['folded']} kept={deltas['kept']} "
                 f"restored={restored} only-in-copy={len(self.only_in_copy)} needless={len(self.needless)}"
                 f" .folio={self.folio_same(self.online_nodes())} kinds={','.join(kinds) or '-'}")
        dev_lines = [(n.name, self.device_line(n)) for n in self.nodes]
        ok = self.report(label, probs, extra, kinds, dev_lines)
        # Resolve the clashes (and sweep whatever else is left), so that later rounds start clean.
        try:
            for kind, msg in self.cleanup(label):
                print(f"{label} | cleanup | {msg}", flush=True)
            self.rebaseline()
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            print(f"{label} | cleanup | error: {e!r}", flush=True)
            self.recover()
        return ok

    def keep_histories(self, label):
        """Copies every device's published logs and own history log to ROOT/LABEL/NAME/ for study: later
        rounds compact them."""
        for n in self.nodes:
            dest = os.path.join(self.root, label, n.name)
            logs = os.path.join(n.data, FOLIO_DIR, "logs")
            if os.path.isdir(logs):
                shutil.copytree(logs, os.path.join(dest, "published"), dirs_exist_ok=True)
            f = self.folios.get(n.name)
            own = os.path.join(f.state, "history", "log") if f else None
            if own and os.path.exists(own):
                os.makedirs(dest, exist_ok=True)
                shutil.copy(own, os.path.join(dest, "own.log"))

    def count_round(self, seen, deltas, restored):
        """Adds a round's counts to the run's (see `run |` at the end)."""
        t = self.totals
        t["copies"] += seen
        t["folded"] += deltas["folded"]
        t["kept"] += deltas["kept"]
        t["restored"] += restored
        t["justified"] += getattr(self, "justified_restores", 0)
        t["only-in-copy"] += len(getattr(self, "only_in_copy", ()))
        t["needless"] += len(getattr(self, "needless", ()))
        self.justified_restores, self.only_in_copy, self.needless = 0, set(), set()

    def recover(self):
        """After an error: every online device resumed with the others again, best effort."""
        try:
            self.resume_online()
            self.wait_in_sync(self.online_nodes(), SYNC_LIMIT)
            self.rebaseline()
        except Exception as e:
            print(f"recover: {e!r}", file=sys.stderr)

    # ---- late join ----

    def add_device(self, name, hub):
        """A new Syncthing instance `name`, sharing the folder with `hub` only: it dials the hub, and the hub
        learns of it through its REST config API."""
        node = None
        for attempt in range(3):
            node = stlib.Node(self.root, name)
            node.write_config([hub], {hub.name})
            template = hub.get(f"/rest/config/devices/{hub.id}")
            dev = dict(template, deviceID=node.id, name=name, addresses=["dynamic"], paused=False,
                       introducer=False, autoAcceptFolders=False)
            hub.post("/rest/config/devices", dev)
            folder = hub.get(f"/rest/config/folders/{stlib.FOLDER_ID}")
            if not any(d["deviceID"] == node.id for d in folder["devices"]):
                folder["devices"].append({"deviceID": node.id, "introducedBy": "", "encryptionPassword": ""})
                hub.req("PUT", f"/rest/config/folders/{stlib.FOLDER_ID}", folder)
            self.nodes.append(node)
            self.by[name] = node
            self.edges.add(frozenset((name, hub.name)))
            try:
                node.start()
                node.wait_up(30)
                wait_until(lambda: node.connected_to(hub) and hub.connected_to(node), 30, 0.2,
                           what=f"{name} connected to {hub.name}")
                return node
            except (RuntimeError, TimeoutError):
                if attempt == 2:
                    raise
                node.stop()
                self.nodes.remove(node)
                del self.by[name]
                shutil.rmtree(os.path.join(self.root, name), ignore_errors=True)
        return node

    def late_join(self, after):
        name = "ABCDEFG"[len(self.names)]
        label = f"join {name}"
        probs, seen, settle_s = {}, set(), 0.0
        self.round_editors = {}
        self.mark_logs()
        try:
            A = self.by["A"]
            D = self.add_device(name, A)
            self.online.add(name)
            want = {r for r in hashes(A)}
            wait_until(lambda: set(hashes(D)) >= want, 60, 0.2, what=f"the records on {name}")
            nodes = self.online_nodes()
            t0 = time.monotonic()
            try:
                self.wait_in_sync(nodes, SETTLE_LIMIT)
            except TimeoutError as e:
                probs.setdefault(("late-join", f"{e}"), set()).add("*")
            if not self.args.no_folio:
                self.start_folio(D)
                time.sleep(2)
            settled, _ = self.settle(nodes, max(QUIET + 1, SETTLE_LIMIT - (time.monotonic() - t0)), seen)
            settle_s = time.monotonic() - t0
            for (kind, msg), devs in self.check(nodes, [], settled, seen).items():
                probs.setdefault(("late-join" if kind in ("convergence", "stable") else kind, msg), set()).update(devs)
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            probs.setdefault(("late-join", f"error: {e!r}"), set()).add("*")
        deltas = {"folded": 0, "kept": 0, "restored": 0}
        for name in self.folios:
            for key, v in log_counts(self.folio_delta(name)).items():
                deltas[key] += v
        restored = max(len({s for s in seen if RESTORED.search(s)}), deltas["restored"])
        self.count_round(len(seen), deltas, restored)
        extra = (f"after round {after} settle={settle_s:.1f}s copies seen={len(seen)} restored={restored} "
                 f".folio={self.folio_same(self.online_nodes())}")
        dev_lines = [(n.name, self.device_line(n)) for n in self.nodes]
        ok = self.report(label, probs, extra, ["late-join"], dev_lines)
        try:
            for kind, msg in self.cleanup(label):
                print(f"{label} | cleanup | {msg}", flush=True)
            self.rebaseline()
        except Exception as e:
            print(f"{label} | cleanup | error: {e!r}", flush=True)
        return ok


def quiet_signals():
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folio", required=True, help="the folio binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--devices", type=int, default=3, choices=(2, 3, 4))
    ap.add_argument("--late-join", action=argparse.BooleanOptionalAction, default=True,
                    help="a new device joins after round 3 (default on)")
    ap.add_argument("--no-folio", action="store_true", help="Syncthing alone: the baseline (expected to fail)")
    ap.add_argument("--keep", action="store_true", help="keep the session's folders (kept anyway on a failure)")
    ap.add_argument("--json", action="store_true", help="also print each round's result as a JSON line")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    binary = os.path.abspath(args.folio)
    if not args.no_folio and not os.access(binary, os.X_OK):
        ap.error(f"{binary} is not an executable")
    # SIGTERM (a test timeout) unwinds through the finally block, which stops every process; a second
    # signal (a runner signalling the whole process group, a second Ctrl-C) must not cut that short.
    def terminated(*_):
        quiet_signals()
        sys.exit(143)
    signal.signal(signal.SIGTERM, terminated)
    base_tmp = tempfile.mkdtemp(prefix="folio-session-")
    root = os.path.join(base_tmp, "session")
    s = Session(args, binary, root)
    passed = failed = 0
    t0 = time.monotonic()
    print(f"session seed={args.seed} rounds={args.rounds} devices={args.devices} "
          f"mode={'no-folio' if args.no_folio else 'folio'} offline="
          + (",".join(f"{d} rounds {a}-{b - 1}" for d, (a, b) in sorted(s.schedule.items())) or "-")
          + f" clash rounds={sorted(s.clash_rounds)} folder-pause rounds={sorted(s.pause_rounds)} root={root}",
          flush=True)
    try:
        try:
            s.start()
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            print(f"setup | all | FAIL | error: {e!r}", flush=True)
            failed = 1
        else:
            errors = 0
            for k in range(1, args.rounds + 1):
                ok = s.run_round(k)
                passed, failed = passed + ok, failed + (not ok)
                errors = errors + 1 if any("error:" in p for p in s.results[-1]["problems"]) else 0
                if errors >= 2:
                    print(f"round {k} | all | two rounds in a row ended in an error: stopping", flush=True)
                    failed += args.rounds - k
                    break
                if k == 3 and args.late_join:
                    ok = s.late_join(k)
                    passed, failed = passed + ok, failed + (not ok)
    finally:
        quiet_signals()
        s.stop()
    print("\nkind          rounds  ok  failed")
    for kind in KINDS:
        used, bad = s.stats[kind]
        if used:
            print(f"{kind:<13} {used:>6} {used - bad:>3} {bad:>7}")
    if not failed and not args.keep:
        shutil.rmtree(base_tmp, ignore_errors=True)
    else:
        print(f"kept in {base_tmp}")
    t = s.totals
    print(f"run | seed={args.seed} rounds={args.rounds} copies seen={t['copies']} folded={t['folded']} kept={t['kept']} "
          f"restored={t['restored']} (justified={t['justified']}) edits only in a copy={t['only-in-copy']} "
          f"needless copies={t['needless']} pulls nudged={s.nudges} time={time.monotonic() - t0:.0f}s", flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
