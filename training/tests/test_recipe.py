"""The TRL recipe (train_lora.py) on a tiny random Gemma 3 built in code (tests/tiny.py):
the tokenization equals SFTTrainer's own handling of conversational prompt-completion
rows, truncation keeps the completion, the loss falls, metrics.json and the adapter are
written, and expected failures are one line and exit 2. CPU, one thread, seconds.
Skipped, saying so, where torch/transformers/peft/trl are not installed."""

import json
import sys

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the training stack is optional in CI "
                                             "(PTXBENCH_TRAINING_DEPS=1 training/setup.sh installs it)")
pytest.importorskip("transformers", reason="transformers is not installed")
pytest.importorskip("peft", reason="peft is not installed")
pytest.importorskip("trl", reason="trl is not installed")

import train_lora  # noqa: E402
from fixit_data import normalise_row, to_prompt_completion  # noqa: E402
from rows import fixit_row  # noqa: E402
from tiny import save_tiny_model, tiny_gemma3, tiny_tokenizer  # noqa: E402

torch.set_num_threads(1)  # a tiny model: threads only contend


def long_completion_row():
    row = fixit_row(99)
    row["messages"][-1]["content"] = "x" * 400  # 400 byte tokens: more than the max_length used below
    return row


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return save_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture
def tokenizer():
    tok = tiny_tokenizer()
    assert train_lora.ensure_chat_template(tok, "gemma3_text").startswith("llama.cpp gemma")
    return tok


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def test_defaults_are_the_papers():
    a = train_lora.parse_args(["--data", "d", "--gguf", "g", "--out", "o"])
    assert (a.rank, a.lr, a.epochs, a.batch_size) == (32, 4.65e-4, 5, 2)
    assert a.alpha == 64 and a.dropout == 0 and a.target_modules.split(",") == train_lora.DEFAULT_TARGETS


def test_examples_equal_sfttrainers_own_prompt_completion_processing(tokenizer):
    """What prepare() hands SFTTrainer is what TRL makes of the conversational
    prompt-completion rows itself (when nothing needs truncating): same ids, loss on the
    completion tokens only."""
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    rows = [normalise_row(fixit_row(i)) for i in range(2)]
    ours, drops = train_lora.prepare(rows, tokenizer, max_length=0)
    assert not drops
    config = SFTConfig(output_dir="/nonexistent-unused", use_cpu=True, bf16=False, report_to="none",
                       max_length=None, completion_only_loss=True, gradient_checkpointing=False)
    trl_ds = SFTTrainer(model=tiny_gemma3(len(tokenizer)), args=config, processing_class=tokenizer,
                        train_dataset=Dataset.from_list([to_prompt_completion(r) for r in rows])).train_dataset
    for mine, theirs in zip(ours, trl_ds):
        assert mine["input_ids"] == theirs["input_ids"]
        assert [t if m else -100 for t, m in zip(mine["input_ids"], mine["completion_mask"])] == theirs["labels"]
    # the trained tokens are the repair and the end of its turn, after the BOS-led prompt
    ex = ours[0]
    trained = [t for t, m in zip(ex["input_ids"], ex["completion_mask"]) if m]
    assert tokenizer.decode(trained) == rows[0][-1]["content"] + "<end_of_turn>\n"
    assert ex["input_ids"][0] == tokenizer.bos_token_id


def test_prepare_truncates_the_prompt_and_drops_rows_whose_completion_does_not_fit(tokenizer):
    rows = [normalise_row(fixit_row(0)), normalise_row(long_completion_row())]
    full, _ = train_lora.prepare(rows[:1], tokenizer, max_length=0)
    n_completion = sum(full[0]["completion_mask"])
    cut, drops = train_lora.prepare(rows, tokenizer, max_length=n_completion + 11)
    assert dict(drops) == {"completion_too_long": 1} and len(cut) == 1
    ids, mask = cut[0]["input_ids"], cut[0]["completion_mask"]
    assert len(ids) == n_completion + 11 and sum(mask) == n_completion
    assert ids[0] == tokenizer.bos_token_id and ids[1:] == full[0]["input_ids"][-(n_completion + 10):]


