"""A real Ray cluster on this machine for the tests: a head and worker nodes, each started with `ray start --block`.

The cluster keeps to itself: its own token (token authentication, as recent Ray versions
enable by default), its own temporary folder (short: Ray's socket paths must fit in
107 bytes), free ports on this machine, and each node in its own session, so killing a
node's process group kills that node and nothing else. It never calls `ray stop`, which
stops every Ray process of the user on the machine, other clusters included.

A node may be started with folders hidden from it (an empty tmpfs mounted over each, in
a user and mount namespace of its own): that is how one machine shows a node that does
not see the shared file system.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAY = [sys.executable, "-m", "ray.scripts.scripts"]  # the `ray` command of this interpreter: its workers import this auditex
_START_S = 180.0  # a node that has not started by then fails the test, with its log


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def can_hide_folders() -> bool:
    """Whether this machine lets an unprivileged user mount in a namespace of their own."""
    if shutil.which("unshare") is None:
        return False
    try:
        return subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


class RayCluster:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="auditex-ray-", dir="/tmp"))
        token = self.root / "token"
        token.write_text(secrets.token_hex(32))
        token.chmod(0o600)
        self.env = {
            **os.environ,
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN_PATH": str(token),
            "RAY_USAGE_STATS_ENABLED": "0",
        }
        self.env.pop("RAY_ADDRESS", None)
        self.port = free_port()
        self.nodes: list[subprocess.Popen] = []

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start_node(self, *, head: bool = False, hidden: tuple[Path, ...] = ()) -> subprocess.Popen:
        """Start a node with 1 CPU and wait until Ray says it runs; `hidden` folders look empty to it."""
        ports = {
            "--node-manager-port": free_port(),
            "--object-manager-port": free_port(),
            "--dashboard-agent-listen-port": free_port(),
            "--dashboard-agent-grpc-port": free_port(),
            "--runtime-env-agent-port": free_port(),
            "--metrics-export-port": free_port(),
        }
        command = [*RAY, "start", "--block", "--num-cpus=1", "--disable-usage-stats", *(f"{k}={v}" for k, v in ports.items())]
        if head:
            command += ["--head", f"--port={self.port}", "--include-dashboard=false", f"--dashboard-port={free_port()}"]
            command += [f"--temp-dir={self.root / 'ray'}"]
        else:
            command += [f"--address={self.address}"]
        if hidden:
            mounts = " && ".join(f"mount -t tmpfs none '{folder}'" for folder in hidden)
            command = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", f'{mounts} && exec "$@"', "sh", *command]
        log = self.root / f"node-{len(self.nodes)}.log"
        with log.open("wb") as out:
            node = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.nodes.append(node)
        deadline = time.monotonic() + _START_S
        while "Ray runtime started" not in log.read_text(errors="replace"):
            if node.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the Ray node did not start ({' '.join(command)}):\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)
        return node

    def kill(self, node: subprocess.Popen) -> None:
        """The whole node at once, as when its machine dies: every process of its session."""
        try:
            os.killpg(node.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        node.wait(timeout=30)

    def stop(self) -> None:
        for node in self.nodes:
            self.kill(node)
        # The head's GCS and its other daemons were started in the head's session too.
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> RayCluster:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
