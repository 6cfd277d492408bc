"""A small harness that runs several real Syncthing (1.19.x) instances on this machine, for Folio's
end-to-end tests (see scenarios.py).

Loopback only: each instance's GUI/REST listens on 127.0.0.1:<port> (HTTP, API key) and its sync protocol
on tcp://127.0.0.1:<port>; global and local discovery, relays, NAT traversal, usage and crash reporting and
upgrade checks are all off, proxies are ignored. Every wait is bounded. Each instance runs in its own process
group so that it, and anything it spawns, can be stopped as a whole.

Timings measured while this was written (2 instances, idle machine): start -> connected ~1 s; a new file ->
on the peer ~0.8 s with fsWatcherDelayS=1; pause -> disconnected ~0.01 s; resume -> reconnected ~0.1 s when
the listening side is resumed first (see resume_all).
"""
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

SYNCTHING = shutil.which("syncthing") or "/usr/bin/syncthing"
FOLDER_ID = "folio"
LOOPBACK = "127.0.0.1"
TEMPORARY = re.compile(r"^(\.syncthing\..*\.tmp|~syncthing~.*\.tmp)$")   # Syncthing's partial downloads
# Folio's file being written (`.NAME.folio-TAG-N.tmp`): named or removed a moment later, so a listing taken
# while Folio writes leaves it out; one still there once a round has settled is a problem (session.py).
FOLIO_TEMPORARY = re.compile(r"^\..+\.folio-\d+-\d+\.tmp$")