def test_training_run_writes_adapter_and_metrics_and_the_loss_falls(tmp_path, model_dir, capsys):
    data = write(tmp_path / "train.jsonl", [fixit_row(0), fixit_row(1), long_completion_row()])
    heldout = write(tmp_path / "heldout.jsonl", [fixit_row(0)])
    out = tmp_path / "adapter"
    assert train_lora.main(["--data", data, "--eval", heldout, "--model", str(model_dir), "--out", str(out),
                            "--max-length", "200", "--max-steps", "30", "--lr", "5e-3", "--rank", "8",
                            "--alpha", "16", "--threads", "1", "--warmup", "0"]) == 0
    printed = capsys.readouterr().out
    assert "step 1/30 loss" in printed and "step 30/30 loss" in printed
    m = json.loads((out / "metrics.json").read_text())
    assert m["rows"] == {"read": 3, "used": 2, "dropped": 1, "drop_reasons": {"completion_too_long": 1},
                         "cut": 0}  # without --cut-completions nothing is cut
    assert m["max_length"] == 200 and m["steps"] == 30 and len(m["losses"]) == 30
    assert m["first_loss"] == m["losses"][0] and m["last_loss"] == m["losses"][-1]
    assert m["last_loss"] < 0.9 * m["first_loss"], m["losses"]  # measured: 5.58 -> 4.41
    assert m["eval_loss_after"] < m["eval_loss_before"]
    assert m["model"]["source"].startswith("hf:") and m["model"]["model_type"] == "gemma3_text"
    assert m["hyperparameters"]["rank"] == 8 and m["hyperparameters"]["batch_size"] == 2
    assert m["wall_seconds"] >= m["train_seconds"] > 0
    assert m["tokens"]["trained"] < m["tokens"]["total"] <= 2 * 200
    assert 0 < m["parameters"]["trainable"] < m["parameters"]["total"] / 5  # only the LoRA matrices train
    assert (out / "adapter_config.json").exists() and (out / "adapter_model.safetensors").exists()
    config = json.loads((out / "adapter_config.json").read_text())
    assert config["r"] == 8 and config["lora_alpha"] == 16
    assert sorted(config["target_modules"]) == sorted(train_lora.DEFAULT_TARGETS)
    assert json.loads((out / "base_model.json").read_text())["model_type"] == "gemma3_text"


def expect_error(capsys, argv, message):
    assert train_lora.main(argv) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # (progress bars of the loader may come before it)
    assert last.startswith("train_lora: error: ") and message in last and "Traceback" not in err, err


def test_expected_failures_are_one_line_and_exit_2(tmp_path, model_dir, capsys):
    data = write(tmp_path / "train.jsonl", [long_completion_row()])
    out = str(tmp_path / "o")
    expect_error(capsys, ["--data", str(tmp_path / "none.jsonl"), "--model", str(model_dir), "--out", out],
                 "none.jsonl: no such file")
    expect_error(capsys, ["--data", data, "--model", str(model_dir), "--out", out, "--max-length", "100"],
                 "no row of")
    expect_error(capsys, ["--data", data, "--model", str(tmp_path), "--out", out], "not a Hugging Face model folder")
    expect_error(capsys, ["--data", data, "--gguf", str(tmp_path / "x.gguf"), "--out", out], "x.gguf: no such file")
    (tmp_path / "bad.gguf").write_bytes(b"not a gguf file at all")
    expect_error(capsys, ["--data", data, "--gguf", str(tmp_path / "bad.gguf"), "--out", out],
                 "cannot load the model")
    (tmp_path / "empty.jsonl").write_text("")
    expect_error(capsys, ["--data", str(tmp_path / "empty.jsonl"), "--model", str(model_dir), "--out", out],
                 "has no rows")


def test_missing_training_stack_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "trl", None)  # import trl now raises ImportError
    expect_error(capsys, ["--data", "d", "--model", "m", "--out", str(tmp_path)], "training/setup.sh")
