"""Writes a peft LoRA adapter as a llama.cpp GGUF LoRA adapter (`llama-server --lora FILE`).

  python3 training/export_gguf_lora.py --adapter OUT/ --base-gguf gemma-3-270m-q4_k_m.gguf --out lora.gguf

OUT is a train_lora.py output folder (adapter_config.json, adapter_model.safetensors,
base_model.json). The file holds:
  KV general.architecture (the base GGUF's), general.type = "adapter",
     adapter.type = "lora", adapter.lora.alpha (float32, peft's lora_alpha);
  per adapted weight W (out x in) two float32 tensors named after W's GGUF name
     (gguf's own tensor-name map for the architecture and block count):
     `<name>.lora_a`, numpy shape (r, in), and `<name>.lora_b`, numpy shape (out, r);
     llama.cpp computes W x + alpha / r * B (A x), as peft does.
The weights are written as peft holds them: for the targets of this recipe (attention
and MLP projections) the GGUF conversion of Gemma 3 neither permutes nor rescales them
(verified against llama-server, docs/sft.md). Every target must exist in the base GGUF
with the matching shape and the architectures must agree, or nothing is written.
Needs numpy, safetensors and gguf (training/requirements.txt), not torch.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


class ExportError(Exception):
    """An expected failure; the message says what to do."""


def _load_adapter(adapter: Path):
    from safetensors.numpy import load_file

    config_path, weights_path = adapter / "adapter_config.json", adapter / "adapter_model.safetensors"
    if not config_path.is_file() or not weights_path.is_file():
        raise ExportError(f"{adapter}: no peft adapter (adapter_config.json + adapter_model.safetensors); "
                          "train one with training/train_lora.py")
    config = json.loads(config_path.read_text())
    if config.get("peft_type") != "LORA":
        raise ExportError(f"{adapter}: peft_type {config.get('peft_type')!r}, only LORA exports")
    if config.get("use_rslora") or config.get("use_dora"):
        raise ExportError(f"{adapter}: rsLoRA/DoRA adapters are not supported by this export")
    base_path = adapter / "base_model.json"
    base = json.loads(base_path.read_text()) if base_path.is_file() else None
    return config, base, load_file(str(weights_path))


def _pairs(weights: dict) -> dict:
    """{HF module name: (A (r, in), B (out, r))} from peft's state dict."""
    pairs: dict = {}
    for key, value in weights.items():
        for part, slot in ((".lora_A.weight", 0), (".lora_B.weight", 1)):
            if key.endswith(part):
                name = key[: -len(part)].removeprefix("base_model.model.")
                pairs.setdefault(name, [None, None])[slot] = value
                break
        else:
            raise ExportError(f"unexpected tensor {key} in the adapter (only lora_A/lora_B are exported)")
    broken = [n for n, (a, b) in pairs.items() if a is None or b is None]
    if broken:
        raise ExportError(f"adapter tensors without their A/B partner: {broken[:3]}")
    return pairs


def export(adapter: str | Path, base_gguf: str | Path, out: str | Path) -> int:
    """Writes the GGUF LoRA file; returns the number of tensors written."""
    import gguf
    import numpy as np

    adapter, base_gguf = Path(adapter), Path(base_gguf)
    if not base_gguf.is_file():
        raise ExportError(f"--base-gguf {base_gguf}: no such file")
    config, base, weights = _load_adapter(adapter)
    try:
        reader = gguf.GGUFReader(str(base_gguf))
    except Exception as e:  # a file that is not GGUF: the reader raises ValueError and others
        raise ExportError(f"--base-gguf {base_gguf}: not a GGUF file ({e})") from None

    def field(key):
        f = reader.get_field(key)
        return f.contents() if f is not None else None

    arch = field("general.architecture")
    if base is not None and base.get("model_type", "").removesuffix("_text") != arch:
        raise ExportError(f"--base-gguf {base_gguf} is a {arch} model but the adapter was trained on "
                          f"{base.get('model_type')} ({base.get('source')}): pass the GGUF of that model")
    try:
        model_arch = next(k for k, v in gguf.MODEL_ARCH_NAMES.items() if v == arch)
    except StopIteration:
        raise ExportError(f"--base-gguf {base_gguf}: architecture {arch!r} unknown to this gguf package") from None
    n_blocks = field(f"{arch}.block_count")
    names = gguf.get_tensor_name_map(model_arch, int(n_blocks))
    base_shapes = {t.name: [int(d) for d in t.shape] for t in reader.tensors}  # ggml order: ne[0] = in

    writer = gguf.GGUFWriter(str(out), arch)
    writer.add_type(gguf.GGUFType.ADAPTER)
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, float(config["lora_alpha"]))
    tensors = []
    for hf_name, (a, b) in sorted(_pairs(weights).items()):
        gguf_name = names.get_name(hf_name + ".weight", try_suffixes=(".weight",))  # -> "blk.N.x.weight"
        if gguf_name is None:
            raise ExportError(f"{hf_name}: no {arch} GGUF tensor for it (gguf's tensor map)")
        if gguf_name not in base_shapes:
            raise ExportError(f"{hf_name} -> {gguf_name}: not in --base-gguf {base_gguf}: wrong base model?")
        ne = base_shapes[gguf_name]
        r, n_in = a.shape
        n_out, r_b = b.shape
        if r != r_b or ne[:2] != [n_in, n_out]:
            raise ExportError(f"{gguf_name}: base is {ne[0]} in x {ne[1]} out, the adapter {n_in} in x {n_out} out "
                              f"(rank {r}/{r_b}): wrong base model?")
        tensors.append((gguf_name + ".lora_a", np.ascontiguousarray(a, dtype=np.float32)))
        tensors.append((gguf_name + ".lora_b", np.ascontiguousarray(b, dtype=np.float32)))
    if not tensors:
        raise ExportError(f"{adapter}: the adapter has no LoRA tensors")
    for name, data in tensors:
        writer.add_tensor(name, data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return len(tensors)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--adapter", required=True, help="train_lora.py's output folder")
    p.add_argument("--base-gguf", required=True, help="the GGUF of the model the adapter was trained on")
    p.add_argument("--out", required=True, help="the GGUF LoRA file to write")
    a = p.parse_args(argv)
    try:
        try:
            import gguf  # noqa: F401
            import safetensors  # noqa: F401
        except ImportError as e:
            raise ExportError(f"{e.name} is not installed: PTXBENCH_TRAINING_DEPS=1 training/setup.sh") from None
        n = export(a.adapter, a.base_gguf, a.out)
    except ExportError as e:
        print(f"export_gguf_lora: error: {e}", file=sys.stderr)
        return 2
    print(f"export_gguf_lora: wrote {n} tensors to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
