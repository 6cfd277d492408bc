#!/usr/bin/env python3
"""Benchmark `folio check DIR` against `cat` and PyYAML on a synthetic record tree.

What it measures
----------------
For each requested size N the script generates N Markdown files with YAML
front matter (40% recipes of about 2 KB, 40% todos of about 300 B, 20% workouts
of about 400 B, 500 files per folder), deterministically from --seed, and then
times three ways of going through the whole tree:

  folio   FOLIO check DIR                       (must exit 0)
  cat     find DIR -type f -name '*.md' -print0 | xargs -0 cat > /dev/null
          (the floor: just reading every byte)
  pyyaml  a child Python process that walks DIR, reads every .md file, splits
          off the front matter and loads it with yaml.CSafeLoader (libyaml)

After one untimed warm-up round (which warms the page cache) it runs R timed
rounds, each running folio, cat, pyyaml in that order, and records wall time
and the child's peak RSS (ru_maxrss from os.wait4). It reports median/min/max
seconds, files/s and peak RSS per tool, and checks these targets:

  folio/cat     <= 2     (folio within 2x of just reading the files)
  pyyaml/folio  >= 10    (folio at least 10x faster than PyYAML + libyaml)
  folio peak RSS < 200 MiB

Peak RSS caveat: on Linux a child's ru_maxrss also counts the RSS its parent
had when the child was exec'd, so no value here can be below the benchmark's
own RSS. The script prints that floor; keep it in mind for small numbers.

How to run (by hand, from the package root; it is not a test):

  swift build -c release && python3 Benchmarks/check.py --files 10000 --files 100000

With --baseline PATH, another folio binary (an older commit's release build) runs
`check` in the same rounds, and the ratio folio/baseline is printed:

  git worktree add /tmp/old 435cce5 && (cd /tmp/old && swift build -c release --product folio)
  python3 Benchmarks/check.py --files 10000 --files 100000 --baseline /tmp/old/.build/release/folio

Options: --files N (repeatable, default 100000), --runs R (default 5),
--seed S (default 42), --folio PATH (default .build/release/folio),
--workdir DIR (default: a fresh folder under /tmp), --keep (keep the trees).
The same seed and script always produce the same bytes; the sha256 printed
after generation lets you check that. Each N gets a fresh tree, deleted after
its runs unless --keep. Exit status is 1 if any target fails (or folio fails).

Needs Python 3.9+ and PyYAML built with libyaml (yaml.CSafeLoader); nothing else.
"""

import argparse
import datetime
import hashlib
import os
import platform
import random
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FOLIO = PACKAGE_ROOT / ".build" / "release" / "folio"

FILES_PER_FOLDER = 500
KINDS = ("recipes", "todos", "workouts")  # alphabetical: generation order == sorted order
TARGET_SIZE = {"recipes": 2048, "todos": 300, "workouts": 400}
TOOLS = ("folio", "cat", "pyyaml")

TARGET_FOLIO_OVER_CAT = 2.0      # folio/cat must be <= this
TARGET_PYYAML_OVER_FOLIO = 10.0  # pyyaml/folio must be >= this
TARGET_PEAK_RSS_MIB = 200.0      # folio peak RSS must be < this

CAT_PIPELINE = "set -o pipefail; find \"$1\" -type f -name '*.md' -print0 | xargs -0 cat > /dev/null"

# --------------------------------------------------------------------------
# Vocabulary. Tuples, never sets: iteration order must not depend on hashing.
# --------------------------------------------------------------------------

