#!/usr/bin/env python3
"""Merge benchmark: `folio merge-file` against `git merge-file`, in one run.

  1. A 50,000-line text with 1% of its lines changed on each side (disjoint), merged
     R times by each tool, alternated; medians (target: Folio within 2x git's time).
  2. 1,000 recipe triples (base, ours, theirs) with concurrent edits of different
     fields and lists, each merged by one `merge-file -p` run of each tool: total
     time, and how many each merged cleanly.

Run by hand from the package root:

  swift build -c release && python3 Benchmarks/merge.py
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ("salt pepper garlic onion basil thyme lemon butter olive oil flour sugar water milk egg "
         "cheese tomato pasta rice bean carrot celery chili honey vinegar wine stock cream").split()


def line(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) + "\n"


def big_text(rng, lines, changed_fraction):
    base = [line(rng) for _ in range(lines)]
    positions = rng.sample(range(lines), int(lines * changed_fraction * 2))
    ours, theirs = list(base), list(base)
    for index, position in enumerate(positions):
        side = ours if index % 2 == 0 else theirs
        side[position] = "changed " + line(rng)
    return "".join(base), "".join(ours), "".join(theirs)


def recipe(rng, time_value, servings, tags, ingredients, steps):
    text = f"---\ntitle: {rng.choice(WORDS).capitalize()} soup\ntime: {time_value}\nservings: {servings}\n"
    text += f"tags: [{', '.join(tags)}]\ningredients:\n"
    text += "".join(f"  - name: {name}\n    quantity: {quantity}\n" for name, quantity in ingredients)
    text += "---\nA simple soup.\n\n## Steps\n" + "".join(f"{n + 1}. {s}\n" for n, s in enumerate(steps))
    return text


def recipe_triple(rng):
    state = rng.getstate()
    ingredients = [(w, f"{rng.randint(1, 9)}00g") for w in rng.sample(WORDS, 4)]
    steps = [f"Add the {w}." for w in rng.sample(WORDS, 3)]
    args = ["15m", 2, ["soup"], ingredients, steps]
    rng.setstate(state)
    base = recipe(rng, *args)
    rng.setstate(state)
    ours = recipe(rng, "20m", 2, ["soup", "quick"], ingredients + [("pepper", "1 pinch")], steps)
    rng.setstate(state)
    theirs = recipe(rng, "15m", 4, ["soup", "winter"], ingredients + [("salt", "2 pinches")], steps + ["Serve hot."])
    return base, ours, theirs


def timed(argv, cwd):
    started = time.perf_counter()
    completed = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, completed.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=50000)
    parser.add_argument("--triples", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=42)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--folio", default=os.path.join(root, ".build", "release", "folio"))
    args = parser.parse_args()
    if not os.access(args.folio, os.X_OK):
        sys.exit(f"{args.folio} not found: run `swift build -c release` first")
    git = shutil.which("git")
    version = subprocess.run([git, "--version"], capture_output=True, text=True).stdout.strip()
    print("folio merge benchmark")
    print(f"  command line: {' '.join(sys.argv)}")
    print(f"  peer:         {version}")
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="folio-merge-bench-")
    env = dict(os.environ, HOME=work, GIT_CONFIG_NOSYSTEM="1")
    try:
        base, ours, theirs = big_text(rng, args.lines, 0.01)
        for name, text in (("base.txt", base), ("ours.txt", ours), ("theirs.txt", theirs)):
            with open(os.path.join(work, name), "w") as handle:
                handle.write(text)
        tools = {
            "folio": [args.folio, "merge-file", "-p", "ours.txt", "base.txt", "theirs.txt"],
            "git": [git, "merge-file", "-p", "ours.txt", "base.txt", "theirs.txt"],
        }
        outputs = {}
        for tool, argv in tools.items():
            outputs[tool] = subprocess.run(argv, cwd=work, capture_output=True, env=env).stdout
        same = outputs["folio"] == outputs["git"]
        times = {tool: [] for tool in tools}
        for _ in range(args.runs + 1):
            for tool, argv in tools.items():
                times[tool].append(timed(argv, work)[0])
        medians = {tool: statistics.median(values[1:]) for tool, values in times.items()}
        ratio = medians["folio"] / medians["git"]
        print(f"\n== {args.lines:,}-line text, 1% of lines changed on each side ({len(base) / 1e6:.1f} MB)")
        print(f"  folio merge-file {medians['folio'] * 1000:.1f} ms, git merge-file {medians['git'] * 1000:.1f} ms "
              f"(medians of {args.runs}): {ratio:.2f}x (target <= 2x) {'PASS' if ratio <= 2 else 'FAIL'}; "
              f"outputs {'identical' if same else 'DIFFER'}")

        triples = os.path.join(work, "triples")
        os.makedirs(triples)
        for n in range(args.triples):
            for name, text in zip(("base", "ours", "theirs"), recipe_triple(rng)):
                with open(os.path.join(triples, f"{n}.{name}.md"), "w") as handle:
                    handle.write(text)
        totals, clean = {}, {}
        for tool in ("folio", "git"):
            program = args.folio if tool == "folio" else git
            started = time.perf_counter()
            clean[tool] = 0
            for n in range(args.triples):
                result = subprocess.run([program, "merge-file", "-p", f"{n}.ours.md", f"{n}.base.md", f"{n}.theirs.md"],
                                        cwd=triples, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                clean[tool] += result.returncode == 0
            totals[tool] = time.perf_counter() - started
        print(f"\n== {args.triples:,} recipe triples (time, servings, tags, ingredients and steps edited concurrently)")
        for tool in ("folio", "git"):
            print(f"  {tool} merge-file: {totals[tool]:.2f} s in all ({totals[tool] / args.triples * 1000:.2f} ms a merge), "
                  f"{clean[tool]} of {args.triples} merged cleanly")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
