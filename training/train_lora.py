"""LoRA fine-tuning on a `ptxbench sft fixit` export (transformers + peft).

Defaults follow the paper's Fixit recipe: LoRA rank 32, learning rate 4.65e-4,
5 epochs, batch size 2, loss on the last assistant message only (fixit_data.py).

  python3 training/train_lora.py --data OUT/train.jsonl --model /path/to/local/model --out adapter/
  python3 training/train_lora.py --data OUT/train.jsonl --tiny --out /tmp/tiny   # no weights needed

--model is a local folder in Hugging Face format (config, weights, tokenizer with a
chat template); nothing is downloaded. --tiny builds a small randomly initialised Llama
and a byte-level tokenizer in code, for smoke tests.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from peft import LoraConfig, get_peft_model  # noqa: E402

from byte_tokenizer import ByteTokenizer  # noqa: E402
from fixit_data import encode_row, normalise_row, pad_batch, read_rows, simple_template, synthetic_row  # noqa: E402

DEFAULT_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def tiny_model(vocab_size: int, seed: int = 0):
    """A 2-layer Llama with random weights, built from a config (no download)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=4096,
                         tie_word_embeddings=False)
    return LlamaForCausalLM(config)


def with_lora(model, rank: int, alpha: float, dropout: float, targets: list):
    config = LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=dropout, target_modules=targets,
                        bias="none", task_type="CAUSAL_LM")
    return get_peft_model(model, config)


def batches(examples: list, batch_size: int, rng: random.Random):
    order = list(range(len(examples)))
    rng.shuffle(order)
    for i in range(0, len(order), batch_size):
        yield [examples[j] for j in order[i:i + batch_size]]


def train(model, examples: list, pad_id: int, *, lr: float, epochs: int, batch_size: int, device: str,
          seed: int = 0, max_steps: int = 0, warmup_ratio: float = 0.03, log=None) -> list:
    """AdamW over the trainable (LoRA) parameters, linear warmup then constant rate.
    Returns the loss of every step."""
    model.to(device)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    steps_per_epoch = math.ceil(len(examples) / batch_size)
    total = steps_per_epoch * epochs if not max_steps else min(max_steps, steps_per_epoch * epochs)
    warmup = max(1, int(total * warmup_ratio)) if warmup_ratio > 0 else 0
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup) if warmup else 1.0)
    rng = random.Random(seed)
    losses = []
    for epoch in range(epochs):
        for chunk in batches(examples, batch_size, rng):
            batch = {k: torch.tensor(v, device=device) for k, v in pad_batch(chunk, pad_id).items()}
            loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            losses.append(loss.item())
            if log:
                log(f"epoch {epoch + 1} step {len(losses)}/{total} loss {losses[-1]:.4f}")
            if len(losses) >= total:
                return losses
    return losses


def smoke(device: str, seed: int = 0, steps: int = 60, lr: float = 5e-3) -> list:
    """The tiny-model check: LoRA (rank 8) on a random 2-layer Llama over 4 synthetic
    fixit rows, `steps` steps at batch 2. Returns the losses; they should fall (CPU,
    one thread: 5.48 -> 4.45 over 60 steps, about 4 s)."""
    tok = ByteTokenizer()
    examples = [encode_row(normalise_row(synthetic_row(i)), simple_template, tok.encode) for i in range(4)]
    model = with_lora(tiny_model(tok.vocab_size, seed), rank=8, alpha=16, dropout=0.0, targets=DEFAULT_TARGETS)
    epochs = math.ceil(steps / 2)
    return train(model, examples, tok.PAD, lr=lr, epochs=epochs, batch_size=2, device=device, seed=seed,
                 max_steps=steps)


def load_local(model_dir: str, dtype: torch.dtype):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=dtype, local_files_only=True)
    if tok.chat_template is None:
        raise SystemExit(f"{model_dir} has no chat template; pick an instruct/chat model")
    render = lambda msgs, gen: tok.apply_chat_template(  # noqa: E731
        [{"role": m["role"], "content": m["content"]} for m in msgs], tokenize=False, add_generation_prompt=gen)
    encode = lambda text: tok(text, add_special_tokens=False)["input_ids"]  # noqa: E731
    pad_id = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
    return model, render, encode, pad_id


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--smoke":  # python3 train_lora.py --smoke [cpu|cuda]: no pytest needed
        device = argv[1] if len(argv) > 1 else ("cuda" if torch.cuda.is_available() else "cpu")
        if device == "cpu":
            torch.set_num_threads(1)
        t0 = time.time()
        losses = smoke(device)
        first, last = sum(losses[:3]) / 3, sum(losses[-3:]) / 3
        ok = last < 0.9 * first
        print(f"smoke on {device} (torch {torch.__version__}): {len(losses)} steps, loss {first:.3f} -> {last:.3f} "
              f"in {time.time() - t0:.1f} s: {'PASS' if ok else 'FAIL (the loss did not fall by 10%)'}")
        return 0 if ok else 1
    p.add_argument("--data", required=True, help="train.jsonl (messages) or train_prompt_completion.jsonl")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="local Hugging Face model folder")
    src.add_argument("--tiny", action="store_true", help="a tiny random Llama + byte tokenizer (smoke test)")
    p.add_argument("--out", required=True, help="folder for the adapter and metrics.json")
    p.add_argument("--rank", type=int, default=32)
    p.add_argument("--alpha", type=float, default=64.0, help="LoRA alpha (default 2 x rank)")
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--lr", type=float, default=4.65e-4)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=2)
    p.add_argument("--max-length", type=int, default=16384, help="tokens per row; longer rows lose old context")
    p.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0: all epochs)")
    p.add_argument("--target-modules", default=",".join(DEFAULT_TARGETS))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = p.parse_args(argv)

    rows = read_rows(a.data)
    if not rows:
        raise SystemExit(f"{a.data} has no rows")
    if a.tiny:
        tok = ByteTokenizer()
        model, render, encode, pad_id = tiny_model(tok.vocab_size, a.seed), simple_template, tok.encode, tok.PAD
    else:
        dtype = torch.bfloat16 if a.device.startswith("cuda") else torch.float32
        model, render, encode, pad_id = load_local(a.model, dtype)
    examples = [encode_row(r, render, encode, a.max_length) for r in rows]
    model = with_lora(model, a.rank, a.alpha, a.dropout, [t for t in a.target_modules.split(",") if t])
    t0 = time.time()
    losses = train(model, examples, pad_id, lr=a.lr, epochs=a.epochs, batch_size=a.batch_size, device=a.device,
                   seed=a.seed, max_steps=a.max_steps, log=print)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    metrics = {"rows": len(rows), "trained_tokens": sum(e.trained_tokens for e in examples), "steps": len(losses),
               "losses": losses, "seconds": time.time() - t0, "device": a.device,
               "config": {k: v for k, v in vars(a).items()}}
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    print(f"trained {len(losses)} steps on {len(rows)} rows: loss {losses[0]:.4f} -> {losses[-1]:.4f}; "
          f"adapter in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
