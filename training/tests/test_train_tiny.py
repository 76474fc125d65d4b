"""Fine-tunes a tiny randomly initialised Llama (built from a config, byte tokenizer
built in code: nothing is downloaded) with LoRA for a few steps on export-shaped rows
and checks that the loss falls. Runs on CUDA when present, else CPU (a few seconds).
Skipped, saying so, where torch/transformers/peft are not installed (CI installs only
the data-side requirements; see training/setup.sh)."""

import json

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the training stack is optional in CI "
                                             "(PTXBENCH_TRAINING_DEPS=1 training/setup.sh installs it)")
pytest.importorskip("transformers", reason="transformers is not installed")
pytest.importorskip("peft", reason="peft is not installed")

import train_lora  # noqa: E402
from byte_tokenizer import ByteTokenizer  # noqa: E402
from fixit_data import IGNORE_INDEX, encode_row, normalise_row, simple_template  # noqa: E402
from rows import fixit_row  # noqa: E402


def test_lora_loss_falls_on_a_tiny_model():
    tok = ByteTokenizer()
    ex = encode_row(normalise_row(fixit_row(0)), simple_template, tok.encode)
    assert ex.labels[0] == IGNORE_INDEX and ex.trained_tokens > 0
    model = train_lora.with_lora(train_lora.tiny_model(tok.vocab_size, seed=0), rank=8, alpha=16, dropout=0.0,
                                 targets=train_lora.DEFAULT_TARGETS)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
    assert 0 < trainable < frozen  # only the adapters train

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        torch.set_num_threads(1)  # a tiny model: threads only contend (seconds vs. tens of seconds on 2 cores)
    losses = train_lora.smoke(device)
    assert len(losses) == 60
    first, last = sum(losses[:3]) / 3, sum(losses[-3:]) / 3
    print(f"device {device}: loss {first:.3f} -> {last:.3f}")
    assert last < 0.9 * first, losses  # measured on CPU: 5.48 -> 4.45


def test_cli_tiny_run_writes_adapter_and_metrics(tmp_path):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(fixit_row(i)) + "\n" for i in range(2)))
    out = tmp_path / "adapter"
    assert train_lora.main(["--data", str(data), "--tiny", "--out", str(out), "--rank", "4", "--alpha", "8",
                            "--epochs", "1", "--device", "cpu"]) == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["rows"] == 2 and metrics["steps"] == 1
    assert metrics["config"]["lr"] == 4.65e-4 and metrics["config"]["batch_size"] == 2
    assert (out / "adapter_config.json").exists()