ADJECTIVES = (
    "Smoky", "Crispy", "Creamy", "Spicy", "Lemony", "Herbed", "Roasted", "Golden",
    "Rustic", "Quick", "Slow-Cooked", "Garlicky", "Sticky", "Tangy", "Hearty",
    "Charred", "Zesty", "Sweet", "Savory", "Summer", "Winter", "Honey-Glazed",
)
MAINS = (
    "Chickpea", "Chicken", "Salmon", "Mushroom", "Lentil", "Pork", "Tofu", "Beef",
    "Cauliflower", "Shrimp", "Eggplant", "Pumpkin", "Tomato", "Spinach", "Potato",
    "Halloumi", "Black Bean", "Sweet Potato", "Leek", "Cod", "Apple", "Pear",
)
DISHES = (
    "Stew", "Curry", "Tacos", "Salad", "Soup", "Risotto", "Pasta", "Traybake",
    "Pie", "Bowl", "Skewers", "Flatbread", "Gratin", "Stir-Fry", "Chili", "Tart",
    "Frittata", "Noodles", "Burgers", "Crumble",
)
COLLECTIONS = (
    "Weeknight", "Sunday Lunch", "Grandma's Box", "Batch Cooking", "Holiday",
    "Camping", "From the Garden", "Leftovers",
)
RECIPE_TAGS = (
    "dinner", "lunch", "breakfast", "dessert", "vegetarian", "vegan", "quick",
    "one-pot", "gluten-free", "spicy", "comfort", "freezer", "weekend", "summer",
    "winter", "batch", "kids", "baking",
)
INGREDIENTS = (
    "Flour", "Olive oil", "Butter", "Garlic", "Onion", "Red onion", "Shallot",
    "Salt", "Black pepper", "Sugar", "Brown sugar", "Honey", "Eggs", "Milk",
    "Cream", "Greek yogurt", "Parmesan", "Cheddar", "Lemon juice", "Lime zest",
    "Chicken stock", "Vegetable stock", "Canned tomatoes", "Tomato paste",
    "Cumin", "Smoked paprika", "Chili flakes", "Coriander", "Turmeric",
    "Cinnamon", "Fresh basil", "Fresh parsley", "Thyme", "Rosemary", "Bay leaves",
    "Soy sauce", "Fish sauce", "Rice vinegar", "Sesame oil", "Ginger",
    "Basmati rice", "Arborio rice", "Spaghetti", "Carrots", "Celery", "Spinach",
    "Mushrooms", "Chickpeas", "Red lentils", "Coconut milk", "Baking powder",
    "Vanilla extract", "Dijon mustard", "White wine", "Breadcrumbs", "Peas",
    "Sweet potatoes", "Bell pepper", "Zucchini", "Spring onions",
)
QUANTITIES = (
    "1/2 cup", "1 cup", "2 cups", "1 1/2 cups", "1/4 cup", "3/4 cup", "1 tbsp",
    "2 tbsp", "3 tbsp", "1 tsp", "1/2 tsp", "1/4 tsp", "2 tsp", "100 g", "200 g",
    "250 g", "400 g", "500 g", "1 kg", "50 ml", "100 ml", "250 ml", "500 ml",
    "1 pinch", "2 cloves", "3 cloves", "1 large", "2 medium", "1 small", "1 can",
    "1 bunch", "a handful", "to taste", "1 sprig", "2 sprigs",
)
SOURCES = (
    "the family cookbook", "a card from Aunt May", "a market stall", "an old magazine",
    "the cooking class", "a neighbour", "trial and error", "a holiday in Lisbon",
)
COOKING_WORDS = (
    "the", "a", "and", "with", "until", "then", "over", "into", "for", "while",
    "pan", "oven", "heat", "low", "medium", "high", "gently", "stir", "simmer",
    "roast", "bake", "whisk", "fold", "season", "taste", "sauce", "onions",
    "garlic", "butter", "oil", "golden", "soft", "crisp", "tender", "minutes",
    "lid", "bowl", "tray", "dough", "batter", "mixture", "flavour", "texture",
    "fresh", "herbs", "lemon", "salt", "pepper", "rest", "serve", "warm", "plates",
    "leftovers", "keeps", "fridge", "days", "freezes", "well", "family", "favourite",
    "weeknight", "easy", "slowly", "add", "remove", "return", "cover", "reduce",
    "thickens", "bubbling", "edges", "centre", "chop", "slice", "dice", "grate",
)
STEP_VERBS = (
    "Heat", "Chop", "Whisk", "Stir", "Add", "Season", "Simmer", "Roast", "Bake",
    "Fold", "Toss", "Slice", "Cover", "Transfer", "Serve", "Drain", "Mix", "Pour",
)
TODO_VERBS = (
    "Call", "Email", "Buy", "Fix", "Book", "Renew", "Clean", "Return", "Pay",
    "Schedule", "Review", "Order", "Cancel", "Update", "Plan", "Sort", "Water",
)
TODO_OBJECTS = (
    "the plumber", "library books", "car insurance", "dentist appointment",
    "birthday present", "the gutters", "passport", "electricity bill",
    "flight tickets", "garden hose", "tax documents", "the bike", "photo albums",
    "team offsite", "the plants", "winter tyres", "school forms", "the fridge",
)
TODO_WORDS = (
    "before", "after", "the", "a", "weekend", "Monday", "Friday", "remember",
    "check", "receipt", "price", "number", "online", "shop", "form", "ask", "about",
    "deadline", "call", "back", "invoice", "maybe", "also", "need", "list", "box",
    "drawer", "kitchen", "office", "car", "morning", "evening", "soon", "again",
)
WORKOUT_NAMES = (
    "Morning run", "Easy run", "Tempo run", "Hill repeats", "Long run", "Track intervals",
    "Recovery jog", "Commute ride", "Long ride", "Gravel loop", "Open water swim",
    "Pool session", "Trail run", "Fartlek", "Row intervals", "Hike",
)
WORKOUT_WORDS = (
    "legs", "heavy", "fresh", "felt", "good", "strong", "tired", "windy", "rain",
    "sun", "pace", "steady", "easy", "hard", "last", "first", "km", "hill", "climb",
    "descent", "heart", "rate", "breathing", "shoes", "new", "route", "river",
    "park", "traffic", "lights", "finish", "negative", "split", "cadence", "cool",
    "down", "warm", "up", "stretch", "water", "gel", "knee", "calf", "fine",
)
COMPLEXITY = ("low", "medium", "high")

