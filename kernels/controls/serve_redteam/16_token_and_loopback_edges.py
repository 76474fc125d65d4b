#!/usr/bin/env python3
"""T16. Edges of the token and loopback rules (low): the loopback test is a string prefix, so a
host NAME beginning "127." starts without a token and binds wherever DNS points it; and
/v1/health answers everyone, with the judge's configuration and the live queue.

is_loopback (http_api.cc:54-56) is `host == "localhost" || host == "::1" ||
host.rfind("127.", 0) == 0`; cmd_serve.cc:70 then skips the token; the bind (http_api.cc
HttpServer::start) resolves the name. "127.0.0.1.nip.io"-style or "127.build-17.corp" names
resolve to any address (and "localhost" is whatever /etc/hosts says). Exit 1 (bind failed,
AFTER the token rule passed) for such a name vs exit 2 (token refused) for 10.1.2.3 shows it
here, offline. authorised() (http_api.cc:76-84) lets /v1/health through: versions, GPU arch
and judging options, worker counts and queue depth to anyone who reaches the port (load/timing
side channel across tenants); the token compare (std::string::compare) is not constant-time
(remote timing recovery of a 16+ char token is impractical: noted, not claimed)."""
import sys; sys.dont_write_bytecode = True
import os, subprocess
from _serve import Serve, BINARY, free_port

env = dict(os.environ, PTXBENCH_NO_GPU="1", PTXBENCH_CACHE="/tmp/rt-cache")
env.pop("PTXBENCH_SERVE_TOKEN", None)
codes = {}
for host in ("127.attacker.example", "10.1.2.3"):
    r = subprocess.run([BINARY, "serve", "--host", host, "--port", str(free_port()),
                        "--store", f"/tmp/rt-edge-{os.getpid()}.db"], env=env,
                       capture_output=True, text=True, timeout=60)
    codes[host] = r.returncode
    print(f"--host {host}: exit {r.returncode}: {r.stderr.strip()[:110]}")
for f in (f"/tmp/rt-edge-{os.getpid()}.db", f"/tmp/rt-edge-{os.getpid()}.db-wal", f"/tmp/rt-edge-{os.getpid()}.db-shm"):
    if os.path.exists(f):
        os.remove(f)
s = Serve(env={"PTXBENCH_SERVE_TOKEN": "a-token-nobody-here-knows-0123456789"})
st, h = s.call("GET", "/v1/health")
st2, _ = s.call("GET", "/v1/jobs/1")
print(f"no token: /v1/health {st} {str(h)[:150]}...; /v1/jobs/1 {st2}")
print("WORKS" if codes["127.attacker.example"] == 1 and codes["10.1.2.3"] == 2 and st == 200 else "does not reproduce")
s.stop()
