#!/usr/bin/env python3
"""Fake OpenAI-compatible endpoint for bad-input campaign 5 (modes none of campaigns 1-4 used).
usage: fakesrv.py PORT CODE.cu TVMFFI.cu STATEFILE REALGOOD.cu (CODE.cu: the kernel most modes send; campaign.sh sends a compile error,
because every no-GPU turn whose kernel compiles crashes this binary, P73-P75)   URL http://127.0.0.1:PORT/<mode>/v1"""
import json, sys, time, socketserver, gzip, zlib, os
from http.server import BaseHTTPRequestHandler, HTTPServer
GOOD = open(sys.argv[2]).read() if len(sys.argv) > 2 else "int x;"
TVM = open(sys.argv[3]).read() if len(sys.argv) > 3 else "int y;"
STATE = sys.argv[4] if len(sys.argv) > 4 else "/tmp/fakesrv5.state"
REALGOOD = open(sys.argv[5]).read() if len(sys.argv) > 5 else GOOD

def comp(content, usage=None, finish="stop", msg_extra=None, drop_role=False):
    m = {"role": "assistant", "content": content}
    if drop_role: del m["role"]
    if msg_extra: m.update(msg_extra)
    d = {"id": "x", "object": "chat.completion", "model": "m",
         "choices": [{"index": 0, "message": m, "finish_reason": finish}],
         "usage": usage if usage is not None else {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    return json.dumps(d).encode()
def block(src, lang="cuda", fence="```"): return "Here:\n" + fence + lang + "\n" + src + "\n" + fence + "\n"
CODE = block(GOOD)

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, code, body, ctype="application/json", headers=(), clen=None, reason=None):
        self.send_response(code, reason)
        if ctype: self.send_header("Content-Type", ctype)
        if clen is not False: self.send_header("Content-Length", str(len(body) if clen is None else clen))
        for k, v in headers: self.send_header(k, v)
        self.end_headers()
        try: self.wfile.write(body); self.wfile.flush()
        except Exception: pass
    def raw(self, data):
        try: self.wfile.write(data); self.wfile.flush()
        except Exception: pass
        self.close_connection = True
    def do_GET(self): self.send(200, b'{"data":[{"id":"m"}]}')
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        self.req = self.rfile.read(n) if n else b""
        mode = self.path.strip("/").split("/")[0]
        try: getattr(self, "m_" + mode, self.m_nocode)()
        except (BrokenPipeError, ConnectionResetError): pass
    def sse(self, chunks, done=True, nl=b"\n", ctype="text/event-stream", prefix=b"data: ", lead=b""):
        self.send_response(200); self.send_header("Content-Type", ctype); self.send_header("Connection", "close"); self.end_headers()
        self.wfile.write(lead)
        for c in chunks:
            self.wfile.write(prefix + (c if isinstance(c, bytes) else json.dumps(c).encode()) + nl + nl); self.wfile.flush()
        if done: self.wfile.write(prefix + b"[DONE]" + nl + nl)
        self.wfile.flush(); self.close_connection = True
    def m_nocode(self): self.send(200, comp("No kernel, sorry."))
    def m_goodcode(self): self.send(200, comp(CODE))
    def m_realgood(self): self.send(200, comp(block(REALGOOD)))
    # --- reply shapes
    def m_contentnum(self): self.send(200, comp(42))
    def m_contentobj(self): self.send(200, comp({"text": CODE}))
    def m_refusal(self): self.send(200, comp(None, msg_extra={"refusal": "I can't help with that."}))
    def m_filtered(self): self.send(200, comp("", finish="content_filter"))
    def m_contentws(self): self.send(200, comp(" \n\t \n"))
    def m_partsmixed(self): self.send(200, comp([{"type": "image_url", "image_url": {"url": "data:,"}}, {"type": "text", "text": CODE}, {"type": "refusal", "refusal": "no"}]))
    def m_reasonobj(self): self.send(200, comp(CODE, msg_extra={"reasoning_content": {"steps": [1, 2]}, "reasoning": 7}))
    def m_norole(self): self.send(200, comp(CODE, drop_role=True))
    def m_roleuser(self): self.send(200, comp(CODE, msg_extra={"role": "user"}))
    def m_bigcode(self): self.send(200, comp(block(GOOD + "\n//" + "p" * (2 * 1024 * 1024) + "\n")))
    def m_nulcode(self): self.send(200, comp(block(GOOD + "\n// nul:\u0000:after\n")))
    def m_surrogate(self): self.send(200, b'{"choices":[{"message":{"role":"assistant","content":"\\ud800 lone \\udfff ```cuda\\nint x;\\n```"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}')
    def m_ptxblock(self): self.send(200, comp(block(".version 8.0\n.target sm_90a\n.address_size 64\n", "ptx")))
    def m_pyblock(self): self.send(200, comp(block("import torch\nprint(1)\n", "python")))
    def m_twoblocks(self): self.send(200, comp("Header:\n```cuda\n#include <cuda_runtime.h>\n```\nKernel:\n" + CODE))
    def m_tvmffi(self): self.send(200, comp(block(TVM)))
    def m_policy(self): self.send(200, comp(block('#include "/etc/passwd"\n' + GOOD)))
    def m_tildefence(self): self.send(200, comp(block(GOOD, "cuda", "~~~")))
    def m_thinkonlyopen(self): self.send(200, comp("<think>" + CODE))
    def m_manychoices(self):
        d = json.loads(comp(CODE)); d["choices"] = [{"index": i, "message": {"role": "assistant", "content": "c%d" % i}, "finish_reason": "stop"} for i in range(20000)]
        self.send(200, json.dumps(d).encode())
    def m_trailing(self): self.send(200, comp(CODE) + b"\n}}garbage{{")
    def m_jsonstring(self): self.send(200, b'"hello"')
    def m_usagefloat(self): self.send(200, comp(CODE, usage={"prompt_tokens": 10.7, "completion_tokens": "5", "completion_tokens_details": {"reasoning_tokens": -3}}))
    def m_hugeerr(self): self.send(400, b'{"error":{"message":"' + b"E" * (10 * 1024 * 1024) + b'"}}')
    # --- HTTP shapes
    def m_deflate(self): self.send(200, zlib.compress(comp(CODE)), headers=[("Content-Encoding", "deflate")])
    def m_brotli(self): self.send(200, b"\x1b\x00\x00garbage", headers=[("Content-Encoding", "br")])
    def m_gzipbomb(self):
        if not hasattr(H, "_bomb"): H._bomb = gzip.compress(b" " * (300 * 1024 * 1024), 9)
        self.send(200, H._bomb, headers=[("Content-Encoding", "gzip")])
    def m_badchunk(self):
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
        self.raw(b"zz\r\n{}\r\n0\r\n\r\n")
    def m_banner(self): self.raw(b"SSH-2.0-OpenSSH_9.6\r\n")
    def m_h2(self): self.raw(b"\x00\x00\x12\x04\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x64\x00\x04\x00\x10\x00\x00\x00\x06\x00\x00\x40\x00")
    def m_reset(self):
        import socket, struct
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); self.connection.close(); self.close_connection = True
    def m_noctype(self): self.send(200, comp(CODE), ctype=None)
    def m_untileof(self):
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Connection", "close"); self.end_headers()
        self.raw(comp(CODE))
    def m_continue100(self):
        self.raw_requestline = b""; b = comp(CODE)
        self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(b) + b); self.wfile.flush()
    def m_status299(self): self.send(299, comp(CODE))
    def m_status201(self): self.send(201, comp(CODE))
    def m_noreason(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(b) + b)
    def m_nolocation(self): self.send(302, b"", headers=[])
    def m_hugeheader(self): self.send(200, comp(CODE), headers=[("X-Big", "h" * (1024 * 1024))])
    def m_folded(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Fold: a\r\n  continued\r\nContent-Length: %d\r\n\r\n" % len(b) + b)
    def m_dupclen(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nContent-Length: 5\r\n\r\n" % len(b) + b)
    def m_negclen(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n" + b)
    def m_http09(self): self.raw(comp(CODE))
    def m_e429big(self): self.send(429, b'{"error":"slow down"}', headers=[("Retry-After", "3600")])
    def m_e429date(self): self.send(429, b'{"error":"slow down"}', headers=[("Retry-After", "Wed, 21 Oct 2037 07:28:00 GMT")])
    def m_e408(self): self.send(408, b'{"error":"timeout"}')
    def m_e413(self): self.send(413, b'{"error":{"message":"request entity too large"}}')
    def m_e418(self): self.send(418, b"I'm a teapot", "text/plain")
    def m_alt(self):
        try: n = int(open(STATE).read())
        except Exception: n = 0
        open(STATE, "w").write(str(n + 1))
        self.send(200, comp(CODE if n % 2 else "no code"))
    # --- event streams
    def m_sse_nodataprefix(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}], prefix=b"")
    def m_sse_nospace(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}, {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}], prefix=b"data:")
    def m_sse_multiline(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        j = json.dumps({"choices": [{"delta": {"content": CODE}}]})
        h = len(j) // 2
        self.raw(b"data: " + j[:h].encode() + b"\ndata: " + j[h:].encode() + b"\n\ndata: [DONE]\n\n")
    def m_sse_deltanull(self): self.sse([{"choices": [{"delta": {"content": None}}]}, {"choices": [{"delta": {}}]}, {"choices": [{"delta": {"content": CODE}}]}])
    def m_sse_toolcalls(self): self.sse([{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "{}"}}]}}]}])
    def m_sse_doneonly(self): self.sse([])
    def m_sse_bom(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}], lead=b"\xef\xbb\xbf")
    def m_sse_cronly(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}], nl=b"\r")
    def m_sse_ctypejson(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}], ctype="application/json")
    def m_sse_fields(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        self.raw(b"retry: 1\nid: 7\nevent: message\n: c\ndata: " + json.dumps({"choices": [{"delta": {"content": CODE}}]}).encode() + b"\n\nid: 8\ndata: [DONE]\n\n")
    def m_sse_choicesnull(self): self.sse([{"choices": None}, {"choices": [{"delta": {"content": CODE}}]}])
    def m_sse_manysmall(self): self.sse([{"choices": [{"delta": {"content": ch}}]} for ch in CODE])
    def m_sse_after_done(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        self.raw(b"data: [DONE]\n\ndata: " + json.dumps({"choices": [{"delta": {"content": CODE}}]}).encode() + b"\n\n")
    def m_sse_think(self): self.sse([{"choices": [{"delta": {"content": "<think>never closed " + CODE}}]}])
    def m_sse_http500(self): self.send(500, b"data: [DONE]\n\n", "text/event-stream")
    def m_sse_usagebad(self): self.sse([{"choices": [{"delta": {"content": CODE}}]}, {"choices": [], "usage": "lots"}])

class S(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True; allow_reuse_address = True
if __name__ == "__main__":
    S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
