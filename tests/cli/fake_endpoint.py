#!/usr/bin/env python3
"""fake_endpoint.py MODE -- COMMAND...: runs COMMAND with every {URL} in it replaced by
the base URL of a local stand-in for an OpenAI-compatible endpoint, and exits with
COMMAND's exit code. MODE:
  dead    nothing listens on the port (connection refused)
  silent  accepts connections and reads the request, but never answers
  error   answers every request with HTTP 500
  stall   answers 200 with an event stream, sends its first event, then goes silent
  headers answers 200 with an event stream's headers, then nothing
  hostile answers 200 with a reply whose kernel (tests/kernels/sm90_plain.cu) has a line of
          40,000 blanks in a comment (a std::regex over it crashed ptxbench, issue 38); as an
          event stream when the request asks for one
  bad_usage  answers 200 with a reply without code whose usage is no token count
          (prompt_tokens -5, completion_tokens 1e30: issue 38, EP12)
  bigclen answers 200 with Content-Length 99999999999999999999 and a short body, and keeps
          the connection open (campaign 6, P34)
"""
import json
import os
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


def hostile_reply():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    kernel = open(os.path.join(root, "tests", "kernels", "sm90_plain.cu")).read()
    return "Here it is:\n```cuda\n//" + " " * 40000 + "x\n" + kernel + "```\n"


def answer_hostile(conn, request):
    content = hostile_reply()
    if b'"stream":true' in request.replace(b" ", b""):
        events = [{"choices": [{"index": 0, "delta": {"content": content[i:i + 4096]}}]}
                  for i in range(0, len(content), 4096)]
        events.append({"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 9}})
        body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
        body += b"data: [DONE]\n\n"
        kind = b"text/event-stream"
    else:
        body = json.dumps({"id": "x", "model": "m", "choices": [{"index": 0, "message": {
            "role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 9}}).encode()
        kind = b"application/json"
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: " + kind + b"\r\nContent-Length: " +
                 str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    conn.close()


def answer_bad_usage(conn):
    body = json.dumps({"id": "x", "model": "m", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": "No code this time."}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": -5, "completion_tokens": 1e30}}).encode()
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                 str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    conn.close()


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return body


def serve(listener, mode):
    held = []  # silent: connections kept open, never answered
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        conn.settimeout(5)
        if mode in ("hostile", "bad_usage"):
            try:
                request = read_request(conn)
                if mode == "hostile":
                    answer_hostile(conn, request)
                else:
                    answer_bad_usage(conn)
            except OSError:
                pass
            continue
        try:
            conn.recv(65536)
        except OSError:
            pass
        if mode == "silent":
            held.append(conn)
            continue
        if mode == "bigclen":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 99999999999999999999\r\n\r\n{}")
            held.append(conn)
            continue
        if mode == "headers":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         b"Connection: close\r\n\r\n")
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
    assert sep == "--" and mode in ("dead", "silent", "error", "stall", "hostile", "headers",
                                    "bad_usage", "bigclen"), __doc__
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
