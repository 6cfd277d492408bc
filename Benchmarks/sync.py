#!/usr/bin/env python3
"""Sync benchmark: `folio sync` against rsync, Unison and rclone bisync on the same generated trees, in one run.

For each N (the generator of Benchmarks/check.py): the limits first (`cp -a` of the
tree; a stat pass with `find -printf` over both trees; the floor of a no-change
resync, Benchmarks/lookfloor.c built with gcc: both trees listed and every entry
lstat-ed, one thread per tree, nothing else; and the floor of a crash-safe
first sync, Benchmarks/copyfloor.c built with gcc: each file written to a temporary
file, lstat-ed, renamed without replacing, lstat-ed, one sync() at the end, and
nothing else), then, for each tool on its own fresh copy:

  1. first sync of N files into an empty replica;
  2. a no-change resync;
  3. a resync after 1% of the files are edited on each side (disjoint);
  4. a resync after 50 recipes are edited on both sides (a different line each:
     the title on one, a step on the other) — and what each tool did with them.

Unison runs as `unison A B -batch -auto` with HOME pointed at a scratch folder;
rsync as `rsync -a A/ B/` (one way: it syncs nothing back, and an edit on both sides
loses B's); rclone as `rclone bisync A B` (`--resync` the first time). Each measure is
taken --repeat times (default 3), the limits and the tools in alternation, every run
on fresh folders, nothing deleted until the end (file creation on these disks slows
down for minutes after a mass deletion); medians are printed, with Folio's time over
each peer's.

Run by hand from the package root (needs Debian's unison, rsync and rclone):

  swift build -c release --product folio && python3 Benchmarks/sync.py --files 10000 --files 100000

`--peers rsync` leaves Unison and rclone out (rclone bisync alone takes minutes a run at
100,000 files), so that a large size can be measured several times against rsync.
"""
import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (the generator)


def timed(argv, env=None):
    # Whatever an earlier step left unwritten (the `cp -a` that made this run's source,
    # the tool run before) is written out first, untimed: a tool that flushes its own
    # writes (Folio, the floor) would otherwise also wait for those, and be charged for
    # another program's writes. Each tool is timed for its own work only.
    os.sync()
    started = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - started, result.returncode, result.stderr.decode(errors="replace")


def markdown_files(root):
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, name) for name in names if name.endswith(".md")]
    return sorted(found)


def edit_line(path, match, replace):
    with open(path) as handle:
        lines = handle.read().split("\n")
    for index, line in enumerate(lines):
        if match(line):
            lines[index] = replace(line)
            break
    with open(path, "w") as handle:
        handle.write("\n".join(lines))


