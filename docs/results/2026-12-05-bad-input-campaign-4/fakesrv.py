#!/usr/bin/env python3
"""Fake OpenAI-compatible endpoint for bad-input campaign 4. URL http://127.0.0.1:PORT/<mode>/v1"""
import json, sys, time, socketserver, gzip, os
from http.server import BaseHTTPRequestHandler, HTTPServer
GOOD = open(sys.argv[2]).read() if len(sys.argv) > 2 else "int x;"
STATE = sys.argv[3] if len(sys.argv) > 3 else "/tmp/fakesrv.state"

def comp(content, usage=None, extra=None, finish="stop", msg_extra=None):
    m = {"role": "assistant", "content": content}
    if msg_extra: m.update(msg_extra)
    d = {"id": "x", "object": "chat.completion", "model": "m",
         "choices": [{"index": 0, "message": m, "finish_reason": finish}],
         "usage": usage if usage is not None else {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    if extra: d.update(extra)
    return json.dumps(d).encode()
CODE = "Here:\n```cuda\n" + GOOD + "\n```\n"

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, code, body, ctype="application/json", headers=(), clen=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if clen is None else clen))
        for k, v in headers: self.send_header(k, v)
        self.end_headers()
        try: self.wfile.write(body); self.wfile.flush()
        except Exception: pass
    def do_GET(self): self.send(200, b'{"data":[{"id":"m"}]}')
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        self.req = self.rfile.read(n) if n else b""
        mode = self.path.strip("/").split("/")[0]
        try: getattr(self, "m_" + mode, self.m_nocode)()
        except (BrokenPipeError, ConnectionResetError): pass
    def sse(self, chunks, done=True, crlf=False):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        nl = b"\r\n" if crlf else b"\n"
        for c in chunks:
            self.wfile.write(b"data: " + (c if isinstance(c, bytes) else json.dumps(c).encode()) + nl + nl); self.wfile.flush()
        if done: self.wfile.write(b"data: [DONE]" + nl + nl)
        self.wfile.flush(); self.close_connection = True
    def m_nocode(self): self.send(200, comp("No kernel, sorry."))
    def m_goodcode(self): self.send(200, comp(CODE))
    def m_parts(self): self.send(200, comp([{"type": "text", "text": CODE}]))
    def m_toolcalls(self): self.send(200, comp(None, msg_extra={"tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}))
    def m_reasononly(self): self.send(200, comp("", msg_extra={"reasoning_content": CODE}))
    def m_lengthcut(self): self.send(200, comp("Here:\n```cuda\n" + GOOD[:200], finish="length"))
    def m_twochoices(self):
        d = json.loads(comp(CODE)); d["choices"].append({"index": 1, "message": {"role": "assistant", "content": "second"}, "finish_reason": "stop"})
        self.send(200, json.dumps(d).encode())
    def m_usagehuge(self): self.send(200, comp("x", usage={"prompt_tokens": 2**70, "completion_tokens": 1.5, "total_tokens": -1}))
    def m_usagenull(self): self.send(200, comp("x", usage=None, extra={"usage": None}))
    def m_bom(self): self.send(200, b"\xef\xbb\xbf" + comp("no code"))
    def m_shortlen(self): self.send(200, comp(CODE), clen=20)
    def m_longlen(self):
        b = comp("no code"); self.send(200, b, clen=len(b) + 500); self.close_connection = True
    def m_gzip(self): self.send(200, gzip.compress(comp(CODE)), headers=[("Content-Encoding", "gzip")])
    def m_chunked(self):
        b = comp(CODE); self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
        for i in range(0, len(b), 100):
            c = b[i:i+100]; self.wfile.write(b"%x\r\n" % len(c) + c + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")
    def m_http10close(self):
        self.protocol_version = "HTTP/1.0"; b = comp(CODE)
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(b); self.close_connection = True
    def m_e400ctx(self): self.send(400, b'{"error":{"message":"This model\'s maximum context length is 2048 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}')
    def m_e403(self): self.send(403, b'{"error":{"message":"forbidden: quota"}}')
    def m_e503ra(self): self.send(503, b'{"error":"overloaded"}', headers=[("Retry-After", "1")])
    def m_e429neg(self): self.send(429, b'{"error":"slow"}', headers=[("Retry-After", "-5")])
    def m_e204(self):
        self.send_response(204); self.end_headers()
    def m_flaky(self):
        try: n = int(open(STATE).read())
        except Exception: n = 0
        open(STATE, "w").write(str(n + 1))
        if n % 2 == 0: self.send(502, b"bad gateway", "text/plain")
        else: self.send(200, comp(CODE))
    def m_redirhttps(self): self.send(301, b"", headers=[("Location", "https://127.0.0.1:1/v1/chat/completions")])
    def m_textplain(self): self.send(200, CODE.encode(), "text/plain")
    def m_jsonarray(self): self.send(200, b"[]")
    def m_choicesnull(self): self.send(200, b'{"choices":null}')
    def m_msgstr(self): self.send(200, b'{"choices":[{"message":"hello"}]}')
    def m_nan(self): self.send(200, b'{"choices":[{"message":{"role":"assistant","content":"x"}}],"usage":{"prompt_tokens":NaN,"completion_tokens":Infinity}}')
    def m_dupkeys(self): self.send(200, b'{"choices":[{"message":{"role":"assistant","content":"no code","content":"```cuda\\nint x;\\n```"}}]}')
    def m_unicode(self): self.send(200, comp("\u202e\u0000\ud7ff\U0001F600 ```cuda\n\u202eint x;\n```"))
    def m_thinkopen(self): self.send(200, comp("<think>I will now write it\n" + CODE))
    def m_bigheaders(self): self.send(200, comp("no code"), headers=[("X-Junk%d" % i, "y" * 4000) for i in range(200)])
    def m_slowheaders(self):
        time.sleep(30); self.send(200, comp("late"))
    def m_trickle(self):
        b = comp(CODE); self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(b))); self.end_headers()
        for i in range(len(b)):
            self.wfile.write(b[i:i+1]); self.wfile.flush(); time.sleep(0.01)
    def m_closeearly(self):
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", "5000"); self.end_headers(); self.wfile.write(b'{"choices":[{"mess'); self.wfile.flush(); self.close_connection = True
    def m_sse_crlf(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}, {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}], crlf=True)
    def m_sse_errorevent(self): self.sse([{"error": {"message": "upstream model crashed"}}], done=False)
    def m_sse_usageonly(self): self.sse([{"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}])
    def m_sse_comments(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        self.wfile.write(b": keepalive\n\nevent: ping\ndata: {}\n\n")
        self.wfile.write(b"data: " + json.dumps({"choices": [{"delta": {"content": CODE}}]}).encode() + b"\n\ndata: [DONE]\n\n"); self.close_connection = True
    def m_sse_json(self): self.send(200, comp(CODE))  # plain JSON to a stream request
    def m_sse_reasoning(self): self.sse([{"choices": [{"delta": {"reasoning_content": "thinking " * 100}}]}, {"choices": [{"delta": {"content": CODE}}]}])
    def m_sse_slowstall(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.end_headers()
        self.wfile.write(b'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n'); self.wfile.flush(); time.sleep(60)
    def m_sse_hugeline(self): self.sse([b'{"choices":[{"delta":{"content":"' + b"a" * (8 * 1024 * 1024) + b'"}}]}'])
    def m_echoauth(self):
        a = self.headers.get("Authorization", "<none>")
        self.send(200, comp("auth was: " + a))

class S(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True; allow_reuse_address = True
if __name__ == "__main__":
    S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
