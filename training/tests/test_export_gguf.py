"""export_gguf_lora.py: a tiny Gemma 3 adapter written as a llama.cpp GGUF LoRA file and
read back with gguf's GGUFReader (KV, tensor names, shapes, values), against a base GGUF
built here with the shapes llama.cpp would have; wrong bases fail clearly.
Skipped where torch/trl/gguf are not installed."""

import json

import pytest

pytest.importorskip("torch", reason="torch is not installed (PTXBENCH_TRAINING_DEPS=1 training/setup.sh)")
pytest.importorskip("trl", reason="trl is not installed")
gguf = pytest.importorskip("gguf", reason="gguf is not installed")

import numpy as np  # noqa: E402
from safetensors.numpy import load_file  # noqa: E402

import export_gguf_lora  # noqa: E402
import train_lora  # noqa: E402
from rows import fixit_row  # noqa: E402
from tiny import save_tiny_model  # noqa: E402

HIDDEN, FFN, Q_OUT, KV_OUT, BLOCKS = 64, 128, 2 * 32, 1 * 32, 2  # tests/tiny.py's Gemma 3
# llama.cpp's names of the tiny model's projections, and (out, in) as numpy shapes
BASE = {"attn_q": (Q_OUT, HIDDEN), "attn_k": (KV_OUT, HIDDEN), "attn_v": (KV_OUT, HIDDEN),
        "attn_output": (HIDDEN, Q_OUT), "ffn_gate": (FFN, HIDDEN), "ffn_up": (FFN, HIDDEN),
        "ffn_down": (HIDDEN, FFN)}
HF = {"attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
      "attn_output": "self_attn.o_proj", "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
      "ffn_down": "mlp.down_proj"}


def base_gguf(path, arch="gemma3", hidden=HIDDEN):
    w = gguf.GGUFWriter(str(path), arch)
    w.add_block_count(BLOCKS)
    w.add_tensor("token_embd.weight", np.zeros((10, hidden), dtype=np.float32))
    for b in range(BLOCKS):
        for name, (n_out, n_in) in BASE.items():
            shape = (n_out if n_out != HIDDEN else hidden, n_in if n_in != HIDDEN else hidden)
            w.add_tensor(f"blk.{b}.{name}.weight", np.zeros(shape, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


@pytest.fixture(scope="module")
def adapter(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("export")
    model = save_tiny_model(tmp / "model")
    data = tmp / "train.jsonl"
    data.write_text("".join(json.dumps(fixit_row(i)) + "\n" for i in range(2)))
    out = tmp / "adapter"
    assert train_lora.main(["--data", str(data), "--model", str(model), "--out", str(out), "--rank", "4",
                            "--alpha", "8", "--max-steps", "2", "--lr", "1e-2", "--threads", "1",
                            "--export-gguf", str(out / "lora.gguf"),
                            "--base-gguf", str(base_gguf(tmp / "base.gguf"))]) == 0
    return out


def kv(reader, key):
    return reader.get_field(key).contents()


def test_exported_file_has_llama_cpp_lora_layout(adapter, tmp_path):
    out = tmp_path / "lora.gguf"
    assert export_gguf_lora.main(["--adapter", str(adapter), "--base-gguf", str(adapter.parent / "base.gguf"),
                                  "--out", str(out)]) == 0
    r = gguf.GGUFReader(str(out))
    assert kv(r, "general.architecture") == "gemma3"
    assert kv(r, "general.type") == "adapter" and kv(r, "adapter.type") == "lora"
    assert kv(r, "adapter.lora.alpha") == 8.0
    tensors = {t.name: t for t in r.tensors}
    expected = {f"blk.{b}.{n}.weight.lora_{ab}" for b in range(BLOCKS) for n in BASE for ab in "ab"}
    assert set(tensors) == expected
    peft = load_file(str(adapter / "adapter_model.safetensors"))
    for b in range(BLOCKS):
        for name, (n_out, n_in) in BASE.items():
            a, bb = tensors[f"blk.{b}.{name}.weight.lora_a"], tensors[f"blk.{b}.{name}.weight.lora_b"]
            # ggml order (ne): a = [in, r], b = [r, out]: llama.cpp's checks
            # base ne[0] == a ne[0], base ne[1] == b ne[1], a ne[1] == b ne[0]
            assert [int(x) for x in a.shape] == [n_in, 4] and [int(x) for x in bb.shape] == [4, n_out]
            key = f"base_model.model.model.layers.{b}.{HF[name]}"
            assert np.array_equal(a.data, peft[key + ".lora_A.weight"])  # written as peft holds them
            assert np.array_equal(bb.data, peft[key + ".lora_B.weight"])
    # train_lora --export-gguf wrote the same file
    assert (adapter / "lora.gguf").read_bytes() == out.read_bytes()
    assert json.loads((adapter / "metrics.json").read_text())["export_gguf"]["tensors"] == len(expected)


@pytest.mark.parametrize("arch, hidden, message", [
    ("llama", HIDDEN, "is a llama model but the adapter was trained on gemma3_text"),
    ("gemma3", 2 * HIDDEN, "wrong base model"),
])
def test_a_wrong_base_gguf_fails_clearly(adapter, tmp_path, capsys, arch, hidden, message):
    base = base_gguf(tmp_path / "other.gguf", arch=arch, hidden=hidden)
    out = tmp_path / "lora.gguf"
    assert export_gguf_lora.main(["--adapter", str(adapter), "--base-gguf", str(base), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("export_gguf_lora: error: ") and message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_missing_inputs_fail_clearly(adapter, tmp_path, capsys):
    (tmp_path / "junk.gguf").write_bytes(b"junk")
    for argv, message in (
        (["--adapter", str(tmp_path), "--base-gguf", str(adapter.parent / "base.gguf")], "no peft adapter"),
        (["--adapter", str(adapter), "--base-gguf", str(tmp_path / "none.gguf")], "no such file"),
        (["--adapter", str(adapter), "--base-gguf", str(tmp_path / "junk.gguf")], "not a GGUF file"),
    ):
        assert export_gguf_lora.main(argv + ["--out", str(tmp_path / "o.gguf")]) == 2
        assert message in capsys.readouterr().err
