#!/usr/bin/env python3
"""End-to-end scenarios: real Syncthing instances (loopback only) share a folder holding one recipe; the
devices are cut off from each other, the recipe is edited on several of them, they are reconnected, Syncthing
leaves a conflict copy, and `folio watch` (on device A only, or on every device) is expected to fold it.

usage: scenarios.py --folio PATH [--scenario NAME] [--json] [--keep]

Prints one line per scenario, mode and device, `scenario/mode | device | end state`, then exactly
`N passed, M failed`; exits 1 if any failed. Syncthing resolves a conflict by modification time (the newer
edit wins, the older becomes NAME.sync-conflict-…), so the sides edit ~1.1 s apart and the later one is
expected to win. Every process started here is stopped at the end (process groups, SIGTERM then SIGKILL).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stlib  # noqa: E402
from stlib import wait_until, wait_in_sync, is_in_sync  # noqa: E402

RECIPE = """---
title: Tomato Soup
kind: recipe
time: 15m
servings: 4
---

A quick soup.

## Ingredients

- Tomatoes
- Onion
- Olive oil

## Steps

1. Chop the onion.
2. Simmer everything for ten minutes.
"""
FILE = "r.md"
CONFLICT = re.compile(r"\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}")
SIDE_GAP = 1.1       # s between two devices' edits: distinct mtimes, so Syncthing's winner is deterministic
SETTLE_LIMIT = 40    # s allowed, after the devices are in sync again, for Folio to settle
QUIET = 4.0          # s the folders must stay unchanged (and in sync) to count as settled (Folio waits 2 s)
# With a history on every device Folio writes back a version Syncthing dropped 20 s after the arrival that
# replaced it (SharedFolder.dropSettled: a copy another device made is on its way until then), so a run
# whose end state is not reached yet stays unsettled that long.
QUIET_ALL = 21.5


def field(text, key, value):
    """`text` with front-matter field `key` set to `value`."""
    new, n = re.subn(rf"(?m)^{key}: .*$", f"{key}: {value}", text, count=1)
    assert n == 1, key
    return new


def add_ingredient(text, item):
    return text.replace("- Olive oil\n", f"- Olive oil\n- {item}\n", 1)


def fm(text, key):
    m = re.search(rf"(?m)^{key}: (.*)$", text or "")
    return m.group(1) if m else None


# ---- Folio processes ----

class Folio:
    """`folio watch DATA --state STATE` for one device, its output in ROOT/NAME/folio.log."""

    def __init__(self, binary, node, root):
        self.node = node
        self.state = os.path.join(root, node.name, "folio-state")
        self.log = os.path.join(root, node.name, "folio.log")
        os.makedirs(self.state, exist_ok=True)
        self.logf = open(self.log, "wb")
        self.proc = subprocess.Popen([binary, "watch", node.data, "--state", self.state],
                                     stdout=self.logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        self.status = None

    def text(self):
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_watching(self, timeout=15):
        wait_until(lambda: "watching" in self.text() or self.proc.poll() is not None, timeout,
                   what=f"folio on {self.node.name} to start")
        if self.proc.poll() is not None:
            raise RuntimeError(f"folio on {self.node.name} exited {self.proc.returncode}: {self.text()}")

    def stop(self):
        if self.status is None:
            self.status = stlib.stop_process_group(self.proc, signal.SIGTERM, timeout=10)
            self.logf.close()
        return self.status

    def trash(self):
        """Relative paths of everything in Folio's trash."""
        base = os.path.join(self.state, "trash")
        return sorted(os.path.relpath(p, base) for p in glob.glob(os.path.join(base, "**"), recursive=True)
                      if os.path.isfile(p))

    def trash_texts(self):
        base = os.path.join(self.state, "trash")
        out = []
        for rel in self.trash():
            with open(os.path.join(base, rel), encoding="utf-8", errors="replace") as f:
                out.append(f.read())
        return out


