#!/usr/bin/env python3
"""A folder swapped for a symbolic link while a sync runs: does anything land outside?

Replica B's folder `sub` trades places, over and over (renameat2 RENAME_EXCHANGE, at
seeded random moments), with a link to a canary folder outside A, B and the state.
Meanwhile the tool under test syncs new and edited files of A/sub into B: `folio sync`
run many times, `folio watch A B` left running, or `rsync -a` for comparison. inotify on
the canary counts every open, read, write, create, delete or rename there; afterwards
A, B and the state are searched for the canary's secret.

Prints one line per tool, then `N passed, M failed` (folio's counts must all be 0).
Only temporary folders are touched; every process started is stopped.
"""
import argparse, ctypes, ctypes.util, json, os, random, select, shutil, signal, struct, subprocess, sys, tempfile, threading, time

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
AT_FDCWD = -100
RENAME_EXCHANGE = 2
SYS_RENAMEAT2 = {"x86_64": 316, "aarch64": 276}.get(os.uname().machine, 316)
IN_ACCESS, IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE, IN_OPEN = 0x1, 0x2, 0x4, 0x8, 0x20
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
READS = IN_ACCESS | IN_OPEN
WRITES = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
SECRET = "CANARY-SECRET-1f3a"


def exchange(a, b):
    if libc.syscall(SYS_RENAMEAT2, AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_EXCHANGE) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")


class Canary:
    """inotify on the canary folder: counts of reads and writes, by moment."""
    def __init__(self, path):
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, path.encode(), READS | WRITES) < 0:
            raise OSError(ctypes.get_errno(), "inotify")
        self.reads = self.writes = 0
        self.names = set()
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            offset = 0
            while offset < len(data):
                _, mask, _, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16: offset + 16 + length].rstrip(b"\0").decode(errors="replace")
                offset += 16 + length
                if mask & READS:
                    self.reads += 1
                if mask & WRITES:
                    self.writes += 1
                self.names.add(name)

    def snapshot(self):
        time.sleep(0.15)  # let the reader catch up
        return self.reads, self.writes

    def close(self):
        self.stop = True
        self.thread.join()
        os.close(self.fd)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def contains_secret(folder):
    for top, _, files in os.walk(folder):
        for name in files:
            try:
                with open(os.path.join(top, name), "rb") as f:
                    if SECRET.encode() in f.read():
                        return os.path.join(top, name)
            except OSError:
                pass
    return None


def run_loop(tool, folio, syncs, seed, files_per_round):
    rng = random.Random(seed)
    root = tempfile.mkdtemp(prefix="folio-swaploop-")
    a, b, state, canary = (os.path.join(root, n) for n in ("A", "B", "state", "canary"))
    for folder in (a, b, canary):
        os.makedirs(folder)
    os.makedirs(os.path.join(a, "sub"))
    os.makedirs(os.path.join(b, "sub"))
    # The canary holds files named as A's will be, so that a read through the link finds them.
    for index in range(files_per_round * syncs + 50):
        write(os.path.join(canary, f"n{index}.md"), f"---\ntitle: {SECRET}\n---\nprivate {index}\n")
    os.symlink(canary, os.path.join(b, "link"))
    watch = Canary(canary)
    stop_swapping = threading.Event()
    swaps = [0]

    def swapper():
        sub, link = os.path.join(b, "sub"), os.path.join(b, "link")
        while not stop_swapping.is_set():
            time.sleep(rng.uniform(0.0005, 0.02))
            try:
                exchange(sub, link)
                swaps[0] += 1
                time.sleep(rng.uniform(0.0005, 0.01))
                exchange(sub, link)
                swaps[0] += 1
            except OSError:
                pass

    env = dict(os.environ, HOME=root, XDG_STATE_HOME=os.path.join(root, "xdg"))
    watcher = None
    if tool == "watch":
        watcher = subprocess.Popen([folio, "watch", a, b, "--state", state], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(1.0)
    thread = threading.Thread(target=swapper, daemon=True)
    thread.start()
    written_outside = read_outside = 0
    count = 0
    try:
        for round_ in range(syncs):
            base = round_ * files_per_round
            for index in range(base, base + files_per_round):
                write(os.path.join(a, "sub", f"n{index}.md"), f"---\ntitle: note {index}\n---\nround {round_}\n")
            if round_ > 0:
                edited = rng.randrange(0, base)
                write(os.path.join(a, "sub", f"n{edited}.md"), f"---\ntitle: note {edited}\n---\nedited in {round_}\n")
            before = watch.snapshot()
            if tool == "sync":
                subprocess.run([folio, "sync", a, b, "--state", state], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=120)
            elif tool == "rsync":
                subprocess.run(["rsync", "-a", a + "/", b + "/"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            else:
                time.sleep(1.2)
            after = watch.snapshot()
            count += 1
            read_outside += after[0] > before[0]
            written_outside += after[1] > before[1]
    finally:
        stop_swapping.set()
        thread.join()
        if watcher:
            os.killpg(watcher.pid, signal.SIGTERM)
            try:
                watcher.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(watcher.pid, signal.SIGKILL)
                watcher.wait()
    reads, writes = watch.snapshot()
    watch.close()
    if os.path.islink(os.path.join(b, "sub")):
        exchange(os.path.join(b, "sub"), os.path.join(b, "link"))
    wanted = set(os.listdir(os.path.join(a, "sub")))
    synced = len(wanted & set(os.listdir(os.path.join(b, "sub"))))
    leaks = [p for p in (contains_secret(a), contains_secret(os.path.join(b, "sub")), contains_secret(state)) if p]
    result = {"tool": tool, "runs": count, "swaps": swaps[0], "runs_writing_outside": written_outside,
              "runs_reading_outside": read_outside, "canary_reads": reads, "canary_writes": writes, "leaked": leaks,
              "synced": f"{synced}/{len(wanted)}"}
    shutil.rmtree(root, ignore_errors=True)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--folio", required=True)
    parser.add_argument("--syncs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=30, help="new files in A/sub per round")
    parser.add_argument("--tools", default="sync,watch", help="comma-separated: sync, watch, rsync")
    args = parser.parse_args()
    passed = failed = 0
    for tool in args.tools.split(","):
        if tool == "rsync" and not shutil.which("rsync"):
            print("rsync is not installed (apt-get install rsync): its comparison is skipped")
            continue
        result = run_loop(tool, args.folio, args.syncs, args.seed, args.files)
        print(json.dumps(result), flush=True)
        if tool == "rsync":
            continue  # the comparison: counted, not judged
        clean = result["runs_writing_outside"] == 0 and result["runs_reading_outside"] == 0 and not result["leaked"] \
            and result["canary_reads"] == 0 and result["canary_writes"] == 0
        # The loop proves something only if the tool did sync while the swaps ran.
        ok = clean and result["swaps"] > 0 and int(result["synced"].split("/")[0]) > 0
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