def run_tool(tool, argv_for, tree, work, env, rep):
    a, b = os.path.join(work, f"{tool}-a{rep}"), os.path.join(work, f"{tool}-b{rep}")
    subprocess.run(["cp", "-a", tree, a], check=True)
    os.makedirs(b)
    results = {}
    results["first sync"], status, err = timed(argv_for(a, b), env)
    if status not in (0,):
        print(f"    {tool} first sync exited {status}: {err.strip()[:300]}")
    results["no-change resync"], _, _ = timed(argv_for(a, b), env)
    files_a, files_b = markdown_files(a), markdown_files(b)
    step = 100
    for index in range(0, len(files_a), step):  # 1% on A
        with open(files_a[index], "a") as handle:
            handle.write("\nEdited on A.\n")
    for index in range(step // 2, len(files_b), step):  # a disjoint 1% on B
        with open(files_b[index], "a") as handle:
            handle.write("\nEdited on B.\n")
    results["1% edits resync"], _, _ = timed(argv_for(a, b), env)
    recipes_a = [p for p in markdown_files(a) if "/recipes/" in p][:50]
    for path in recipes_a:
        edit_line(path, lambda line: line.startswith("title:"), lambda line: "title: Renamed on A")
        other = os.path.join(b, os.path.relpath(path, a))
        edit_line(other, lambda line: line.startswith("1. "), lambda line: "1. Changed on B.")
    results["50 double edits resync"], status, _ = timed(argv_for(a, b), env)
    # A tool may rename a file edited on both sides (rclone bisync keeps `NAME.conflict1`…):
    # such a file is not merged.
    merged = sum(
        1 for path in recipes_a
        if os.path.exists(path) and os.path.exists(os.path.join(b, os.path.relpath(path, a)))
        and filecmp.cmp(path, os.path.join(b, os.path.relpath(path, a)), shallow=False)
        and "Renamed on A" in open(path).read() and "Changed on B." in open(path).read())
    results["merged"] = merged
    # Not deleted here: file creation on these disks slows down for minutes after a mass
    # deletion, which would tax whichever tool runs next. Everything goes at the end.
    return results


MEASURES = ("first sync", "no-change resync", "1% edits resync", "50 double edits resync")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, action="append")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tool, in alternation (default 3)")
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--folio", default=os.path.join(root_dir, ".build", "release", "folio"))
    parser.add_argument("--before", help="an older folio build, run as a tool of its own in the same alternation "
                        "(its times, and folio's over them, are printed as before -> after)")
    parser.add_argument("--peers", default="rsync,unison,rclone",
                        help="the peers to run, comma-separated (rsync always: the targets are against it); "
                             "--peers rsync repeats a large size in minutes instead of an hour")
    args = parser.parse_args()
    chosen = ["rsync"] + [peer for peer in args.peers.split(",") if peer in ("unison", "rclone")]
    sizes = args.files or [10000]
    unison, rsync, rclone = shutil.which("unison"), shutil.which("rsync"), shutil.which("rclone")
    found = {"unison": unison, "rsync": rsync, "rclone": rclone}
    missing = [peer for peer in chosen if not found[peer]]
    if missing:
        sys.exit(f"{', '.join(missing)} needed: apt-get install {' '.join(missing)}")
    print("folio sync benchmark")
    print(f"  command line: {' '.join(sys.argv)}")
    for tool in (found[peer] for peer in chosen):
        version = subprocess.run([tool, "--version" if tool != unison else "-version"], capture_output=True, text=True).stdout.strip().split("\n")[0]
        print(f"  peer:         {version}")
    base = tempfile.mkdtemp(prefix="folio-sync-bench-", dir="/tmp")
    copyfloor = os.path.join(base, "copyfloor")
    subprocess.run(["gcc", "-O2", "-pthread", "-o", copyfloor, os.path.join(root_dir, "Benchmarks", "copyfloor.c")], check=True)
    lookfloor = os.path.join(base, "lookfloor")
    subprocess.run(["gcc", "-O2", "-pthread", "-o", lookfloor, os.path.join(root_dir, "Benchmarks", "lookfloor.c")], check=True)
    try:
        for n in sizes:
            work = tempfile.mkdtemp(prefix=f"n{n}-", dir=base)
            tree = os.path.join(work, "tree")
            os.makedirs(tree)
            stats = check.generate_tree(tree, n, args.seed)
            print(f"\n== N = {n:,} ({stats.total_bytes / 1e6:.1f} MB)")
            home = os.path.join(work, "home")
            os.makedirs(home)
            env = dict(os.environ, HOME=home)
            bisynced = set()

            def rclone_argv(a, b):
                first = (a, b) not in bisynced
                bisynced.add((a, b))
                return [rclone, "bisync", a, b, "--config", "/dev/null", "-q"] + (["--resync"] if first else [])

            tools = {
                "folio": lambda a, b, rep: [args.folio, "sync", a, b, "--state", os.path.join(work, f"folio-state{rep}")],
                "rsync": lambda a, b, rep: [rsync, "-a", a + "/", b + "/"],
                "unison": lambda a, b, rep: [unison, a, b, "-batch", "-auto", "-ui", "text", "-silent"],
                "rclone": lambda a, b, rep: rclone_argv(a, b),
            }
            peers = [peer for peer in ("rsync", "unison", "rclone") if peer in chosen]
            tools = {tool: argv for tool, argv in tools.items() if tool == "folio" or tool in peers}
            if args.before:
                tools["before"] = lambda a, b, rep: [args.before, "sync", a, b, "--state", os.path.join(work, f"before-state{rep}")]
            runs = {"cp -a": [], "stat pass": [], "look floor": [], "copy of the changed files": [], "crash-safe copy": [], **{tool: [] for tool in tools}}
            for rep in range(args.repeat):
                # The limits and the two tools in alternation, each on fresh folders.
                copy = os.path.join(work, f"copy{rep}")
                runs["cp -a"].append(timed(["cp", "-a", tree, copy])[0])
                runs["stat pass"].append(timed(["bash", "-c", f"find '{tree}' '{copy}' -printf '%s %T@ %i %C@\\n' > /dev/null"])[0])
                runs["look floor"].append(timed([lookfloor, tree, copy])[0])
                # The floor of the 1% resync: the stat pass plus copying what changed
                # (the files the 1% measure edits: every 100th on one side, a disjoint
                # every 100th on the other).
                changed = markdown_files(tree)
                changed = changed[0::100] + changed[50::100]
                scratch = os.path.join(work, f"changed{rep}")
                os.makedirs(scratch)
                runs["copy of the changed files"].append(timed(["cp", "-t", scratch] + changed)[0])
                floor_a, floor_b = os.path.join(work, f"floor-a{rep}"), os.path.join(work, f"floor-b{rep}")
                subprocess.run(["cp", "-a", tree, floor_a], check=True)
                os.makedirs(floor_b)
                elapsed, status, err = timed([copyfloor, floor_a, floor_b])
                if status != 0 or len(markdown_files(floor_b)) != len(markdown_files(floor_a)):
                    sys.exit(f"copyfloor failed (exit {status}, {len(markdown_files(floor_b))} of {len(markdown_files(floor_a))} files): {err.strip()}")
                runs["crash-safe copy"].append(elapsed)
                order = list(tools)[rep % len(tools):] + list(tools)[:rep % len(tools)]
                for tool in order:
                    runs[tool].append(run_tool(tool, lambda a, b: tools[tool](a, b, rep), tree, work, env, rep))
            cp_time = statistics.median(runs["cp -a"])
            stat_time = statistics.median(runs["stat pass"])
            safe_time = statistics.median(runs["crash-safe copy"])
            look_time = statistics.median(runs["look floor"])
            print(f"  limits (median of {args.repeat}): cp -a {cp_time:.3f} s; stat pass of both trees {stat_time:.3f} s; "
                  f"both trees looked at on two threads (lookfloor) {look_time:.3f} s; crash-safe copy (copyfloor) {safe_time:.3f} s")
            median = {tool: {m: statistics.median(r[m] for r in runs[tool]) for m in MEASURES} for tool in tools}
            header = "".join(f" {tool + ' s':>9}" for tool in tools) + "".join(f" {'/' + tool:>8}" for tool in peers)
            print(f"  {'measure (median of ' + str(args.repeat) + ')':<28}{header}   folio runs")
            for measure in MEASURES:
                f = median["folio"][measure]
                times = "".join(f" {median[tool][measure]:9.3f}" for tool in tools)
                ratios = "".join(f" {f / median[tool][measure]:7.2f}x" for tool in peers)
                each = " ".join(f"{r[measure]:.3f}" for r in runs["folio"])
                print(f"  {measure:<28}{times}{ratios}   {each}")
            # Issue 43's targets, against rsync -a and the crash-safe copy's floor.
            for measure, target in (("first sync", 0.8), ("no-change resync", 0.8), ("1% edits resync", 1.0), ("50 double edits resync", 1.5)):
                ratio = median["folio"][measure] / median["rsync"][measure]
                print(f"  {measure} folio / rsync -a: {ratio:.2f}x (target <= {target}x: {'met' if ratio <= target else 'NOT met'})")
            if args.before:
                print("  before -> after: " + "; ".join(
                    f"{m} {median['before'][m]:.3f} -> {median['folio'][m]:.3f} s ({median['folio'][m] / median['before'][m]:.2f}x)" for m in MEASURES))
            print(f"  first sync / cp -a: {median['folio']['first sync'] / cp_time:.2f}x")
            floor_ratio = median['folio']['first sync'] / safe_time
            print(f"  crash-safe copy / rsync -a: {safe_time / median['rsync']['first sync']:.2f}x; "
                  f"folio first sync / crash-safe copy: {floor_ratio:.2f}x (target <= 1.15x: {'met' if floor_ratio <= 1.15 else 'NOT met'})")
            print(f"  no-change resync / stat pass: {median['folio']['no-change resync'] / stat_time:.2f}x (target <= 1.5x)")
            print(f"  look floor / rsync -a no-change: {look_time / median['rsync']['no-change resync']:.2f}x; "
                  f"folio no-change resync / look floor: {median['folio']['no-change resync'] / look_time:.2f}x")
            floor = stat_time + statistics.median(runs["copy of the changed files"])
            print(f"  1% resync / (stat pass + copy of the changed files, {floor:.3f} s): "
                  f"{median['folio']['1% edits resync'] / floor:.2f}x (target <= 1x)")
            print("  50 files edited on both sides, merged: " + ", ".join(f"{tool} {min(r['merged'] for r in runs[tool])}" for tool in tools)
                  + " (Unison skips files changed on both sides; rsync copies one way)")
            shutil.rmtree(work)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