# ---- observing the cluster ----

def copies(node):
    return [f for f in node.listdir() if CONFLICT.search(f)]


def fingerprint(nodes):
    """What every device's folder holds, as one comparable value."""
    out = []
    for n in nodes:
        for rel in n.listdir():
            try:
                with open(n.path(rel), "rb") as f:
                    out.append((n.name, rel, hashlib.sha1(f.read()).hexdigest()))
            except FileNotFoundError:
                out.append((n.name, rel, "gone"))
    return tuple(out)


def alike(fp):
    """Whether every device's folder holds the same files with the same bytes, by a fingerprint."""
    per_node = {}
    for node, rel, digest in fp:
        per_node.setdefault(node, set()).add((rel, digest))
    return len({frozenset(v) for v in per_node.values()}) <= 1


def settle(nodes, done, quiet_for=QUIET, limit=SETTLE_LIMIT):
    """Wait (at most `limit` s) until Syncthing is in sync and no folder has changed for `quiet_for` s, or for 1 s
    once `done()` already holds and every folder holds the same bytes (Syncthing's in-sync word lags a write
    it has not scanned yet: a fold's result can still be on its way when the copy's removal has arrived).
    Returns the seconds waited and whether it settled."""
    t0 = time.monotonic()
    last, since = None, time.monotonic()
    while time.monotonic() - t0 < limit:
        fp = fingerprint(nodes)
        if fp != last:
            last, since = fp, time.monotonic()
        quiet = time.monotonic() - since
        if (quiet >= quiet_for or (quiet >= 1.0 and done() and alike(fp))) and is_in_sync(nodes):
            time.sleep(0.25)
            if is_in_sync(nodes) and fingerprint(nodes) == last:
                return time.monotonic() - t0, True
        time.sleep(0.2)
    return time.monotonic() - t0, False


# ---- scenarios: each returns (edits, tokens, expect) ----
# edits: run while the devices are cut off; tokens: strings some edit wrote (the "nothing lost" check);
# expect(ctx) -> list of problems (empty = pass).

def write(node, text):
    with open(node.path(FILE), "w") as f:
        f.write(text)


def common_checks(ctx, want_copies):
    """Same r.md on every device; `want_copies` conflict copies on each (0 or 1); Folio exited cleanly."""
    problems = []
    texts = {n.name: n.read(FILE) for n in ctx.nodes}
    if len(set(texts.values())) != 1:
        problems.append("r.md differs between devices")
    if any(t is None for t in texts.values()):
        problems.append("r.md missing on " + ",".join(k for k, t in texts.items() if t is None))
    for n in ctx.nodes:
        c = copies(n)
        if len(c) != want_copies:
            problems.append(f"{n.name} has {len(c)} conflict copies (want {want_copies})")
    if len({tuple(n.listdir()) for n in ctx.nodes}) != 1:
        problems.append("file listings differ between devices")
    return problems


def folded_trash(ctx):
    """Problems unless some Folio device put a copy in its trash."""
    if not any(f.trash() for f in ctx.folios.values()):
        return ["no conflict copy in any Folio trash"]
    return []


def s_different_fields():
    def edits(ctx):
        A, B = ctx.by["A"], ctx.by["B"]
        write(A, field(RECIPE, "time", "20m"))
        time.sleep(SIDE_GAP)
        write(B, field(RECIPE, "servings", "6"))
        ctx.newer = "B"

    def expect(ctx):
        p = common_checks(ctx, 0)
        for n in ctx.nodes:
            t = n.read(FILE)
            if fm(t, "time") != "20m" or fm(t, "servings") != "6":
                p.append(f"{n.name} r.md time={fm(t, 'time')} servings={fm(t, 'servings')}")
        return p + folded_trash(ctx)
    return edits, ["time: 20m", "servings: 6"], expect, lambda ctx: not any(copies(n) for n in ctx.nodes)


