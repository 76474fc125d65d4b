#!/usr/bin/env python3
"""Fake OpenAI-compatible endpoint for the ptxbench bad-input campaign.
URL: http://127.0.0.1:PORT/<mode>/v1 ; mode picks the misbehaviour."""
import json, sys, time, socketserver
from http.server import BaseHTTPRequestHandler, HTTPServer

GOOD_CU = open(sys.argv[2]).read() if len(sys.argv) > 2 else "int x;"


def completion(content, usage=None, extra=None):
    d = {"id": "x", "object": "chat.completion", "model": "m",
         "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                      "finish_reason": "stop"}],
         "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    if extra:
        d.update(extra)
    return json.dumps(d).encode()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, code, body, ctype="application/json", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except Exception:
            pass

    def do_GET(self):
        self.send(200, b'{"data":[{"id":"m"}]}')

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        if n:
            self.rfile.read(n)
        mode = self.path.strip("/").split("/")[0]
        try:
            getattr(self, "m_" + mode, self.m_nocode)()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def m_garbage(self): self.send(200, b"not json{{{")
    def m_e500(self): self.send(500, b'{"error":"boom"}')
    def m_e401(self): self.send(401, b'{"error":{"message":"invalid api key"}}')
    def m_e404(self): self.send(404, b'{"error":{"message":"model not found"}}')
    def m_e429(self): self.send(429, b'{"error":"slow down"}', headers=[("Retry-After", "99999")])
    def m_empty(self): self.send(200, b"")
    def m_html(self): self.send(200, b"<html><body>Bad gateway</body></html>", "text/html")
    def m_nocode(self): self.send(200, completion("I am sorry, I cannot write this kernel."))
    def m_nullcontent(self): self.send(200, completion(None))
    def m_nochoices(self): self.send(200, b'{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}}')
    def m_wrongtypes(self): self.send(200, b'{"choices":[{"message":{"content":123}}],"usage":{"prompt_tokens":"abc","completion_tokens":[1]}}')
    def m_negusage(self): self.send(200, completion("no code", {"prompt_tokens": -5, "completion_tokens": 1e30, "total_tokens": -1}))
    def m_deepjson(self): self.send(200, b"[" * 200000 + b"]" * 200000)
    def m_badutf8(self): self.send(200, b'{"choices":[{"message":{"role":"assistant","content":"bad \xff\xfe\xc3 bytes"}}]}')
    def m_nulcontent(self): self.send(200, completion("text \u0000 with NUL ```cuda\n\u0000\n```"))
    def m_badcode(self): self.send(200, completion("Here:\n```cuda\nthis is not C++ at all {{{\n```\n"))
    def m_goodcode(self): self.send(200, completion("Here:\n```cuda\n" + GOOD_CU + "\n```\n"))
    def m_huge(self): self.send(200, completion("x\n" * (20 * 1024 * 1024)))
    def m_redirect(self): self.send(302, b"", headers=[("Location", "http://127.0.0.1:1/v1/chat/completions")])
    def m_redirloop(self): self.send(302, b"", headers=[("Location", self.path)])
    def m_errjson200(self): self.send(200, b'{"error":{"message":"context length exceeded","code":400}}')
    def m_hang(self):
        time.sleep(300)
    def m_headers_then_slow(self):
        # sends a body slowly, one byte every 0.5 s, never finishing (non-stream)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "100000000")
        self.end_headers()
        for _ in range(1000):
            self.wfile.write(b" "); self.wfile.flush(); time.sleep(0.5)
    def m_endless(self):
        # endless SSE stream of tokens, never [DONE]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        chunk = b'data: {"choices":[{"delta":{"content":"aaaaaaaaaaaaaaaa"}}]}\n\n'
        while True:
            self.wfile.write(chunk * 64); self.wfile.flush()
    def m_sse_garbage(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", "60")
        self.end_headers()
        self.wfile.write(b"data: {not json\n\ndata: \x00\x01\x02\n\ndata: [DONE]\n\n".ljust(60))
    def m_sse_nodone(self):
        body = b'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n'
        self.send(200, body, "text/event-stream")
    def m_plainforstream(self):
        # answers a stream request with a plain JSON completion
        self.send(200, completion("no code here"))


class S(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