def free_port():
    """A TCP port free on the loopback interface right now."""
    s = socket.socket()
    s.bind((LOOPBACK, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def st_env(home):
    """The environment for one instance: its own $HOME, and no upgrades, restarts, proxies or default folder."""
    env = dict(os.environ)
    env.update(HOME=home,              # syncthing expands ~ and looks at $HOME: keep it inside the sandbox
               STNODEFAULTFOLDER="1",  # no ~/Sync default folder
               STNOUPGRADE="1",        # no upgrade checks
               STNORESTART="1",        # no monitor parent: the pid we start IS syncthing
               STHASHING="minio",      # skip the ~0.8 s SHA-256 benchmark at startup
               STMONITORED="")
    for key in ("all_proxy", "http_proxy", "https_proxy", "ALL_PROXY", "HTTP_PROXY", "HTTPS_PROXY"):
        env.pop(key, None)
    return env


CONFIG_TMPL = """<configuration version="36">
{devices}
    <folder id="{folder_id}" label="{folder_id}" path="{folder_path}" type="sendreceive" rescanIntervalS="{rescan}" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
{folder_devices}
        <minDiskFree unit="%">0</minDiskFree>
        <versioning></versioning>
        <maxConflicts>10</maxConflicts>
        <markerName>.stfolder</markerName>
        <paused>false</paused>
        <modTimeWindowS>0</modTimeWindowS>
    </folder>
    <gui enabled="true" tls="false" debugging="false">
        <address>{loopback}:{gui_port}</address>
        <apikey>{apikey}</apikey>
        <theme>default</theme>
    </gui>
    <options>
        <listenAddress>tcp://{loopback}:{listen_port}</listenAddress>
        <globalAnnounceServer></globalAnnounceServer>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <reconnectionIntervalS>{reconnect}</reconnectionIntervalS>
        <relaysEnabled>false</relaysEnabled>
        <startBrowser>false</startBrowser>
        <natEnabled>false</natEnabled>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <urURL></urURL>
        <urInitialDelayS>3600</urInitialDelayS>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <upgradeToPreReleases>false</upgradeToPreReleases>
        <releasesURL></releasesURL>
        <crashReportingEnabled>false</crashReportingEnabled>
        <crashReportingURL></crashReportingURL>
        <stunServer></stunServer>
        <announceLANAddresses>false</announceLANAddresses>
        <restartOnWakeup>false</restartOnWakeup>
        <setLowPriority>false</setLowPriority>
        <minHomeDiskFree unit="%">0</minHomeDiskFree>
        <unackedNotificationID></unackedNotificationID>
    </options>
</configuration>
"""

DEVICE_TMPL = """    <device id="{id}" name="{name}" compression="metadata" introducer="false">
        <address>{address}</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>"""


def stop_process_group(proc, sig=signal.SIGTERM, timeout=15):
    """Send `sig` to the process group `proc` leads (started with start_new_session=True), wait up to
    `timeout` s, then SIGKILL the group. Returns the exit status."""
    if proc is None:
        return None
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)
    return proc.returncode


class Node:
    """One Syncthing instance: ROOT/NAME/home (config, keys, database), ROOT/NAME/data (the shared folder),
    ROOT/NAME/syncthing.log."""

    def __init__(self, root, name):
        self.name = name
        self.home = os.path.join(root, name, "home")
        self.data = os.path.join(root, name, "data")
        self.gui_port = free_port()
        self.listen_port = free_port()
        self.apikey = secrets.token_hex(16)
        self.proc = None
        self.logf = None
        self.dials = set()
        self.log = os.path.join(root, name, "syncthing.log")
        os.makedirs(self.home, exist_ok=True)
        os.makedirs(os.path.join(self.data, ".stfolder"), exist_ok=True)
        out = subprocess.run([SYNCTHING, "generate", f"--home={self.home}", "--no-default-folder"],
                             env=st_env(self.home), capture_output=True, text=True, timeout=30)
        m = re.search(r"Device ID: (\S+)", out.stdout + out.stderr)
        if not m:
            raise RuntimeError(f"syncthing generate printed no device ID: {out.stdout}{out.stderr}")
        self.id = m.group(1)
        self.short = self.id[:7]   # what Syncthing puts in conflict copy names

    @property
    def url(self):
        return f"http://{LOOPBACK}:{self.gui_port}"

    def write_config(self, peers, dials, rescan=10, reconnect=1):
        """peers: the other Nodes sharing the folder. dials: names of the peers this node dials (it gets their
        static loopback address); the others are 'dynamic' (they dial us, and there is no discovery)."""
        self.dials = set(dials)
        devices = [DEVICE_TMPL.format(id=self.id, name=self.name, address="dynamic")]
        for p in peers:
            address = f"tcp://{LOOPBACK}:{p.listen_port}" if p.name in self.dials else "dynamic"
            devices.append(DEVICE_TMPL.format(id=p.id, name=p.name, address=address))
        folder_devices = "\n".join(f'        <device id="{d.id}" introducedBy=""></device>' for d in [self] + peers)
        xml = CONFIG_TMPL.format(devices="\n".join(devices), folder_id=FOLDER_ID, folder_path=self.data,
                                 rescan=rescan, folder_devices=folder_devices, loopback=LOOPBACK,
                                 gui_port=self.gui_port, apikey=self.apikey, listen_port=self.listen_port,
                                 reconnect=reconnect)
        with open(os.path.join(self.home, "config.xml"), "w") as f:
            f.write(xml)

    # ---- process ----

    def start(self):
        self.logf = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [SYNCTHING, "serve", f"--home={self.home}", "--no-browser", "--no-restart", "--no-upgrade",
             "--logflags=3"],
            env=st_env(self.home), stdout=self.logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        return self.proc

    def stop(self, timeout=15):
        """Ask for a clean shutdown over REST, then SIGTERM, then SIGKILL the process group. Idempotent."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.post("/rest/system/shutdown", timeout=3)
                self.proc.wait(timeout=timeout)
            except Exception:
                pass
            stop_process_group(self.proc, timeout=5)
        if self.logf is not None:
            self.logf.close()
            self.logf = None

    # ---- REST ----

    def req(self, method, path, body=None, timeout=10):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(self.url + path, data=data, method=method)
        r.add_header("X-API-Key", self.apikey)
        if data is not None:
            r.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
        with opener.open(r, timeout=timeout) as resp:
            text = resp.read().decode()
            try:
                return json.loads(text) if text else None
            except ValueError:
                return text

    def get(self, path, **kw):
        return self.req("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.req("POST", path, body, **kw)

    def wait_up(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"syncthing {self.name} exited with {self.proc.returncode}, see {self.log}")
            try:
                if self.get("/rest/system/ping", timeout=2) == {"ping": "pong"}:
                    return
            except Exception:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"syncthing {self.name}: REST not up within {timeout}s")

    def connected_to(self, peer):
        c = self.get("/rest/system/connections")["connections"].get(peer.id, {})
        return bool(c.get("connected"))

    def pause(self, peer=None):
        """Pause one peer, or every peer."""
        return self.post("/rest/system/pause" + (f"?device={peer.id}" if peer else ""))

    def resume(self, peer=None):
        return self.post("/rest/system/resume" + (f"?device={peer.id}" if peer else ""))

    def pause_folder(self, paused=True):
        """Pause (or unpause) the shared folder only: the device stays connected, but Syncthing neither scans
        nor syncs the folder until it is unpaused (then it scans it whole)."""
        return self.req("PATCH", f"/rest/config/folders/{FOLDER_ID}", {"paused": paused})

    def scan(self, timeout=60):
        """Rescan the folder now (returns when the scan is done)."""
        return self.post(f"/rest/db/scan?folder={FOLDER_ID}", timeout=timeout)

    def status(self):
        return self.get(f"/rest/db/status?folder={FOLDER_ID}")

    def completion(self, peer):
        return self.get(f"/rest/db/completion?folder={FOLDER_ID}&device={peer.id}")

    # ---- the shared folder ----

    def path(self, rel):
        return os.path.join(self.data, rel)

    def listdir(self, temporaries=False):
        """Relative paths of the files in the shared folder, without Syncthing's own (.stfolder, .stversions),
        Folio's shared history (.folio) and, unless `temporaries`, without its temporary files (a pull that
        was cut short leaves one, kept for reuse for a day)."""
        out = []
        for dirpath, dirnames, filenames in os.walk(self.data):
            dirnames[:] = [d for d in dirnames if d not in (".stfolder", ".stversions", ".folio")]
            out += [os.path.relpath(os.path.join(dirpath, f), self.data) for f in filenames
                    if temporaries or not (TEMPORARY.match(f) or FOLIO_TEMPORARY.match(f))]
        return sorted(out)

    def temporaries(self):
        return [f for f in self.listdir(temporaries=True) if TEMPORARY.match(os.path.basename(f))]

    def read(self, rel):
        try:
            with open(self.path(rel), encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return None


def wait_until(pred, timeout, interval=0.1, what="condition"):
    """Poll `pred` until it is true; TimeoutError after `timeout` s. Exceptions (a REST call during
    startup) count as false."""
    deadline = time.monotonic() + timeout
    last_exc = None
    while time.monotonic() < deadline:
        try:
            if pred():
                return True
        except Exception as e:
            last_exc = e
        time.sleep(interval)
    raise TimeoutError(f"timeout {timeout}s waiting for {what}" + (f" (last error: {last_exc})" if last_exc else ""))


def make_cluster(root, names, dial_pairs, rescan=10, reconnect=1):
    """Fresh nodes under `root`. dial_pairs: (dialer, listener) names; the dialer knows the listener's address.
    Keep the dial graph acyclic (start_cluster starts listeners first)."""
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    nodes = [Node(root, n) for n in names]
    for n in nodes:
        n.write_config([p for p in nodes if p is not n], {b for a, b in dial_pairs if a == n.name},
                       rescan=rescan, reconnect=reconnect)
    return nodes


def start_cluster(nodes, timeout=30):
    """Start in tiers: a node only once every node it dials is up (REST up implies its listener is up).
    A dialer started before its target listens waits a fixed ~5 s before redialling."""
    started = set()
    while len(started) < len(nodes):
        tier = [n for n in nodes if n.name not in started and n.dials <= started]
        if not tier:
            raise RuntimeError("the dial graph has a cycle")
        for n in tier:
            n.start()
        for n in tier:
            n.wait_up(timeout)
        started |= {n.name for n in tier}
    wait_until(lambda: all_connected(nodes), timeout, what="all devices connected")


def stop_cluster(nodes):
    for n in nodes:
        try:
            n.stop()
        except Exception:
            pass


def all_connected(nodes):
    return all(a.connected_to(b) for a in nodes for b in nodes if a is not b)


def all_disconnected(nodes):
    return not any(a.connected_to(b) for a in nodes for b in nodes if a is not b)


def _dialers_first(nodes):
    return sorted(nodes, key=lambda n: -len(n.dials))


def pause_all(nodes, timeout=15):
    """Cut every connection. Dialers are paused first: if a listener closed the socket first, its dialer
    would see a plain EOF and schedule its next dial >= 5 s later, which a resume does not cut short."""
    for n in _dialers_first(nodes):
        n.pause()
        for p in nodes:
            if p.name in n.dials:
                wait_until(lambda: not n.connected_to(p), timeout, what=f"{n.name} dropping {p.name}")
    wait_until(lambda: all_disconnected(nodes), timeout, what="all devices disconnected")


def resume_all(nodes, timeout=30):
    """Resume listeners first (a dialer resumed first would dial a still-paused peer, be refused, and
    retry only ~5 s later), then wait until every pair is connected again."""
    for n in reversed(_dialers_first(nodes)):
        n.resume()
    wait_until(lambda: all_connected(nodes), timeout, what="all devices reconnected")


def in_sync_snapshot(nodes, shares=lambda n, p: True):
    """True if every node is idle and needs nothing, sees every peer it shares the folder with (`shares`) at
    100% with its latest index, and all agree on the global file count and size."""
    return not_in_sync_because(nodes, shares) is None


def not_in_sync_because(nodes, shares=lambda n, p: True):
    """Why in_sync_snapshot is false (the first check that fails), or None."""
    seqs = {n.name: n.status()["sequence"] for n in nodes}
    globals_ = {}
    for n in nodes:
        s = n.status()
        if s["state"] != "idle" or s["needFiles"] or s["needDeletes"] or s["needBytes"] or s.get("pullErrors"):
            return (f"{n.name}: {s['state']}, needs {s['needFiles']} files and {s['needDeletes']} deletes,"
                    f" {s.get('pullErrors', 0)} pull errors")
        # Not the deleted records: a device that joined later (D, sharing with A only) may keep one
        # tombstone fewer for good, with the same files (seed 3 of session.py).
        globals_[n.name] = (s["globalFiles"], s["globalDirectories"], s["globalBytes"])
        for p in nodes:
            if p is n or not shares(n, p):
                continue
            c = n.completion(p)
            if c["completion"] != 100 or c["needBytes"] or c["needItems"] or c["needDeletes"]:
                return f"{n.name} sees {p.name} at {c['completion']:.1f}% ({c['needItems']} items, {c['needDeletes']} deletes)"
            if c["sequence"] != seqs[p.name]:   # n has not yet seen p's latest index
                return f"{n.name} has not seen {p.name}'s latest index"
    if len(set(globals_.values())) != 1:
        return "global counts differ: " + ", ".join(f"{k}={v}" for k, v in sorted(globals_.items()))
    return None


def wait_in_sync(nodes, timeout=60, stable=2):
    """Wait for `stable` consecutive in-sync snapshots 0.25 s apart (rides over index-exchange races)."""
    deadline = time.monotonic() + timeout
    ok = 0
    while time.monotonic() < deadline:
        try:
            ok = ok + 1 if in_sync_snapshot(nodes) else 0
        except Exception:
            ok = 0
        if ok >= stable:
            return True
        time.sleep(0.25)
    raise TimeoutError(f"devices not in sync within {timeout}s")


def is_in_sync(nodes):
    try:
        return in_sync_snapshot(nodes)
    except Exception:
        return False