def s_same_field():
    a_text, b_text = field(RECIPE, "time", "20m"), field(RECIPE, "time", "25m")

    def edits(ctx):
        write(ctx.by["A"], a_text)
        time.sleep(SIDE_GAP)
        write(ctx.by["B"], b_text)
        ctx.newer = "B"

    def expect(ctx):
        p = common_checks(ctx, 1)
        for n in ctx.nodes:
            c = copies(n)
            if n.read(FILE) != b_text:
                p.append(f"{n.name} r.md is not B's (newer) edit: time={fm(n.read(FILE), 'time')}")
            if c and n.read(c[0]) != a_text:
                p.append(f"{n.name} copy is not A's edit: time={fm(n.read(c[0]), 'time')}")
        for name, f in ctx.folios.items():
            if "conflict kept" not in f.text():
                p.append(f"folio on {name} did not report `conflict kept`")
        return p
    return edits, ["time: 20m", "time: 25m"], expect, lambda ctx: False


def s_both_add_ingredient():
    def edits(ctx):
        write(ctx.by["A"], add_ingredient(RECIPE, "Salt"))
        time.sleep(SIDE_GAP)
        write(ctx.by["B"], add_ingredient(RECIPE, "Pepper"))
        ctx.newer = "B"

    def expect(ctx):
        p = common_checks(ctx, 0)
        for n in ctx.nodes:
            t = n.read(FILE) or ""
            if "- Salt\n" not in t or "- Pepper\n" not in t:
                p.append(f"{n.name} r.md lacks " + " and ".join(x for x in ("Salt", "Pepper") if f"- {x}\n" not in t))
        return p + folded_trash(ctx)
    return edits, ["- Salt", "- Pepper"], expect, lambda ctx: not any(copies(n) for n in ctx.nodes)


def s_delete_vs_edit():
    b_text = field(RECIPE, "servings", "8")

    def edits(ctx):
        os.remove(ctx.by["A"].path(FILE))
        time.sleep(SIDE_GAP)
        write(ctx.by["B"], b_text)
        ctx.newer = "B (edit)"

    def expect(ctx):
        p = common_checks(ctx, 0)
        for n in ctx.nodes:
            if n.read(FILE) != b_text:
                p.append(f"{n.name} r.md is not B's edit ({'missing' if n.read(FILE) is None else 'differs'})")
        return p
    return edits, ["servings: 8"], expect, lambda ctx: all(n.read(FILE) == b_text for n in ctx.nodes)


def s_three_devices():
    changes = {"A": ("time", "20m"), "B": ("servings", "6"), "C": ("title", "Tomato Soup Deluxe")}

    def edits(ctx):
        for i, name in enumerate("ABC"):
            if i:
                time.sleep(SIDE_GAP)
            write(ctx.by[name], field(RECIPE, *changes[name]))
        ctx.newer = "C"

    def expect(ctx):
        p = common_checks(ctx, 0)
        for n in ctx.nodes:
            t = n.read(FILE)
            missing = [f"{k}: {v}" for k, v in changes.values() if fm(t, k) != v]
            if missing:
                p.append(f"{n.name} r.md lacks {', '.join(missing)}")
        return p + folded_trash(ctx)
    return (edits, [f"{k}: {v}" for k, v in changes.values()], expect,
            lambda ctx: not any(copies(n) for n in ctx.nodes))


def s_offline_while():
    def edits(ctx):
        A, B = ctx.by["A"], ctx.by["B"]
        a1 = field(RECIPE, "time", "20m")
        write(A, a1)
        time.sleep(3)                      # Folio on A records a1 as a version of its own
        write(A, field(a1, "title", "Tomato Soup Deluxe"))
        time.sleep(SIDE_GAP)
        write(B, field(RECIPE, "servings", "6"))
        time.sleep(2)                      # B stays offline a little longer
        ctx.newer = "B"

    def expect(ctx):
        p = common_checks(ctx, 0)
        for n in ctx.nodes:
            t = n.read(FILE)
            got = {"time": fm(t, "time"), "title": fm(t, "title"), "servings": fm(t, "servings")}
            if got != {"time": "20m", "title": "Tomato Soup Deluxe", "servings": "6"}:
                p.append(f"{n.name} r.md has " + " ".join(f"{k}={v}" for k, v in got.items()))
        return p + folded_trash(ctx)
    return (edits, ["time: 20m", "title: Tomato Soup Deluxe", "servings: 6"], expect,
            lambda ctx: not any(copies(n) for n in ctx.nodes))


