"""Shared by the serve red-team reproductions (kernels/controls/serve_redteam.md): start a
`ptxbench serve` of its own (compile-only: PTXBENCH_NO_GPU=1, PTXBENCH_CACHE=/tmp/rt-cache) on
a free port with a store under /tmp, talk to it, and stop it (SIGTERM, then SIGKILL) however the
script ends, removing its /tmp folder (RT_KEEP=1 keeps it). Standard library only. PTXBENCH=path overrides the binary (default: build/ptxbench
of this checkout)."""
from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
BINARY = os.environ.get("PTXBENCH", str(REPO / "build" / "ptxbench"))
GEMM = "gemm_n7168_k5120"
NAIVE = (REPO / "kernels" / "controls" / "gemm" / "naive_correct.cu").read_text()
_started: list = []


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Serve:
    def __init__(self, store: str | None = None, args: list[str] | None = None,
                 env: dict | None = None, preexec=None, wait_up: bool = True):
        self.dir = tempfile.mkdtemp(prefix="rt-serve-", dir="/tmp")
        self.store = store or os.path.join(self.dir, "jobs.db")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        e = dict(os.environ, PTXBENCH_NO_GPU="1", PTXBENCH_CACHE="/tmp/rt-cache")
        e.update(env or {})
        self.log = open(os.path.join(self.dir, "serve.log"), "w+")
        cmd = [BINARY, "serve", "--port", str(self.port), "--store", self.store] + (args or [])
        self.proc = subprocess.Popen(cmd, env=e, stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=preexec)
        _started.append(self)
        if wait_up:
            self.wait_up()

    def wait_up(self, timeout: float = 60) -> None:
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited {self.proc.returncode}: {self.log_text()}")
            if "listening on" in self.log_text():
                return
            time.sleep(0.1)
        raise RuntimeError("serve did not start: " + self.log_text())

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def rss_kib(self) -> int:
        try:
            m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{self.proc.pid}/status").read_text())
            return int(m.group(1)) if m else 0
        except OSError:
            return 0

    def stop(self, sig=signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    # -- HTTP ------------------------------------------------------------------------------
    def call(self, method: str, path: str, body=None, token: str | None = None,
             timeout: float = 120, raw: bool = False):
        data = None if body is None else json.dumps(body).encode()
        h = {"Content-Type": "application/json"}
        if token:
            h["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                text = r.read()
                return r.status, (text if raw else json.loads(text))
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, text

    def post(self, body, **kw):
        return self.call("POST", "/v1/jobs", body, **kw)

    def get(self, job_id: int, wait: float = 0, **kw):
        return self.call("GET", f"/v1/jobs/{job_id}?wait={wait:g}", **kw)

    def wait_done(self, job_id: int, timeout: float = 120, **kw):
        end = time.time() + timeout
        while True:
            st, j = self.get(job_id, wait=min(60, max(0.0, end - time.time())), **kw)
            if j.get("state") in ("done", "cancelled", "expired") or time.time() >= end:
                return j


def _cleanup() -> None:
    for s in _started:
        try:
            s.stop()
        except Exception:
            pass
        if not os.environ.get("RT_KEEP"):  # RT_KEEP=1 keeps the stores and logs
            shutil.rmtree(s.dir, ignore_errors=True)


atexit.register(_cleanup)
for _sig in (signal.SIGINT, signal.SIGTERM):
    signal.signal(_sig, lambda *_: (_cleanup(), os._exit(1)))


def variant(n: int) -> str:
    """A distinct source (a comment) of the naive correct GEMM: a cache miss, ~3 s of nvcc."""
    return f"// variant {n} {time.time_ns()}\n" + NAIVE


def verdict(job: dict) -> str:
    r = job.get("result") or {}
    return (f"id={job.get('id')} state={job.get('state')} cached={job.get('cached')} "
            f"disposition={r.get('disposition')} reward={(r.get('reward') or {}).get('value')}")
