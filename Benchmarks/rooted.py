#!/usr/bin/env python3
"""What the rooted file-access layer costs a sync: the 10k first sync and the no-change
resync, with a build from before the layer, with the layer resolving paths through the
kernel (`openat2`), and with it walking the components itself (`FOLIO_RESOLVE=walk`, as
on Darwin or an older kernel). In one run, the three in alternation, each on fresh
folders (nothing deleted until the end); medians, and each one's ratio to before.

    swift build -c release --product folio
    python3 Benchmarks/rooted.py --before /path/to/older/folio [--files 10000] [--repeat 3]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (the generator)


def timed(argv, env):
    started = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if result.returncode != 0:
        raise SystemExit(f"{argv} failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    return time.perf_counter() - started


def main():
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="a folio built before the rooted layer")
    parser.add_argument("--folio", default=os.path.join(root_dir, ".build", "release", "folio"))
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    top = tempfile.mkdtemp(prefix="folio-rooted-")
    tree = os.path.join(top, "tree")
    check.generate_tree(tree, args.files, args.seed)
    variants = [
        ("before", os.path.abspath(args.before), {}),
        ("openat2", os.path.abspath(args.folio), {}),
        ("walk", os.path.abspath(args.folio), {"FOLIO_RESOLVE": "walk"}),
    ]
    times = {name: {"first": [], "resync": []} for name, _, _ in variants}
    try:
        run = 0
        for _ in range(args.repeat):
            for name, folio, extra in variants:
                run += 1
                place = os.path.join(top, f"run{run}")
                a, b, state = (os.path.join(place, n) for n in ("A", "B", "state"))
                shutil.copytree(tree, a, symlinks=True)
                os.makedirs(b)
                env = dict(os.environ, **extra)
                times[name]["first"].append(timed([folio, "sync", a, b, "--state", state], env))
                times[name]["resync"].append(timed([folio, "sync", a, b, "--state", state], env))
        base = {k: statistics.median(v) for k, v in times["before"].items()}
        print(f"{args.files} files, median of {args.repeat}, in alternation")
        for name, _, _ in variants:
            first, resync = statistics.median(times[name]["first"]), statistics.median(times[name]["resync"])
            print(f"{name:8} first sync {first:6.3f} s ({first / base['first']:4.2f}x before)   "
                  f"no-change resync {resync:6.3f} s ({resync / base['resync']:4.2f}x before)")
    finally:
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