DATE_ORIGIN = datetime.date(2023, 1, 1)

# --------------------------------------------------------------------------
# Document generation
# --------------------------------------------------------------------------


def sentence(rng, words, low, high):
    text = " ".join(rng.choices(words, k=rng.randint(low, high)))
    return text[0].upper() + text[1:] + "."


def paragraph(rng, words, sentences, low, high):
    return " ".join(sentence(rng, words, low, high) for _ in range(sentences))


def iso_date(rng):
    return (DATE_ORIGIN + datetime.timedelta(days=rng.randrange(730))).isoformat()


def cooking_time(rng):
    if rng.random() < 0.6:
        return f"{rng.choice((10, 15, 20, 25, 30, 35, 40, 45, 50))}m"
    hours, minutes = rng.randint(1, 3), rng.choice((0, 15, 30, 45))
    return f"{hours}h{minutes}m" if minutes else f"{hours}h"


def recipe(rng):
    """A ~2 KB recipe: rich front matter plus paragraphs and numbered steps."""
    title = f"{rng.choice(ADJECTIVES)} {rng.choice(MAINS)} {rng.choice(DISHES)}"
    if rng.random() < 0.25:  # contains ": ", so it has to be double-quoted
        title_line = f'title: "{rng.choice(COLLECTIONS)}: {title}"'
    elif rng.random() < 0.3:
        title_line = f'title: "{title}"'
    else:
        title_line = f"title: {title}"
    servings = rng.randint(1, 8)
    tags = rng.sample(RECIPE_TAGS, rng.randint(2, 4))
    lines = [
        "---",
        title_line,
        "kind: recipe",
        f"time: {cooking_time(rng)}",
        f"servings: {servings}",
        f"tags: [{', '.join(tags)}]",
        f"# Adapted from {rng.choice(SOURCES)}; quantities are for {servings} servings",
        "ingredients:",
    ]
    for name in rng.sample(INGREDIENTS, rng.randint(8, 14)):
        lines.append(f'  - name: "{name}"' if rng.random() < 0.2 else f"  - name: {name}")
        lines.append(f"    quantity: {rng.choice(QUANTITIES)}")
    lines.append("---")
    for _ in range(rng.randint(2, 4)):
        lines += [paragraph(rng, COOKING_WORDS, rng.randint(2, 4), 8, 16), ""]
    lines += ["## Steps", ""]
    for number in range(1, rng.randint(7, 10) + 1):
        step = sentence(rng, COOKING_WORDS, 8, 16)
        lines.append(f"{number}. {rng.choice(STEP_VERBS)} {step[0].lower()}{step[1:]}")
    return title, "\n".join(lines) + "\n"


