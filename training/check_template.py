"""Checks that training renders chats exactly as the serving llama-server does.

  python3 training/check_template.py --base-url http://127.0.0.1:8089 --data DIR/train.jsonl [--rows N]

For each row (the first N, default all) it renders, with chat_template.GEMMA_TEMPLATE
(the template train_lora.py gives a template-less Gemma tokenizer), the prompt with the
generation prompt and the whole conversation, and compares each byte for byte with the
server's `POST /apply-template` answer for the same messages (the server adds the
generation prompt exactly when the last message is not the assistant's). The template
starts with BOS, which the server adds at tokenization instead: the comparison is of
BOS + the server's text. --base-url may end in /v1.

With --gguf FILE (the server's model), the token ids train_lora.py trains on
(gguf_tokenizer.py + the template) are compared too with the server's /tokenize of its
own rendering.

Exit 0: every rendering equal; 1: a difference (the first differing offset and both
texts around it are printed); 2: usage error (no file, bad row, server unreachable).
Needs only the Python standard library and jinja2 (--gguf: the training stack).
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chat_template import render  # noqa: E402
from fixit_data import RowError, read_rows  # noqa: E402

BOS = "<bos>"  # Gemma's BOS token text


def server_render(base_url: str, messages: list, timeout: float = 60) -> str:
    """The server's rendering of `messages` (POST /apply-template)."""
    url = base_url.rstrip("/").removesuffix("/v1") + "/apply-template"
    body = json.dumps({"messages": [{"role": m["role"], "content": m["content"]} for m in messages]}).encode()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.load(resp)["prompt"]


def first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def server_tokenize(base_url: str, text: str, timeout: float = 60) -> list:
    """The server's token ids of a prompt text (POST /tokenize, BOS added, special tokens parsed)."""
    url = base_url.rstrip("/").removesuffix("/v1") + "/tokenize"
    body = json.dumps({"content": text, "add_special": True, "parse_special": True}).encode()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.load(resp)["tokens"]


def compare_row(base_url: str, messages: list, tokenizer=None) -> list[str]:
    """The differences between our rendering and the server's, for the prompt (with the
    generation prompt) and for the whole conversation; [] when both are equal. With a
    tokenizer (gguf_tokenizer.load, chat template set), the token ids training uses are
    also compared with the server's tokenization of its own rendering."""
    problems = []
    for what, msgs, gen in (("prompt", messages[:-1], True), ("conversation", messages, False)):
        ours = render(msgs, add_generation_prompt=gen, bos_token=BOS)
        server_text = server_render(base_url, msgs)
        theirs = BOS + server_text
        if ours != theirs:
            i = first_difference(ours, theirs)
            problems.append(f"{what}: differs at offset {i} (ours {len(ours)} chars, server {len(theirs)}): "
                            f"ours {ours[max(0, i - 40):i + 40]!r} server {theirs[max(0, i - 40):i + 40]!r}")
        if tokenizer is not None:
            ids = tokenizer.apply_chat_template([{"role": m["role"], "content": m["content"]} for m in msgs],
                                                tokenize=True, return_dict=True, add_generation_prompt=gen)["input_ids"]
            server_ids = server_tokenize(base_url, server_text)
            if ids != server_ids:
                i = first_difference(ids, server_ids)
                problems.append(f"{what}: token {i} differs (ours {len(ids)} tokens, server {len(server_ids)}): "
                                f"ours {ids[max(0, i - 3):i + 3]} server {server_ids[max(0, i - 3):i + 3]}")
    return problems


def check(base_url: str, data: str, rows: int = 0, tokenizer=None, log=print) -> bool:
    """True when every checked row renders (and, with a tokenizer, tokenizes)
    identically; logs one line per row."""
    all_rows = read_rows(data)
    chosen = all_rows[:rows] if rows > 0 else all_rows
    ok = True
    for i, messages in enumerate(chosen):
        problems = compare_row(base_url, messages, tokenizer)
        ok &= not problems
        log(f"row {i}: {'same' if not problems else 'DIFFERENT'} ({sum(len(m['content']) for m in messages)} chars)")
        for p in problems:
            log(f"  {p}")
    log(f"check_template: {len(chosen)} rows, {'all identical to the server' if ok else 'renderings DIFFER'}")
    return ok


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base-url", required=True, help="the llama-server, e.g. http://127.0.0.1:8089 (or .../v1)")
    p.add_argument("--data", required=True, help="a JSONL export (train.jsonl or train_prompt_completion.jsonl)")
    p.add_argument("--rows", type=int, default=0, help="check only the first N rows (0: all)")
    p.add_argument("--gguf", help="also compare token ids: train_lora.py's tokenizer of this GGUF (the server's "
                                  "model) against the server's /tokenize (needs training/requirements.txt)")
    a = p.parse_args(argv)
    try:
        if not Path(a.data).is_file():
            raise RowError(f"--data {a.data}: no such file")
        if not read_rows(a.data):
            raise RowError(f"--data {a.data} has no rows")
        tokenizer = None
        if a.gguf:
            from chat_template import GEMMA_TEMPLATE
            from gguf_tokenizer import TokenizerError, load

            try:
                tokenizer = load(a.gguf)
            except (ImportError, OSError, TokenizerError) as e:
                raise RowError(f"--gguf {a.gguf}: cannot build its tokenizer ({e})") from None
            tokenizer.chat_template = GEMMA_TEMPLATE
        return 0 if check(a.base_url, a.data, a.rows, tokenizer) else 1
    except RowError as e:
        print(f"check_template: error: {e}", file=sys.stderr)
    except (urllib.error.URLError, OSError, ValueError, KeyError) as e:
        print(f"check_template: error: the server at {a.base_url} did not answer /apply-template ({e}); "
              "is llama-server running (scripts/endpoint-start.sh)?", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
