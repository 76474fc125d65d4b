#!/usr/bin/env python3
"""Fake OpenAI-compatible endpoint for bad-input campaign 7 (campaign 6 modes plus c7_* modes) (modes none of campaigns 1-5 used, plus
nocode/goodcode/realgood/cerr/hang/record as tools).
usage: fakesrv.py PORT CODE.cu REALGOOD.cu STATEDIR      URL http://127.0.0.1:PORT/<mode>/v1
CODE.cu: the kernel most modes send (a compile error: cheap); REALGOOD.cu: a correct kernel.
Every request's headers and body are appended to STATEDIR/<mode>.req (for header-injection checks)."""
import json, sys, time, socketserver, gzip, os
from http.server import BaseHTTPRequestHandler, HTTPServer
CODE_SRC = open(sys.argv[2]).read() if len(sys.argv) > 2 else "int x;"
REALGOOD = open(sys.argv[3]).read() if len(sys.argv) > 3 else CODE_SRC
STATE = sys.argv[4] if len(sys.argv) > 4 else "/tmp/fakesrv6"
os.makedirs(STATE, exist_ok=True)

def comp(content, usage=None, finish="stop", msg_extra=None, top=None):
    m = {"role": "assistant", "content": content}
    if msg_extra: m.update(msg_extra)
    d = {"id": "x", "object": "chat.completion", "model": "m",
         "choices": [{"index": 0, "message": m, "finish_reason": finish}],
         "usage": usage if usage is not None else {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    if top: d.update(top)
    return json.dumps(d).encode()
def block(src, lang="cuda", fence="```"): return "Here:\n" + fence + lang + "\n" + src + "\n" + fence + "\n"
CODE = block(CODE_SRC)
GOOD = block(REALGOOD)

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, code, body, ctype="application/json", headers=(), clen=None):
        self.send_response(code)
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
        try:
            with open(os.path.join(STATE, mode + ".req"), "ab") as f:
                f.write(b"=== " + self.path.encode() + b"\n" + str(self.headers).encode("latin-1", "replace") + b"\n" + self.req + b"\n")
        except Exception: pass
        try: getattr(self, "m_" + mode, self.m_nocode)()
        except (BrokenPipeError, ConnectionResetError): pass
    def sse(self, chunks, done=True, nl=b"\n", ctype="text/event-stream", sep=None, headers=()):
        self.send_response(200); self.send_header("Content-Type", ctype); self.send_header("Connection", "close")
        for k, v in headers: self.send_header(k, v)
        self.end_headers()
        sep = sep if sep is not None else nl + nl
        out = b""
        for c in chunks:
            out += b"data: " + (c if isinstance(c, bytes) else json.dumps(c).encode()) + sep
        if done: out += b"data: [DONE]" + sep
        return out
    def sse_send(self, chunks, **kw):
        out = self.sse(chunks, **kw); self.raw(out)
    # --- tools
    def m_nocode(self): self.send(200, comp("No kernel, sorry."))
    def m_goodcode(self): self.send(200, comp(CODE))
    def m_realgood(self): self.send(200, comp(GOOD))
    def m_hang(self): time.sleep(100)
    def m_keycheck(self):
        if self.headers.get("Authorization") == "Bearer s3cret": self.send(200, comp(CODE))
        else: self.send(401, b'{"error":{"message":"invalid api key","type":"invalid_request_error"}}')
    # --- reply shapes (new)
    def m_choicestext(self):
        self.send(200, json.dumps({"id": "x", "object": "text_completion", "choices": [{"index": 0, "text": CODE, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}}).encode())
    def m_contentarrstr(self): self.send(200, comp(["Here:\n", "```cuda\n", CODE_SRC, "\n```\n"]))
    def m_lengthcut(self): self.send(200, comp("Here:\n```cuda\n" + CODE_SRC[: len(CODE_SRC) // 2], finish="length"))
    def m_lengthfull(self): self.send(200, comp(CODE, finish="length"))
    def m_fence5(self): self.send(200, comp(block(CODE_SRC, "cuda", "`````")))
    def m_details(self): self.send(200, comp("<details><summary>kernel</summary>\n\n" + CODE + "\n</details>\n"))
    def m_diffblock(self): self.send(200, comp("```diff\n" + "".join("+" + l + "\n" for l in CODE_SRC.splitlines()) + "```\n"))
    def m_cuhblock(self): self.send(200, comp(block(CODE_SRC, "cuh")))
    def m_htmlpre(self):
        import html
        self.send(200, comp('<pre><code class="language-cuda">' + html.escape(CODE_SRC) + "</code></pre>"))
    def m_thinkmany(self): self.send(200, comp("<think></think>" * 5000 + CODE))
    def m_reasonbig(self): self.send(200, comp(CODE, msg_extra={"reasoning_content": "r" * (5 * 1024 * 1024)}))
    def m_usagebool(self): self.send(200, comp(CODE, usage={"prompt_tokens": True, "completion_tokens": False}))
    def m_usagebig(self): self.send(200, b'{"choices":[{"index":0,"message":{"role":"assistant","content":' + json.dumps(CODE).encode() + b'},"finish_reason":"stop"}],"usage":{"prompt_tokens":1e400,"completion_tokens":123456789012345678901234567890}}')
    def m_usagedetails(self): self.send(200, comp(CODE, usage={"prompt_tokens": 7, "completion_tokens": 9, "prompt_tokens_details": {"cached_tokens": 3}, "completion_tokens_details": {"reasoning_tokens": 4, "accepted_prediction_tokens": 0}}))
    def m_errandchoices(self): self.send(200, comp(CODE, top={"error": {"message": "partial failure"}}))
    def m_dupindex(self):
        d = json.loads(comp(CODE)); d["choices"].append({"index": 0, "message": {"role": "assistant", "content": "second"}, "finish_reason": "stop"})
        self.send(200, json.dumps(d).encode())
    def m_choicefirst1(self):
        d = json.loads(comp(CODE)); d["choices"] = [{"index": 1, "message": {"role": "assistant", "content": "other"}, "finish_reason": "stop"}, d["choices"][0]]
        self.send(200, json.dumps(d).encode())
    def m_latin1(self): self.send(200, comp(CODE).replace(b"Here:", b"Voil\xe0:"), ctype="application/json; charset=iso-8859-1")
    def m_closefence(self): self.send(200, comp("```"))
    def m_onlyfenceopen(self): self.send(200, comp("```cuda\n"))
    def m_blanklines(self): self.send(200, comp(block(CODE_SRC + "\n" * 20000)))
    def m_nbsplang(self): self.send(200, comp("Here:\n```\u00a0cuda\n" + CODE_SRC + "\n```\n"))
    def m_fullwidthfence(self): self.send(200, comp("Here:\n\uff40\uff40\uff40cuda\n" + CODE_SRC + "\n\uff40\uff40\uff40\n"))
    def m_indented4(self): self.send(200, comp("Here:\n\n" + "".join("    " + l + "\n" for l in CODE_SRC.splitlines())))
    def m_noeolfence(self): self.send(200, comp("```cuda\n" + CODE_SRC + "\n```"))
    def m_modelother(self): self.send(200, comp(CODE, top={"model": "someone-else", "system_fingerprint": None}))
    def m_idnull(self): self.send(200, comp(CODE, top={"id": None, "object": None, "created": "yesterday"}))
    def m_toolrole(self): self.send(200, comp(CODE, msg_extra={"role": "tool", "tool_call_id": "1"}))
    def m_funccall(self): self.send(200, comp(None, msg_extra={"function_call": {"name": "write_kernel", "arguments": json.dumps({"code": CODE_SRC})}}, finish="function_call"))
    def m_audio(self): self.send(200, comp(None, msg_extra={"audio": {"id": "a", "data": "AAAA", "transcript": CODE}}))
    def m_ctypehtml(self): self.send(200, comp(CODE), ctype="text/html")
    def m_emptyobj(self): self.send(200, b"{}")
    def m_nullbody(self): self.send(200, b"null")
    def m_bigint_clen(self): self.send(200, comp(CODE), clen=99999999999999999999)
    # --- HTTP statuses (new)
    def m_e402(self): self.send(402, b'{"error":{"message":"insufficient credits","type":"billing"}}')
    def m_e409(self): self.send(409, b'{"error":{"message":"conflict"}}')
    def m_e422(self): self.send(422, b'{"detail":[{"loc":["body","max_tokens"],"msg":"ensure this value is less than 4097"}]}')
    def m_e451(self): self.send(451, b'{"error":"unavailable for legal reasons"}')
    def m_e504(self): self.send(504, b"<html><body><h1>504 Gateway Time-out</h1></body></html>", "text/html")
    def m_e529(self): self.send(529, b'{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')
    def m_e500html(self): self.send(500, b"<!DOCTYPE html><html><head><title>Internal Server Error</title></head><body><script>alert(1)</script>\x1b[31mboom</body></html>", "text/html")
    def m_e401www(self): self.send(401, b"", "text/plain", headers=[("WWW-Authenticate", 'Bearer realm="x", error="invalid_token"')])
    def m_e400ansi(self): self.send(400, b'{"error":{"message":"bad \\u001b[2J\\u001b[31mrequest\\r\\nX-Injected: 1"}}')
    def m_e503forever(self): self.send(503, b'{"error":"down"}', headers=[("Retry-After", "0")])
    def m_e429fraction(self): self.send(429, b'{"error":"slow"}', headers=[("Retry-After", "0.25")])
    # --- event streams (new)
    def m_sse_rolefirst(self):
        self.sse_send([{"choices": [{"index": 0, "delta": {"role": "assistant"}}]}] + [{"choices": [{"index": 0, "delta": {"content": CODE[i:i + 200]}}]} for i in range(0, len(CODE), 200)] + [{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}, {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}])
    def m_sse_emptymid(self): self.sse_send([{"choices": [{"delta": {"content": CODE[:50]}}]}, {"choices": []}, {"choices": [{"delta": {"content": CODE[50:]}}]}])
    def m_sse_cumusage(self): self.sse_send([{"choices": [{"delta": {"content": CODE[:50]}}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}, {"choices": [{"delta": {"content": CODE[50:]}}], "usage": {"prompt_tokens": 3, "completion_tokens": 2}}])
    def m_sse_nul(self): self.sse_send([{"choices": [{"delta": {"content": CODE}}]}, b'{"choices":[{"delta":{"content":"\x00"}}]}'])
    def m_sse_lengthcut(self): self.sse_send([{"choices": [{"delta": {"content": "```cuda\n" + CODE_SRC[:100]}}]}, {"choices": [{"delta": {}, "finish_reason": "length"}]}])
    def m_sse_twochoices(self): self.sse_send([{"choices": [{"index": 0, "delta": {"content": CODE[:60]}}, {"index": 1, "delta": {"content": "ZZZ"}}]}, {"choices": [{"index": 1, "delta": {"content": "YYY"}}, {"index": 0, "delta": {"content": CODE[60:]}}]}])
    def m_sse_singlenl(self): self.sse_send([{"choices": [{"delta": {"content": CODE[:40]}}]}, {"choices": [{"delta": {"content": CODE[40:]}}]}], sep=b"\n")
    def m_sse_gzip(self):
        body = gzip.compress(self.sse([{"choices": [{"delta": {"content": CODE}}]}]))
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Content-Encoding", "gzip"); self.send_header("Connection", "close"); self.end_headers()
        self.raw(body)
    def m_sse_keepalive(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        try:
            for _ in range(8): self.wfile.write(b": ping\n\n"); self.wfile.flush(); time.sleep(0.5)
        except Exception: return
        self.raw(b"data: " + json.dumps({"choices": [{"delta": {"content": CODE}}]}).encode() + b"\n\ndata: [DONE]\n\n")
    def m_sse_errmid(self): self.sse_send([{"choices": [{"delta": {"content": CODE[:50]}}]}, {"error": {"message": "upstream died", "code": 500}}], done=False)
    def m_sse_reasoncontent(self): self.sse_send([{"choices": [{"delta": {"reasoning_content": "thinking " * 50}}]}, {"choices": [{"delta": {"content": CODE}}]}])
    def m_sse_hugeusage(self): self.sse_send([{"choices": [{"delta": {"content": CODE}}]}, {"choices": [], "usage": {"prompt_tokens": -5, "completion_tokens": 10 ** 15}}])
    def m_sse_chunkedframes(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
        payload = b"data: " + json.dumps({"choices": [{"delta": {"content": CODE}}]}).encode() + b"\n\ndata: [DONE]\n\n"
        out = b""
        for i in range(0, len(payload), 7): c = payload[i:i + 7]; out += b"%x;ext=1\r\n" % len(c) + c + b"\r\n"
        self.raw(out + b"0\r\nX-Trailer: t\r\n\r\n")

    # --- campaign 7 modes
    def m_c7_content_parts(self): self.send(200, comp([{"type": "text", "text": CODE}]))
    def m_c7_content_number(self): self.send(200, comp(42))
    def m_c7_refusal(self): self.send(200, comp(None, msg_extra={"refusal": "I cannot help"}))
    def m_c7_toolcalls(self): self.send(200, comp(None, msg_extra={"tool_calls": [{"id": "t", "type": "function", "function": {"name": "write", "arguments": json.dumps({"code": CODE})}}]}, finish="tool_calls"))
    def m_c7_filter(self): self.send(200, comp("", finish="content_filter"))
    def m_c7_utf16(self): self.send(200, comp(CODE).decode().encode("utf-16"), ctype="application/json; charset=utf-16")
    def m_c7_bom(self): self.send(200, b"\xef\xbb\xbf" + comp(CODE))
    def m_c7_html200(self): self.send(200, b"<html><body>Please log in</body></html>", ctype="text/html")
    def m_c7_redirect(self): self.send(307, b"", headers=[("Location", "/c7_record/v1/chat/completions")])
    def m_c7_redirect_ext(self): self.send(307, b"", headers=[("Location", "http://127.0.0.2:%d/c7_recordext/v1/chat/completions" % self.server.server_address[1])])
    def m_c7_record(self): self.send(200, comp(CODE))
    def m_c7_recordext(self): self.send(200, comp(CODE))
    def m_c7_redirloop(self): self.send(301, b"", headers=[("Location", self.path)])
    def m_c7_retryafter_huge(self): self.send(429, b'{"error":{"message":"slow down"}}', headers=[("Retry-After", "99999")])
    def m_c7_retryafter_date(self): self.send(503, b'{"error":{"message":"busy"}}', headers=[("Retry-After", "Wed, 21 Oct 2037 07:28:00 GMT")])
    def m_c7_retryafter_neg(self): self.send(429, b'{"error":{"message":"slow"}}', headers=[("Retry-After", "-5")])
    def m_c7_e401(self): self.send(401, b'{"error":{"message":"bad key","type":"invalid_request_error"}}')
    def m_c7_e413(self): self.send(413, b'{"error":{"message":"prompt too long"}}')
    def m_c7_e404html(self): self.send(404, b"<html>nginx 404</html>", ctype="text/html")
    def m_c7_dupclen(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nContent-Length: 5\r\n\r\n" % len(b) + b)
    def m_c7_shortbody(self):
        b = comp(CODE); self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (len(b) + 500) + b)
    def m_c7_trailgarbage(self): self.send(200, comp(CODE) + b"}}garbage")
    def m_c7_nan(self): self.send(200, comp(CODE).replace(b'"prompt_tokens": 10', b'"prompt_tokens": NaN'))
    def m_c7_deepnest(self): self.send(200, comp(CODE)[:-1] + b', "x": ' + b"[" * 200000 + b"]" * 200000 + b"}")
    def m_c7_bigint(self): self.send(200, comp(CODE).replace(b'"completion_tokens": 5', b'"completion_tokens": 100000000000000000000000000000000'))
    def m_c7_nul(self): self.send(200, comp(CODE.replace("__global__", "__global__\u0000", 1)))
    def m_c7_surrogate(self): self.send(200, comp(CODE).replace(b"Here:", b"Here \\ud800:"))
    def m_c7_huge(self): self.send(200, comp("x" * (60 * 1024 * 1024) + CODE))
    def m_c7_drip(self):
        b = comp(CODE); self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(b))); self.end_headers()
        try:
            for i in range(0, len(b), 50): self.wfile.write(b[i:i+50]); self.wfile.flush(); time.sleep(0.5)
        except Exception: pass
    def m_c7_firstempty(self):
        d = json.loads(comp("")); d["choices"].append({"index": 1, "message": {"role": "assistant", "content": CODE}, "finish_reason": "stop"}); self.send(200, json.dumps(d).encode())
    def m_c7_gzipbad(self): self.send(200, b"\x1f\x8bnot gzip at all", headers=[("Content-Encoding", "gzip")])
    def m_c7_chunkbad(self): self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n")
    def m_c7_http10(self):
        self.raw(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + comp(CODE))
    def m_c7_continue(self): self.raw(b"HTTP/1.1 100 Continue\r\n\r\n"); self.send(200, comp(CODE))
    def m_c7_status999(self): self.raw(b"HTTP/1.1 999 Weird\r\nContent-Length: 2\r\n\r\n{}")
    def m_c7_notjsonhttp(self): self.raw(b"SSH-2.0-OpenSSH_9.0\r\n")
    def m_c7_reasononly(self): self.send(200, comp("", msg_extra={"reasoning_content": CODE}))
    def m_c7_thinkopen(self): self.send(200, comp("<think>let me think\n" + CODE))
    def m_c7_sse_nospace(self): self.raw(self.sse([{"choices": [{"delta": {"content": CODE}}]}]).replace(b"data: ", b"data:"))
    def m_c7_sse_crlf(self): self.sse_send([{"choices": [{"delta": {"content": CODE}}]}], sep=b"\r\n\r\n")
    def m_c7_sse_event_error(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        self.raw(b'event: error\ndata: {"error":{"message":"overloaded"}}\n\n')
    def m_c7_sse_onlydone(self): self.sse_send([])
    def m_c7_sse_asjson(self): self.send(200, comp(CODE))
    def m_c7_sse_idretry(self):
        out = b"id: 1\nretry: 10\n" + self.sse([{"choices": [{"delta": {"content": CODE}}]}]); self.raw(out)
    def m_c7_sse_multiline(self):
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
        j = json.dumps({"choices": [{"delta": {"content": CODE}}]}); h = len(j) // 2
        self.raw(b"data: " + j[:h].encode() + b"\ndata: " + j[h:].encode() + b"\n\ndata: [DONE]\n\n")
    def m_c7_sse_nodone_close(self): self.sse_send([{"choices": [{"delta": {"content": CODE[:30]}}]}], done=False)
    def m_c7_sse_bigline(self): self.sse_send([{"choices": [{"delta": {"content": "y" * (40 * 1024 * 1024)}}]}, {"choices": [{"delta": {"content": CODE}}]}])

class S(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True; allow_reuse_address = True
if __name__ == "__main__":
    S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
