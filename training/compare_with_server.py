"""Checks that llama-server applies an exported LoRA adapter as peft does in transformers.

  llama-server --model BASE.gguf --lora lora.gguf --no-jinja --chat-template gemma --port P &
  python3 training/compare_with_server.py --base-url http://127.0.0.1:P --gguf BASE.gguf \\
      --adapter OUT/ --data train.jsonl [--row 0] [--tokens 16]

Renders the row's prompt (every message but the last, with the generation prompt) with
the template train_lora.py uses, and continues it greedily for --tokens tokens four ways:
transformers with the base model, transformers with the adapter merged (peft), and the
server with the adapter at scale 0 and at scale 1 (per-request `lora`, /completion at
temperature 0, the same token ids). It also checks that the server's tokenization of
the prompt text equals ours and that GET /lora-adapters lists the adapter.
Exit 0: the server agrees with transformers on both continuations, and the adapter
changes them; 1 otherwise. The server computes on Q4_K_M blocks, transformers on the
dequantised weights, so a late greedy divergence can be rounding: the report shows the
first differing token and the top-5 probabilities of the first generated token.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixit_data import read_rows, to_prompt_completion  # noqa: E402


def post(url: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)


def server_greedy(base: str, ids: list, n: int, scale: float) -> tuple[list, list]:
    """(generated token ids, top-5 [(token text, prob)] of the first generated token)."""
    r = post(base + "/completion", {"prompt": ids, "n_predict": n, "temperature": 0, "top_k": 1, "n_probs": 5,
                                    "cache_prompt": False, "return_tokens": True, "samplers": ["top_k"],
                                    "lora": [{"id": 0, "scale": scale}]})
    top = r["completion_probabilities"][0]
    if "top_probs" in top:
        return r["tokens"], [(p["token"], round(p["prob"], 4)) for p in top["top_probs"]]
    return r["tokens"], [(p["token"], round(math.exp(p["logprob"]), 4)) for p in top["top_logprobs"]]


def hf_greedy(model, tokenizer, ids: list, n: int) -> tuple[list, list]:
    import torch

    with torch.no_grad():
        # stop where the server stops: at <eos> or at the end of the model's turn
        stop = [tokenizer.eos_token_id] + [i for i in [tokenizer.convert_tokens_to_ids("<end_of_turn>")]
                                           if i is not None and i != tokenizer.unk_token_id]
        out = model.generate(torch.tensor([ids]), max_new_tokens=n, do_sample=False, output_scores=True,
                             return_dict_in_generate=True, pad_token_id=tokenizer.pad_token_id, eos_token_id=stop)
        probs = torch.softmax(out.scores[0][0].float(), -1)
        top = torch.topk(probs, 5)
    gen = out.sequences[0][len(ids):].tolist()
    return gen, [(tokenizer.decode([i]), round(p, 4)) for i, p in zip(top.indices.tolist(), top.values.tolist())]


def first_diff(a: list, b: list) -> int | None:
    n = min(len(a), len(b))
    i = next((k for k in range(n) if a[k] != b[k]), n)
    return None if i == n and len(a) == len(b) else i


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base-url", required=True)
    p.add_argument("--gguf", required=True, help="the base GGUF (the server's --model)")
    p.add_argument("--adapter", required=True, help="train_lora.py's output folder (peft adapter)")
    p.add_argument("--data", required=True)
    p.add_argument("--row", type=int, default=0)
    p.add_argument("--tokens", type=int, default=16)
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args(argv)
    import torch
    from peft import PeftModel

    import train_lora

    if a.threads:
        torch.set_num_threads(a.threads)
    base_url = a.base_url.rstrip("/").removesuffix("/v1")
    adapters = post(base_url + "/lora-adapters")
    print(f"server /lora-adapters: {adapters}")
    model, tok, _ = train_lora.load_model(argparse.Namespace(gguf=a.gguf, model=None))
    train_lora.ensure_chat_template(tok, model.config.model_type)
    pc = to_prompt_completion(read_rows(a.data)[a.row])
    text = tok.apply_chat_template(pc["prompt"], tokenize=False, add_generation_prompt=True)
    ids = tok.apply_chat_template(pc["prompt"], tokenize=True, return_dict=True,
                                  add_generation_prompt=True)["input_ids"]
    server_ids = post(base_url + "/tokenize", {"content": text.removeprefix(tok.bos_token), "add_special": True,
                                               "parse_special": True})["tokens"]
    same_tokens = server_ids == ids
    print(f"prompt: {len(ids)} tokens; server tokenization {'equal' if same_tokens else 'DIFFERENT'}")
    target = tok(pc["completion"][0]["content"], add_special_tokens=False)["input_ids"][: a.tokens]
    base_model = copy.deepcopy(model)
    merged = PeftModel.from_pretrained(model, a.adapter).merge_and_unload()
    ok = same_tokens and bool(adapters)
    results = {}
    for name, hf_model, scale in (("base", base_model, 0.0), ("adapter", merged, 1.0)):
        hf, hf_top = hf_greedy(hf_model, tok, ids, a.tokens)
        sv, sv_top = server_greedy(base_url, ids, a.tokens, scale)
        d = first_diff(hf, sv)
        results[name] = hf
        print(f"[{name}] transformers: {tok.decode(hf)!r}\n[{name}] server:       {tok.decode(sv)!r}")
        agree = next((k for k, (x, y) in enumerate(zip(hf, target)) if x != y), min(len(hf), len(target)))
        print(f"[{name}] {'identical' if d is None else f'first difference at token {d}'}; "
              f"first-token top-5 transformers {hf_top} server {sv_top}; "
              f"the first {agree} tokens are the trained completion's")
        ok &= d is None
    changed = results["base"] != results["adapter"]
    print(f"adapter changes the continuation: {changed}")
    ok &= changed
    print(f"compare_with_server: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