def todo(rng):
    """A ~300 B todo: five scalar fields and a short body."""
    title = f"{rng.choice(TODO_VERBS)} {rng.choice(TODO_OBJECTS)}"
    lines = [
        "---",
        f"title: {title}",
        f"date: {iso_date(rng)}",
        f"done: {'true' if rng.random() < 0.3 else 'false'}",
        f"priority: {rng.randint(1, 4)}",
        f"order: {rng.randint(1, 500)}",
        "---",
        paragraph(rng, TODO_WORDS, rng.randint(3, 4), 6, 14),
    ]
    return title, "\n".join(lines) + "\n"


def workout(rng):
    """A ~400 B workout: scalars, a float and a `|` block scalar."""
    name = rng.choice(WORKOUT_NAMES)
    lines = [
        "---",
        f"name: {name}",
        f"distance: {rng.uniform(2.0, 42.0):.2f}",
        f"date: {iso_date(rng)}",
        f"complexity: {rng.choice(COMPLEXITY)}",
        "notes: |",
    ]
    lines += [f"  {sentence(rng, WORKOUT_WORDS, 5, 10)}" for _ in range(rng.randint(3, 4))]
    lines += ["---", paragraph(rng, WORKOUT_WORDS, rng.randint(2, 4), 6, 12)]
    return name, "\n".join(lines) + "\n"


GENERATORS = {"recipes": recipe, "todos": todo, "workouts": workout}


def kind_counts(n):
    recipes = n * 2 // 5
    todos = n * 2 // 5
    return {"recipes": recipes, "todos": todos, "workouts": n - recipes - todos}


def slug(text):
    kept = "".join(c if c.isalnum() else " " for c in text.lower())
    return "-".join(kept.split())


@dataclass
class TreeStats:
    counts: dict
    sizes: dict  # kind -> [total, min, max]
    total_bytes: int
    sha256: str
    seconds: float