SCENARIOS = {
    "different-fields": (["A", "B"], s_different_fields),
    "same-field": (["A", "B"], s_same_field),
    "both-add-ingredient": (["A", "B"], s_both_add_ingredient),
    "delete-vs-edit": (["A", "B"], s_delete_vs_edit),
    "three-devices": (["A", "B", "C"], s_three_devices),
    "offline-while": (["A", "B"], s_offline_while),
}
MODES = ("folio-one", "folio-all")   # plus "no-folio" on request: Syncthing alone, a baseline (expected to fail)


class Ctx:
    pass


def describe(node, folio):
    """One device's end state, for the result line."""
    t = node.read(FILE)
    parts = ["r.md " + ("missing" if t is None else
                        f"time={fm(t, 'time')} servings={fm(t, 'servings')} title={fm(t, 'title')!r}"
                        + "".join(f" +{x}" for x in ("Salt", "Pepper") if f"- {x}\n" in t))]
    c = copies(node)
    parts.append(f"copies={len(c)}" + (" [" + ", ".join(f"time={fm(node.read(x), 'time')}" for x in c) + "]"
                                       if c else ""))
    others = [f for f in node.listdir() if f != FILE and f not in c]
    if others:
        parts.append("other=" + ",".join(others))
    if node.temporaries():
        parts.append(f"syncthing-tmp={len(node.temporaries())}")
    if folio is None:
        parts.append("no folio")
    else:
        log = folio.text()
        parts.append(f"trash={len(folio.trash())} folded={log.count('folded ')} kept={log.count('conflict kept')}"
                     f" exit={folio.status}")
    return "; ".join(parts)


