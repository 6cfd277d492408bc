"""Devices that keep a folder in step through a git remote served by a real OpenSSH server on
127.0.0.1, each following its clone with `folio watch DIR --git-sync` (for devices.py and
Benchmarks/gitsync.py).

Loopback only. sshd runs with its own host key, port, configuration and authorized key, in the
scratch folder; each device reaches it through its own client configuration
(`GIT_SSH_COMMAND="ssh -F CONFIG"`), so one device can be taken offline by pointing its
configuration at a closed port while the others stay online. git runs away from the user's
configuration (HOME in the scratch folder, GIT_CONFIG_NOSYSTEM). Every wait is bounded; every
process started is stopped (its process group) by `Cluster.stop`.
"""
import os
import shutil
import signal
import sys
import subprocess
import threading
import time

LOOPBACK = "127.0.0.1"
SSHD = shutil.which("sshd") or next((p for p in ("/usr/sbin/sshd", "/usr/bin/sshd") if os.path.exists(p)), None)
GIT = shutil.which("git")


# A TCP port free on the loopback interface: the Syncthing harness's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Syncthing"))
from stlib import free_port  # noqa: E402


def closed_port():
    """A loopback port nothing listens on (bound a moment, then let go): a connection is refused at once."""
    return free_port()


def wait_until(pred, timeout, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


class SSHRemote:
    """sshd serving `root/remote.git`, a bare repository on branch main."""

    def __init__(self, root):
        self.root = root
        self.port = free_port()
        os.makedirs(root, exist_ok=True)
        for key in ("host", "user"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", self.path(key)], check=True)
        shutil.copy(self.path("user.pub"), self.path("authorized_keys"))
        user = os.environ.get("USER", "root")
        self.user = user
        with open(self.path("sshd_config"), "w") as f:
            f.write(f"""Port {self.port}
ListenAddress {LOOPBACK}
HostKey {self.path("host")}
AuthorizedKeysFile {self.path("authorized_keys")}
PidFile {self.path("sshd.pid")}
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers {user}
MaxStartups 100
""")
        self.repository = os.path.join(root, "remote.git")
        subprocess.run([GIT, "init", "-q", "--bare", "-b", "main", self.repository], check=True, env=git_env(root))

    def path(self, name):
        return os.path.join(self.root, name)

    def client_config(self, path, online=True):
        """Writes a client configuration reaching this server (or, offline, a closed port)."""
        port = self.port if online else closed_port()
        with open(path + ".new", "w") as f:
            f.write(f"""Host folio-remote
  HostName {LOOPBACK}
  Port {port}
  User {self.user}
  IdentityFile {self.path("user")}
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  BatchMode yes
  ConnectTimeout 5
  ServerAliveInterval 5
  ServerAliveCountMax 3
  LogLevel ERROR
""")
        os.replace(path + ".new", path)

    def url(self):
        return f"folio-remote:{self.repository}"

    def start(self, timeout=10):
        os.makedirs("/run/sshd", exist_ok=True)
        subprocess.run([SSHD, "-f", self.path("sshd_config"), "-E", self.path("sshd.log")], check=True)
        probe = self.path("probe_config")
        self.client_config(probe)
        wait_until(lambda: subprocess.run(["ssh", "-F", probe, "folio-remote", "true"], capture_output=True).returncode == 0,
                   timeout, 0.1, "sshd to let a client in")

    def stop(self):
        try:
            pid = int(open(self.path("sshd.pid")).read().strip())
        except (OSError, ValueError):
            return
        try:
            os.kill(pid, signal.SIGTERM)
            wait_until(lambda: not _alive(pid), 5, 0.05, "sshd to stop")
        except (ProcessLookupError, TimeoutError):
            pass

    def head(self):
        out = subprocess.run([GIT, "-C", self.repository, "rev-parse", "--verify", "-q", "main"], capture_output=True, text=True, env=git_env(self.root))
        return out.stdout.strip() or None


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def git_env(home, extra=None):
    env = dict(os.environ)
    # GIT_OPTIONAL_LOCKS=0: the harness's own `git status` polls never hold index.lock,
    # which a pass would take for the user's git at work.
    env.update(HOME=home, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C", GIT_OPTIONAL_LOCKS="0")
    env.update(extra or {})
    return env


class Device:
    """A clone of the remote followed by `folio watch --git-sync`; its output collected by a thread."""

    def __init__(self, root, name, remote, folio):
        self.name = name
        self.root = root
        self.remote = remote
        self.folio = folio
        self.folder = os.path.join(root, name)
        self.state = os.path.join(root, "state-" + name)
        self.ssh_config = os.path.join(root, "ssh-" + name)
        remote.client_config(self.ssh_config)
        self.env = git_env(root, {"GIT_SSH_COMMAND": f"ssh -F {self.ssh_config}"})
        self.process = None
        self.lines = []          # (monotonic time, stream, line)
        self.lock = threading.Lock()

    def git(self, *args, check=True):
        out = subprocess.run([GIT, "-C", self.folder, *args], capture_output=True, text=True, env=self.env)
        if check and out.returncode != 0:
            raise RuntimeError(f"{self.name}: git {' '.join(args)}: {out.stdout}{out.stderr}")
        return out.stdout

    def clone(self):
        subprocess.run([GIT, "clone", "-q", self.remote.url(), self.folder], check=True, env=self.env, capture_output=True)
        self.git("config", "user.name", self.name)
        self.git("config", "user.email", f"{self.name.lower()}@example.org")

    def watch(self, commit_after="1s", fetch_every="2s"):
        self.process = subprocess.Popen(
            [self.folio, "watch", self.folder, "--git-sync", "--commit-after", commit_after, "--fetch-every", fetch_every,
             "--state", self.state, "--device", self.name],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=self.env, text=True,
            start_new_session=True)
        for stream, name in ((self.process.stdout, "out"), (self.process.stderr, "err")):
            threading.Thread(target=self._collect, args=(stream, name), daemon=True).start()
        wait_until(lambda: any("Ctrl-C stops" in l for _, s, l in self.output()), 60, 0.05, f"{self.name}'s watch to start")

    def _collect(self, stream, name):
        for line in stream:
            with self.lock:
                self.lines.append((time.monotonic(), name, line.rstrip("\n")))

    def output(self):
        with self.lock:
            return list(self.lines)

    def errors(self):
        return [l for _, s, l in self.output() if s == "err"]

    def set_online(self, online):
        self.remote.client_config(self.ssh_config, online)

    def stop(self, timeout=20):
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            return -9

    def path(self, rel):
        return os.path.join(self.folder, rel)

    def read(self, rel):
        try:
            with open(self.path(rel), encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def write(self, rel, text):
        """Saves as an editor does: a temporary file beside, renamed over."""
        path = self.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".swp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)

    def files(self):
        """Every file of the work tree but .git and .folio (the fold's own history, which git
        never tracks: `.folio/.gitignore`), path -> text."""
        found = {}
        for folder, dirs, names in os.walk(self.folder):
            for own in (".git", ".folio"):
                if own in dirs:
                    dirs.remove(own)
            for name in names:
                rel = os.path.relpath(os.path.join(folder, name), self.folder)
                found[rel] = self.read(rel)
        return found

    def head(self):
        return self.git("rev-parse", "HEAD").strip()

    def status(self):
        return self.git("status", "--porcelain")


class Cluster:
    """A remote and `names` devices, each cloned and followed."""

    def __init__(self, root, names, folio, files):
        self.root = root
        self.remote = SSHRemote(os.path.join(root, "sshd"))
        self.remote.start()
        seed = Device(root, "seed", self.remote, folio)
        seed.clone()
        for rel, text in files.items():
            seed.write(rel, text)
        seed.git("add", "-A")
        seed.git("commit", "-qm", "first")
        seed.git("push", "-q", "origin", "HEAD:main")
        shutil.rmtree(seed.folder)
        self.devices = [Device(root, n, self.remote, folio) for n in names]
        for d in self.devices:
            d.clone()

    def watch(self, **timing):
        for d in self.devices:
            d.watch(**timing)

    def in_step(self):
        """Every device's head is the remote's and its work tree clean and equal to the others'."""
        head = self.remote.head()
        trees = []
        for d in self.devices:
            if d.head() != head or d.status() != "":
                return False
            trees.append(d.files())
        return all(t == trees[0] for t in trees)

    def describe(self):
        """What each device holds and said, for a failure's message."""
        lines = [f"remote head {self.remote.head()}"]
        trees = {d.name: d.files() for d in self.devices}
        for d in self.devices:
            lines.append(f"{d.name}: head {d.head()}, status {d.status()!r}")
            if d.process and d.process.poll() is None:
                # What the watch is running now: a git command that hangs shows here.
                children = subprocess.run(["ps", "-o", "pid=,etime=,args=", "--ppid", str(d.process.pid)], capture_output=True, text=True).stdout
                lines += [f"  running: {c.strip()}" for c in children.splitlines()]
            lines += [f"  {s}: {l}" for _, s, l in d.output()[-25:]]
            others = [t for n, t in trees.items() if n != d.name]
            differing = sorted({p for t in others for p in set(t) | set(trees[d.name]) if t.get(p) != trees[d.name].get(p)})
            lines.append(f"  differs from the others in: {differing[:8]}")
        return "\n".join(lines)

    def stop(self):
        codes = {d.name: d.stop() for d in self.devices}
        self.remote.stop()
        return codes