def generate_tree(root, n, seed):
    """Write N documents under root; return sizes and a sha256 of the tree.

    Documents are produced in sorted relative-path order (kinds, folders and
    file indexes are zero-padded), so the digest is computed while writing:
    for each path in sorted order, sha256 over "relpath\\0size\\0" + bytes.
    Nothing is kept in memory, so the benchmark's own RSS stays small.
    """
    started = time.perf_counter()
    rng = random.Random(seed)
    digest = hashlib.sha256()
    counts = kind_counts(n)
    sizes = {}
    previous = ""
    for kind in KINDS:
        count = counts[kind]
        index_width = max(5, len(str(count - 1)))
        folder_width = max(3, len(str((count - 1) // FILES_PER_FOLDER)))
        sizes[kind] = [0, None, None]
        for index in range(count):
            folder = f"{kind}/{index // FILES_PER_FOLDER:0{folder_width}d}"
            if index % FILES_PER_FOLDER == 0:
                os.makedirs(os.path.join(root, folder))
            title, text = GENERATORS[kind](rng)
            data = text.encode("utf-8")
            relpath = f"{folder}/{index:0{index_width}d}-{slug(title)}.md"
            assert relpath > previous, "generation order must be sorted path order"
            previous = relpath
            with open(os.path.join(root, relpath), "wb") as f:
                f.write(data)
            digest.update(f"{relpath}\0{len(data)}\0".encode())
            digest.update(data)
            size = sizes[kind]
            size[0] += len(data)
            size[1] = len(data) if size[1] is None else min(size[1], len(data))
            size[2] = len(data) if size[2] is None else max(size[2], len(data))
    os.sync()  # flush writeback now so it does not overlap the timed runs
    total = sum(size[0] for size in sizes.values())
    return TreeStats(counts, sizes, total, digest.hexdigest(), time.perf_counter() - started)


# --------------------------------------------------------------------------
# The PyYAML contender (runs in a child process: `check.py --pyyaml-child DIR`)
# --------------------------------------------------------------------------


def front_matter(data):
    """Bytes between a first line `---` and the next `---` line, or None."""
    if data.startswith(b"---\n"):
        start = 4
    elif data.startswith(b"---\r\n"):
        start = 5
    else:
        return None
    position = start - 1  # the newline that ends the opening line
    while True:
        position = data.find(b"\n---", position)
        if position < 0:
            return None
        after = position + 4
        if after == len(data) or data[after:after + 1] in (b"\n", b"\r"):
            return data[start:position + 1]
        position += 1


def parse_tree_with_pyyaml(root):
    """Load every .md file's front matter with libyaml; print 'parsed failed'."""
    import yaml

    loader = yaml.CSafeLoader  # AttributeError here means PyYAML lacks libyaml
    parsed = failed = 0
    for directory, _, filenames in os.walk(root):
        for filename in filenames:
            if not filename.endswith(".md"):
                continue
            path = os.path.join(directory, filename)
            with open(path, "rb") as f:
                data = f.read()
            try:
                text = front_matter(data)
                if text is None:
                    raise ValueError("no front matter")
                value = yaml.load(text.decode("utf-8"), Loader=loader)
                if not isinstance(value, (dict, type(None))):
                    raise ValueError("front matter is not a mapping")
                parsed += 1
            except Exception as error:  # report, keep going, fail at the end
                failed += 1
                if failed <= 5:
                    print(f"{path}: {error}", file=sys.stderr)
    print(parsed, failed)
    return 1 if failed else 0


# --------------------------------------------------------------------------
# Measurement
# --------------------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    maxrss_kib: int
    exit_code: int
    cpu_seconds: float = float("nan")
    stdout: str = ""
    stderr: str = ""


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_once(argv, capture=False):
    """Run argv, timing wall clock and reaping with wait4 for the child's ru_maxrss.

    With GNU time installed (Debian package `time`), the command runs under it and
    the peak RSS is the one GNU time reports: its child forks from a small process,
    so the figure is not raised to this script's own RSS (see the caveat above)."""
    stream = subprocess.PIPE if capture else subprocess.DEVNULL
    rss_file = None
    if GNU_TIME:
        rss_fd, rss_file = tempfile.mkstemp(prefix="folio-bench-rss-")
        os.close(rss_fd)
        argv = [GNU_TIME, "-q", "-f", "%M %U %S", "-o", rss_file] + list(argv)
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stream, stderr=stream)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)  # we reaped it, not Popen
    maxrss_kib = usage.ru_maxrss
    cpu_seconds = usage.ru_utime + usage.ru_stime
    if rss_file:
        with open(rss_file) as handle:
            fields = handle.read().split()
        os.unlink(rss_file)
        if len(fields) >= 3 and fields[-3].isdigit():
            maxrss_kib = int(fields[-3])
            cpu_seconds = float(fields[-2]) + float(fields[-1])
    run = Run(seconds, maxrss_kib, process.returncode, cpu_seconds)
    if capture:  # the child writes a few lines at most, so the pipes cannot fill up
        run.stdout = process.stdout.read().decode(errors="replace")
        run.stderr = process.stderr.read().decode(errors="replace")
        process.stdout.close()
        process.stderr.close()
    return run


def tool_commands(folio, root, baseline=None):
    commands = {
        "folio": ([str(folio), "check", root], False),
        "cat": (["bash", "-c", CAT_PIPELINE, "bash", root], False),
        "pyyaml": ([sys.executable, str(Path(__file__).resolve()), "--pyyaml-child", root], True),
    }
    if baseline:
        commands["baseline"] = ([str(baseline), "check", root], False)
    return commands


def check_run(tool, run, n, warned):
    """Print a warning (once per tool) if a run failed or PyYAML missed files."""
    problem = None
    if run.exit_code != 0:
        problem = f"exited with {run.exit_code}"
    elif tool == "pyyaml" and run.stdout.split()[:1] != [str(n)]:
        problem = f"parsed {run.stdout.strip()!r} (parsed failed), expected {n} files"
    if problem and tool not in warned:
        warned.add(tool)
        detail = f": {run.stderr.strip()}" if run.stderr.strip() else ""
        print(f"  WARNING: {tool} {problem}{detail}", flush=True)


def benchmark(folio, root, n, runs, baseline=None):
    """One untimed warm-up round, then `runs` rounds of folio, cat, pyyaml (and the baseline)."""
    commands = tool_commands(folio, root, baseline)
    results = {tool: [] for tool in commands}
    warned = set()
    for round_number in range(runs + 1):
        label = "warm-up" if round_number == 0 else f"run {round_number}/{runs}"
        cells = []
        for tool in commands:
            argv, capture = commands[tool]
            run = run_once(argv, capture)
            check_run(tool, run, n, warned)
            if round_number > 0:
                results[tool].append(run)
            cells.append(f"{tool} {run.seconds:7.3f}s {run.maxrss_kib / 1024:6.1f} MiB")
        print(f"  {label:>9}: " + " | ".join(cells), flush=True)
    return results


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "Processor"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def pyyaml_version():
    """PyYAML's version, asked of a child so the benchmark itself stays small."""
    probe = "import yaml; yaml.CSafeLoader; print(yaml.__version__)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("PyYAML with libyaml (yaml.CSafeLoader) is required:\n" + result.stderr)
    return result.stdout.strip()


def print_header(args, folio):
    print("folio check benchmark")
    print(f"  command line: {shlex.join([sys.executable] + sys.argv)}")
    print(f"  machine:      nproc {len(os.sched_getaffinity(0))}, CPU {cpu_model()}, "
          f"RAM {memory_total()}")
    print(f"  kernel:       {platform.system()} {platform.release()} ({platform.machine()})")
    print(f"  python:       {platform.python_version()}, PyYAML {pyyaml_version()} (CSafeLoader)")
    print(f"  folio:        {folio}")
    print(f"  files {args.files}, runs {args.runs}, seed {args.seed}, "
          f"{FILES_PER_FOLDER} files per folder")
    print()


def print_tree_stats(n, root, stats):
    print(f"== N = {n:,} files in {root}")
    print(f"  generated {stats.total_bytes:,} bytes ({stats.total_bytes / 1e6:.1f} MB) "
          f"in {stats.seconds:.1f}s")
    for kind in KINDS:
        count = stats.counts[kind]
        total, smallest, largest = stats.sizes[kind]
        if count:
            print(f"  {kind:<9} {count:>8,} files  avg {total / count:6.0f} B "
                  f"(target ~{TARGET_SIZE[kind]} B, min {smallest}, max {largest})")
    print(f"  sha256 {stats.sha256}")


def pass_fail(ok):
    return "PASS" if ok else "FAIL"


def summarize(n, results):
    """Print the per-tool table and the targets; return the verdicts."""
    rows = {}
    for tool in results:
        seconds = [run.seconds for run in results[tool]]
        rows[tool] = {
            "median": statistics.median(seconds),
            "min": min(seconds),
            "max": max(seconds),
            "rss_mib": max(run.maxrss_kib for run in results[tool]) / 1024,
            "cpu": statistics.median(run.cpu_seconds for run in results[tool]),
            "all_ok": all(run.exit_code == 0 for run in results[tool]),
        }
    print()
    print(f"  {'tool':<7} {'median s':>9} {'min s':>9} {'max s':>9} {'CPU s':>7} {'files/s':>11} "
          f"{'peak RSS MiB':>13}  exit")
    for tool, row in rows.items():
        files_per_second = n / row["median"] if row["median"] > 0 else float("inf")
        print(f"  {tool:<7} {row['median']:9.3f} {row['min']:9.3f} {row['max']:9.3f} {row['cpu']:7.2f} "
              f"{files_per_second:11,.0f} {row['rss_mib']:13.1f}  "
              f"{'0' if row['all_ok'] else 'FAILED'}")
    folio_over_cat = rows["folio"]["median"] / rows["cat"]["median"]
    if "baseline" in rows:
        print(f"\n  folio/baseline (median wall) {rows['folio']['median'] / rows['baseline']['median']:.2f}x, "
              f"CPU {rows['folio']['cpu'] / rows['baseline']['cpu']:.2f}x (target <= 1x)")
    pyyaml_over_folio = rows["pyyaml"]["median"] / rows["folio"]["median"]
    folio_rss = rows["folio"]["rss_mib"]
    valid = rows["folio"]["all_ok"]  # a folio that fails cannot pass anything
    verdicts = {
        "folio/cat": (f"{folio_over_cat:.2f}x",
                      valid and folio_over_cat <= TARGET_FOLIO_OVER_CAT),
        "pyyaml/folio": (f"{pyyaml_over_folio:.2f}x",
                         valid and pyyaml_over_folio >= TARGET_PYYAML_OVER_FOLIO),
        "folio RSS": (f"{folio_rss:.1f} MiB", valid and folio_rss < TARGET_PEAK_RSS_MIB),
    }
    targets = {
        "folio/cat": f"<= {TARGET_FOLIO_OVER_CAT:g}x (within 2x of cat)",
        "pyyaml/folio": f">= {TARGET_PYYAML_OVER_FOLIO:g}x (10x faster than PyYAML)",
        "folio RSS": f"< {TARGET_PEAK_RSS_MIB:g} MiB peak",
    }
    print()
    for name, (value, ok) in verdicts.items():
        print(f"  {name:<13} {value:>11}   target {targets[name]:<36} {pass_fail(ok)}")
    if not valid:
        print("  FAIL: folio exited non-zero, so its numbers mean nothing "
              "(rerun with --keep and run `folio check` on the tree by hand).")
    print()
    return verdicts


def print_summary(all_verdicts):
    print("Summary (PASS/FAIL per target)")
    names = ("folio/cat", "pyyaml/folio", "folio RSS")
    print(f"  {'N':>10}  " + "  ".join(f"{name:<22}" for name in names))
    for n, verdicts in all_verdicts:
        cells = [f"{pass_fail(verdicts[name][1])} ({verdicts[name][0]})" for name in names]
        print(f"  {n:>10,}  " + "  ".join(f"{cell:<22}" for cell in cells))


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def parse_args():
    parser = argparse.ArgumentParser(
        description="Benchmark `folio check` against cat and PyYAML (see the module docstring).")
    parser.add_argument("--files", type=int, action="append", metavar="N",
                        help="number of documents; repeat for several sizes (default 100000)")
    parser.add_argument("--runs", type=int, default=5, metavar="R",
                        help="timed runs per tool (default 5)")
    parser.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    parser.add_argument("--folio", type=Path, default=DEFAULT_FOLIO,
                        help="folio binary (default: .build/release/folio in the package root)")
    parser.add_argument("--workdir", type=Path,
                        help="where to create the trees (default: a fresh folder under /tmp)")
    parser.add_argument("--keep", action="store_true", help="do not delete the generated trees")
    parser.add_argument("--baseline", type=Path, help="another folio binary to run check with, side by side")
    parser.add_argument("--pyyaml-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.files = args.files or [100000]
    if any(n < 1 for n in args.files) or args.runs < 1:
        parser.error("--files and --runs must be at least 1")
    return args


def main():
    args = parse_args()
    if args.pyyaml_child:
        return parse_tree_with_pyyaml(args.pyyaml_child)

    folio = args.folio.resolve()
    if not (folio.is_file() and os.access(folio, os.X_OK)):
        sys.exit(f"folio binary not found at {folio}; run `swift build -c release` first "
                 "or pass --folio PATH")
    print_header(args, folio)

    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
        base, own_base = str(args.workdir), False
    else:
        base, own_base = tempfile.mkdtemp(prefix="folio-bench-", dir="/tmp"), True

    all_verdicts = []
    try:
        for n in args.files:
            root = tempfile.mkdtemp(prefix=f"files-{n}-", dir=base)  # fresh for every N
            try:
                stats = generate_tree(root, n, args.seed)
                print_tree_stats(n, root, stats)
                if GNU_TIME:
                    print("  peak RSS: as reported by GNU time (/usr/bin/time -f %M)")
                else:
                    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                    print(f"  RSS floor: {floor:.1f} MiB (the benchmark's own peak RSS, which "
                          "Linux counts in every child's ru_maxrss; install GNU time to avoid it)")
                results = benchmark(folio, root, n, args.runs, args.baseline)
                all_verdicts.append((n, summarize(n, results)))
            finally:
                if not args.keep:
                    shutil.rmtree(root, ignore_errors=True)
    finally:
        if args.keep:
            print(f"Kept the generated trees under {base}")
        elif own_base:
            shutil.rmtree(base, ignore_errors=True)
    print_summary(all_verdicts)
    passed = all(ok for _, verdicts in all_verdicts for _, ok in verdicts.values())
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