def run_one(binary, name, mode, base_tmp, keep):
    names, make = SCENARIOS[name]
    edits, tokens, expect, done = make()
    root = os.path.join(base_tmp, f"{name}-{mode}")
    ctx = Ctx()
    ctx.nodes, ctx.folios, ctx.newer = [], {}, "?"
    problems, t0 = [], time.monotonic()
    timings = {}
    try:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]   # A dials B, C; B dials C
        # A port picked free can be taken by someone else before Syncthing binds it:
        # then the cluster is made again on new ports (at most three tries).
        for attempt in range(3):
            ctx.nodes = stlib.make_cluster(root, names, pairs)
            ctx.by = {n.name: n for n in ctx.nodes}
            try:
                stlib.start_cluster(ctx.nodes)
                break
            except RuntimeError:
                for n in ctx.nodes:
                    n.stop()
                if attempt == 2:
                    raise
        A = ctx.by["A"]
        write(A, RECIPE)
        wait_until(lambda: all(n.read(FILE) == RECIPE for n in ctx.nodes), 30, what="r.md on every device")
        wait_in_sync(ctx.nodes, 30)
        for n in {"folio-all": ctx.nodes, "folio-one": [A], "no-folio": []}[mode]:
            ctx.folios[n.name] = Folio(binary, n, root)
        for f in ctx.folios.values():
            f.wait_watching()
        time.sleep(1)                           # let Folio record the initial version
        stlib.pause_all(ctx.nodes)
        edits(ctx)
        for n in ctx.nodes:
            n.scan()                            # Syncthing has indexed every edit before reconnecting
        t1 = time.monotonic()
        stlib.resume_all(ctx.nodes)
        wait_in_sync(ctx.nodes, 60)
        timings["resume->in sync"] = time.monotonic() - t1
        # Done: the scenario's end state, with every edit's token in r.md on every device.
        whole = lambda: done(ctx) and all(t in (n.read(FILE) or "") for n in ctx.nodes for t in tokens)
        waited, settled = settle(ctx.nodes, whole, QUIET_ALL if mode == "folio-all" else QUIET)
        timings["settle"] = waited
        if not settled:
            problems.append(f"did not settle within {SETTLE_LIMIT}s (still changing or out of sync)")
        problems += expect(ctx)
    except Exception as e:
        problems.append(f"error: {e!r}")
        traceback.print_exc(file=sys.stderr)
    finally:
        for f in ctx.folios.values():
            f.stop()
        stlib.stop_cluster(ctx.nodes)
    for name_, f in ctx.folios.items():
        if f.status not in (0, None):
            problems.append(f"folio on {name_} exited {f.status}")
    # Nothing lost: every token some edit wrote is in a file on a device or in a Folio trash.
    corpus = [n.read(rel) or "" for n in ctx.nodes for rel in n.listdir()]
    corpus += [t for f in ctx.folios.values() for t in f.trash_texts()]
    lost = [t for t in tokens if not any(t in c for c in corpus)]
    if lost:
        problems.append("LOST: " + ", ".join(lost))
    result = {
        "scenario": name, "mode": mode, "newer": ctx.newer, "passed": not problems, "problems": problems,
        "seconds": round(time.monotonic() - t0, 1), "timings": {k: round(v, 1) for k, v in timings.items()},
        "devices": {n.name: describe(n, ctx.folios.get(n.name)) for n in ctx.nodes},
        "logs": {k: f.text()[-3000:] for k, f in ctx.folios.items()}, "root": root,
    }
    if not keep and not problems:
        shutil.rmtree(root, ignore_errors=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folio", required=True, help="the folio binary")
    ap.add_argument("--scenario", default="all", help="one of: all, " + ", ".join(SCENARIOS))
    ap.add_argument("--mode", default="all", help="all (folio-one and folio-all), folio-one, folio-all or no-folio")
    ap.add_argument("--json", action="store_true", help="also print each result as a JSON line")
    ap.add_argument("--keep", action="store_true", help="keep every scenario's folder (failed ones are kept)")
    args = ap.parse_args()
    if args.scenario != "all" and args.scenario not in SCENARIOS:
        ap.error(f"unknown scenario {args.scenario}")
    binary = os.path.abspath(args.folio)
    # SIGTERM (a test timeout) unwinds through the finally blocks, which stop every process.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    base_tmp = tempfile.mkdtemp(prefix="folio-syncthing-")
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    modes = MODES if args.mode == "all" else (args.mode,)
    passed = failed = 0
    t0 = time.monotonic()
    for name in names:
        for mode in modes:
            r = run_one(binary, name, mode, base_tmp, args.keep)
            verdict = "PASS" if r["passed"] else "FAIL"
            for dev, state in r["devices"].items():
                print(f"{name}/{mode} | {dev} | {state}", flush=True)
            print(f"{name}/{mode} | all | {verdict} newer={r['newer']} {r['seconds']}s {r['timings']}"
                  + ("" if r["passed"] else " | " + "; ".join(r["problems"]) + f" | kept in {r['root']}"),
                  flush=True)
            if not r["passed"]:
                for dev, log in r["logs"].items():
                    print(f"  folio log {dev}:\n" + "".join("    " + l + "\n" for l in log.splitlines()[-20:]),
                          end="", flush=True)
            if args.json:
                print(json.dumps(r), flush=True)
            passed, failed = passed + r["passed"], failed + (not r["passed"])
    if not failed and not args.keep:
        shutil.rmtree(base_tmp, ignore_errors=True)
    print(f"total {time.monotonic() - t0:.0f}s", file=sys.stderr)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
