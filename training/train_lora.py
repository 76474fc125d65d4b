"""LoRA fine-tuning on a `ptxbench sft fixit|kernelgen` export, with TRL's SFTTrainer.

The recipe (the paper's Fixit defaults): peft LoRA rank 32 (alpha 64, dropout 0, on the
q/k/v/o/gate/up/down projections), AdamW at lr 4.65e-4 with 3% warmup then constant,
gradient clipping 1.0, 5 epochs, per-device batch 2; the loss falls on the final
assistant message (the repair) only: each row becomes TRL's conversational
prompt-completion example (prompt = every message but the last, completion = [the
last]) and SFTTrainer trains with completion_only_loss.

  python3 training/train_lora.py --data DIR/train.jsonl --gguf gemma-3-270m-q4_k_m.gguf --out adapter/
  python3 training/train_lora.py --data DIR/train.jsonl --model /local/hf/folder --out adapter/ \\
      --eval DIR/heldout.jsonl --export-gguf adapter/lora.gguf

--model is a local Hugging Face folder; --gguf a GGUF file whose weights transformers
dequantises to float32 (bfloat16 on a GPU) and whose tokenizer is rebuilt to tokenize as
llama.cpp does (gguf_tokenizer.py). Nothing is downloaded. A tokenizer without a chat
template (the GGUF case) gets the Gemma template llama-server uses (chat_template.py),
so training sees the very token ids the server will feed the model
(check_template.py --gguf verifies both against a running server).

--max-length caps the tokens of a row. A longer row loses prompt tokens from the left
(the BOS token stays); the completion is never cut: a row whose completion alone does
not fit is dropped and counted (metrics.json). Fixit repairs are 5-10k tokens, so a CPU
run at 512-1024 tokens trains only on short rows, or, with --cut-completions, on rows cut
to the prompt's end and the repair's start (scripts/fixit-e2e.sh).

Writes OUT/adapter_config.json + adapter_model.safetensors (peft), OUT/base_model.json
(what the adapter was trained on, for export_gguf_lora.py) and OUT/metrics.json; with
--export-gguf, a llama.cpp LoRA adapter (`llama-server --lora FILE`).
Expected failures (a missing file, no row fits, a model that does not load, the
training stack not installed) print one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chat_template import GEMMA_TEMPLATE  # noqa: E402
from fixit_data import Drop, RowError, fit_tokens, read_rows, to_prompt_completion  # noqa: E402

DEFAULT_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
SETUP_HINT = "install the training stack: PTXBENCH_TRAINING_DEPS=1 training/setup.sh"


class UsageError(Exception):
    """An expected failure: main() prints `train_lora: error: <message>` and exits 2."""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, help="train.jsonl (messages) or train_prompt_completion.jsonl")
    p.add_argument("--eval", help="held-out rows (same formats): eval loss before and after training")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="local Hugging Face model folder")
    src.add_argument("--gguf", help="a GGUF model file (dequantised by transformers)")
    p.add_argument("--out", required=True, help="folder for the adapter, base_model.json and metrics.json")
    p.add_argument("--rank", type=int, default=32)
    p.add_argument("--alpha", type=float, default=64.0, help="LoRA alpha (default 2 x the default rank)")
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--target-modules", default=",".join(DEFAULT_TARGETS))
    p.add_argument("--lr", type=float, default=4.65e-4)
    p.add_argument("--epochs", type=float, default=5)
    p.add_argument("--batch-size", type=int, default=2, help="per device")
    p.add_argument("--max-length", type=int, default=16384, help="tokens per row; 0: no limit")
    p.add_argument("--cut-completions", action="store_true",
                   help="keep a row whose completion alone exceeds --max-length, cut: the end of its prompt "
                        "(a quarter of the length) and the start of its completion (a CPU run, where no "
                        "length that fits holds a whole repair); counted in metrics.json rows.cut")
    p.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0: all epochs)")
    p.add_argument("--warmup", type=float, default=0.03, help="warmup, a fraction of the steps")
    p.add_argument("--gradient-checkpointing", action="store_true", help="less memory, ~30%% slower")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    p.add_argument("--export-gguf", help="also write a llama.cpp GGUF LoRA adapter here (needs --gguf, "
                                         "or --base-gguf for a --model run)")
    p.add_argument("--base-gguf", help="the GGUF of the --model run's base, for --export-gguf")
    a = p.parse_args(argv)
    if a.export_gguf and not (a.gguf or a.base_gguf):
        p.error("--export-gguf needs the base model's GGUF: --gguf, or --base-gguf with --model")
    return a


def import_stack():
    try:
        import peft  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
        import trl  # noqa: F401
    except ImportError as e:
        raise UsageError(f"{e.name} is not installed: {SETUP_HINT}") from None


def ensure_chat_template(tokenizer, model_type: str) -> str:
    """Gives a template-less Gemma tokenizer llama-server's built-in `gemma` template;
    returns where the template came from. Other models must bring their own."""
    if tokenizer.chat_template:
        return "tokenizer"
    if not model_type.startswith("gemma"):
        raise UsageError(f"the tokenizer has no chat template and the model is {model_type}, not Gemma: "
                         "use an instruct/chat model folder whose tokenizer has one")
    tokenizer.chat_template = GEMMA_TEMPLATE
    return "llama.cpp gemma (chat_template.py)"


def load_model(args):
    """(model, tokenizer, description of the source) from --model or --gguf."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig

    dtype = torch.bfloat16 if torch.cuda.is_available() else torch.float32
    path = Path(args.gguf or args.model)
    if args.gguf and not path.is_file():
        raise UsageError(f"--gguf {path}: no such file")
    if args.model and not (path / "config.json").is_file():
        raise UsageError(f"--model {path}: not a Hugging Face model folder (no config.json)")
    try:
        if args.gguf:
            import gguf_tokenizer

            # llama.cpp's tokenization (gguf_tokenizer.py), not transformers' GGUF conversion.
            tokenizer = gguf_tokenizer.load(path)
            # Unpacked into plain dense weights, the quantizer detached: the base is frozen
            # anyway, and the Trainer refuses a model it still calls GGUF-quantized.
            model = AutoModelForCausalLM.from_pretrained(
                str(path.resolve().parent), gguf_file=path.name, dtype=dtype, local_files_only=True,
                quantization_config=GgufConfig(gguf_file=path.name, dequantize=True))
        else:
            tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
            model = AutoModelForCausalLM.from_pretrained(str(path), dtype=dtype, local_files_only=True)
    except (OSError, ValueError, KeyError, RuntimeError, TypeError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UsageError(f"cannot load the model from {path}: {first}") from None
    if getattr(model, "is_quantized", False):
        raise UsageError(f"{path} loaded as a quantized model; LoRA here needs dense weights")
    return model, tokenizer, f"{'gguf' if args.gguf else 'hf'}:{path.resolve()}"


def prepare(rows, tokenizer, max_length: int, cut: bool = False) -> tuple[list, Counter]:
    """Tokenized examples {input_ids, completion_mask} (what SFTTrainer makes of a
    conversational prompt-completion example, fitted to max_length) and the drop counts."""
    examples, drops = [], Counter()
    for messages in rows:
        pc = to_prompt_completion(messages)
        prompt_ids = tokenizer.apply_chat_template(pc["prompt"], tokenize=True, return_dict=True,
                                                   add_generation_prompt=True)["input_ids"]
        full_ids = tokenizer.apply_chat_template(pc["prompt"] + pc["completion"], tokenize=True,
                                                 return_dict=True)["input_ids"]
        fitted = fit_tokens(prompt_ids, full_ids, max_length, tokenizer.bos_token_id, cut)
        if isinstance(fitted, Drop):
            drops[fitted.value] += 1
            continue
        input_ids, completion_mask = fitted
        if sum(completion_mask) < len(full_ids) - len(prompt_ids):
            drops["cut"] += 1  # kept, cut (--cut-completions): counted, not dropped
        examples.append({"input_ids": input_ids, "completion_mask": completion_mask})
    return examples, drops


def read(path: str, what: str):
    if not Path(path).is_file():
        raise UsageError(f"{what} {path}: no such file")
    try:
        rows = read_rows(path)
    except RowError as e:
        raise UsageError(str(e)) from None
    if not rows:
        raise UsageError(f"{what} {path} has no rows")
    return rows


def make_trainer(model, tokenizer, train, evaluation, args, out: Path, on_step):
    import datasets
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import PrinterCallback, TrainerCallback
    from trl import SFTConfig, SFTTrainer

    class Progress(TrainerCallback):
        def on_log(self, targs, state, control, logs=None, **kw):
            if logs and "loss" in logs:
                on_step(state.global_step, state.max_steps, logs)

    datasets.disable_progress_bars()
    cuda = torch.cuda.is_available()
    config = SFTConfig(
        output_dir=str(out), seed=args.seed, data_seed=args.seed,
        learning_rate=args.lr, num_train_epochs=args.epochs, max_steps=args.max_steps or -1,
        per_device_train_batch_size=args.batch_size, per_device_eval_batch_size=args.batch_size,
        lr_scheduler_type="constant_with_warmup", warmup_steps=args.warmup, weight_decay=0.0, max_grad_norm=1.0,
        completion_only_loss=True, max_length=args.max_length or None, packing=False,
        gradient_checkpointing=args.gradient_checkpointing, bf16=cuda, use_cpu=not cuda,
        logging_steps=1, save_strategy="no", eval_strategy="no", report_to="none", disable_tqdm=True,
        dataloader_num_workers=0)
    lora = LoraConfig(r=args.rank, lora_alpha=args.alpha, lora_dropout=args.dropout, bias="none",
                      target_modules=[t for t in args.target_modules.split(",") if t], task_type="CAUSAL_LM")
    trainer = SFTTrainer(model=model, args=config, train_dataset=Dataset.from_list(train),
                         eval_dataset=Dataset.from_list(evaluation) if evaluation else None,
                         processing_class=tokenizer, peft_config=lora, callbacks=[Progress()])
    trainer.remove_callback(PrinterCallback)  # Progress prints one line per step instead of the raw dicts
    return trainer


def run(args, model, tokenizer, source: str, log=print, load_seconds: float = 0.0) -> dict:
    """Trains, saves the adapter and metrics.json in args.out; returns the metrics.
    load_seconds (the model's loading) counts into wall_seconds."""
    t0 = time.time()
    out = Path(args.out)
    model_type = model.config.model_type
    template = ensure_chat_template(tokenizer, model_type)
    rows = read(args.data, "--data")
    train, drops = prepare(rows, tokenizer, args.max_length, args.cut_completions)
    cut = drops.pop("cut", 0)
    if not train:
        raise UsageError(f"no row of {args.data} fits --max-length {args.max_length} "
                         f"(dropped: {dict(drops)}): raise --max-length")
    evaluation, eval_drops = ([], Counter())
    if args.eval:
        evaluation, eval_drops = prepare(read(args.eval, "--eval"), tokenizer, args.max_length)
        if not evaluation:
            raise UsageError(f"no row of {args.eval} fits --max-length {args.max_length}: raise --max-length")
    log(f"train_lora: {len(train)} of {len(rows)} rows fit {args.max_length} tokens "
        f"(dropped {dict(drops) or 0}, cut {cut}); model {source} ({model_type}); chat template: {template}")

    steps = []

    def on_step(step, total, logs):
        steps.append({"step": step, "loss": logs["loss"], "lr": logs.get("learning_rate"),
                      "grad_norm": logs.get("grad_norm"), "seconds": round(time.time() - t_train, 3)})
        log(f"step {step}/{total} loss {logs['loss']:.4f} lr {logs.get('learning_rate', 0):.3g} "
            f"({time.time() - t_train:.1f} s)")

    trainer = make_trainer(model, tokenizer, train, evaluation, args, out, on_step)
    params = {"trainable": sum(p.numel() for p in trainer.model.parameters() if p.requires_grad),
              "total": sum(p.numel() for p in trainer.model.parameters())}
    eval_before = trainer.evaluate()["eval_loss"] if evaluation else None
    t_train = time.time()
    trainer.train()
    train_seconds = time.time() - t_train
    eval_after = trainer.evaluate()["eval_loss"] if evaluation else None
    out.mkdir(parents=True, exist_ok=True)
    trainer.model.save_pretrained(out)
    (out / "base_model.json").write_text(json.dumps({
        "source": source, "model_type": model_type,
        "num_hidden_layers": model.config.num_hidden_layers}, indent=2) + "\n")

    losses = [s["loss"] for s in steps]
    metrics = {
        "rows": {"read": len(rows), "used": len(train), "dropped": sum(drops.values()), "drop_reasons": dict(drops),
                 "cut": cut},
        "eval_rows": ({"read": len(evaluation) + sum(eval_drops.values()), "used": len(evaluation),
                       "drop_reasons": dict(eval_drops)} if args.eval else None),
        "max_length": args.max_length,
        "tokens": {"total": sum(len(e["input_ids"]) for e in train),
                   "trained": sum(sum(e["completion_mask"]) for e in train)},
        "parameters": params, "steps": len(steps), "losses": losses,
        "first_loss": losses[0] if losses else None, "last_loss": losses[-1] if losses else None,
        "eval_loss_before": eval_before, "eval_loss_after": eval_after,
        "step_log": steps,
        "train_seconds": round(train_seconds, 3),
        "seconds_per_step": round(train_seconds / len(steps), 3) if steps else None,
        "load_seconds": round(load_seconds, 3), "wall_seconds": None,
        "model": {"source": source, "model_type": model_type, "chat_template": template},
        "hyperparameters": {"rank": args.rank, "alpha": args.alpha, "dropout": args.dropout,
                            "target_modules": args.target_modules.split(","), "lr": args.lr,
                            "epochs": args.epochs, "batch_size": args.batch_size, "max_steps": args.max_steps,
                            "warmup": args.warmup, "scheduler": "constant_with_warmup", "max_grad_norm": 1.0,
                            "seed": args.seed, "threads": args.threads,
                            "gradient_checkpointing": args.gradient_checkpointing},
        "versions": versions(),
    }
    if args.export_gguf:
        from export_gguf_lora import ExportError, export

        try:
            n = export(out, args.gguf or args.base_gguf, args.export_gguf)
        except ExportError as e:
            raise UsageError(str(e)) from None
        metrics["export_gguf"] = {"path": str(args.export_gguf), "tensors": n}
        log(f"train_lora: wrote {n} LoRA tensors to {args.export_gguf}")
    metrics["wall_seconds"] = round(time.time() - t0 + load_seconds, 3)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    first, last = metrics["first_loss"], metrics["last_loss"]
    log(f"train_lora: {len(steps)} steps on {len(train)} rows: loss {first:.4f} -> {last:.4f} "
        f"in {train_seconds:.1f} s; adapter in {out}")
    return metrics


def versions() -> dict:
    import peft
    import torch
    import transformers
    import trl

    return {"torch": torch.__version__, "transformers": transformers.__version__, "peft": peft.__version__,
            "trl": trl.__version__}


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import_stack()
        import torch

        if args.threads > 0:
            torch.set_num_threads(args.threads)
        for path, what in ((args.data, "--data"), (args.eval, "--eval")):
            if path and not Path(path).is_file():
                raise UsageError(f"{what} {path}: no such file")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        t0 = time.time()
        model, tokenizer, source = load_model(args)
        load_seconds = time.time() - t0
        print(f"train_lora: loaded {source} in {load_seconds:.1f} s", flush=True)
        run(args, model, tokenizer, source, log=lambda s: print(s, flush=True), load_seconds=load_seconds)
    except UsageError as e:
        print(f"train_lora: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
