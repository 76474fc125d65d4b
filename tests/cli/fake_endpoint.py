#!/usr/bin/env python3
"""fake_endpoint.py MODE -- COMMAND...: runs COMMAND with every {URL} in it replaced by
the base URL of a local stand-in for an OpenAI-compatible endpoint, and exits with
COMMAND's exit code. MODE:
  dead    nothing listens on the port (connection refused)
  silent  accepts connections and reads the request, but never answers
  error   answers every request with HTTP 500
  stall   answers 200 with an event stream, sends its first event, then goes silent
"""
import socket
import subprocess
import sys
import threading


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(listener, mode):
    held = []  # silent: connections kept open, never answered
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        conn.settimeout(5)
        try:
            conn.recv(65536)
        except OSError:
            pass
        if mode == "silent":
            held.append(conn)
            continue
        if mode == "stall":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         b"Connection: close\r\n\r\n"
                         b'data: {"choices":[{"index":0,"delta":{"content":"```cu"}}]}\n\n')
            held.append(conn)
            continue
        body = b'{"error": {"message": "fake endpoint: internal error"}}'
        conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n"
                     + body)
        conn.close()


def main():
    mode, sep, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    assert sep == "--" and mode in ("dead", "silent", "error", "stall"), __doc__
    if mode == "dead":
        port = free_port()
    else:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        threading.Thread(target=serve, args=(listener, mode), daemon=True).start()
    url = "http://127.0.0.1:%d/v1" % port
    sys.exit(subprocess.call([a.replace("{URL}", url) for a in command]))


if __name__ == "__main__":
    main()
