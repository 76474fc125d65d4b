"""The data side of the training recipe: reading exports and masking the loss to the
last message. Pure Python: runs in CI without torch."""

import json

import pytest

from byte_tokenizer import ByteTokenizer
from fixit_data import (IGNORE_INDEX, RowError, encode_row, normalise_row, pad_batch, read_rows,
                        simple_template)
from rows import fixit_row, prompt_completion

TOK = ByteTokenizer()


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_reads_both_export_formats_to_the_same_messages(tmp_path):
    rows = [fixit_row(i) for i in range(3)]
    a = read_rows(write_jsonl(tmp_path / "train.jsonl", rows))
    b = read_rows(write_jsonl(tmp_path / "train_pc.jsonl", [prompt_completion(r) for r in rows]))
    assert len(a) == len(b) == 3
    for x, y in zip(a, b):
        assert [(m["role"], m["content"]) for m in x] == [(m["role"], m["content"]) for m in y]
        assert len(x) == 5


def test_blank_lines_are_skipped_and_bad_json_names_the_line(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps(fixit_row()) + "\n\n" + "{not json\n")
    with pytest.raises(RowError, match=r"t.jsonl:3: not JSON"):
        read_rows(p)


@pytest.mark.parametrize("mutate, message", [
    (lambda r: r["messages"].pop(), "last message must be the assistant"),
    (lambda r: r["messages"][4].update(weight=0), "nothing would be trained"),
    (lambda r: r["messages"][2].update(weight=1), "only the last message may be trained"),
    (lambda r: r["messages"][1].update(weight=1), "only assistant messages may carry a weight"),
    (lambda r: r["messages"][0].update(role="tool"), "role must be one of"),
    (lambda r: r["messages"][3].update(content=None), "content must be a string"),
    (lambda r: r.update(messages=r["messages"][-1:]), "at least a prompt message"),
    (lambda r: r.pop("messages"), "expected 'messages'"),
])
def test_invalid_rows_are_refused(mutate, message):
    row = fixit_row()
    mutate(row)
    with pytest.raises(RowError, match=message):
        normalise_row(row)


def test_completion_must_be_one_message():
    row = prompt_completion(fixit_row())
    row["completion"].append({"role": "assistant", "content": "x"})
    with pytest.raises(RowError, match="exactly one"):
        normalise_row(row)


def test_loss_only_on_the_last_message():
    msgs = normalise_row(fixit_row(7))
    ex = encode_row(msgs, simple_template, TOK.encode)
    assert len(ex.input_ids) == len(ex.labels)
    trained = [t for t in ex.labels if t != IGNORE_INDEX]
    # exactly the tokens of the last message's rendering, after the generation prompt
    expected = TOK.encode(msgs[-1]["content"] + "<|end|>\n")
    assert trained == expected
    # every masked token comes first: the wrong kernel and the feedback are context only
    first = next(i for i, t in enumerate(ex.labels) if t != IGNORE_INDEX)
    assert all(t == IGNORE_INDEX for t in ex.labels[:first])
    assert all(t != IGNORE_INDEX for t in ex.labels[first:])
    assert "broken kernel 7" in TOK.decode(ex.input_ids[:first])
    assert "COMPILE ERROR 7" in TOK.decode(ex.input_ids[:first])
    assert TOK.decode(trained).startswith("<think>\nfix 7")


def test_kernelgen_rows_have_three_messages():
    row = {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
                        {"role": "assistant", "content": "kernel", "weight": 1}]}
    ex = encode_row(normalise_row(row), simple_template, TOK.encode)
    assert TOK.decode([t for t in ex.labels if t != IGNORE_INDEX]) == "kernel<|end|>\n"


def test_truncation_drops_old_context_and_keeps_the_target():
    msgs = normalise_row(fixit_row())
    full = encode_row(msgs, simple_template, TOK.encode)
    cut = encode_row(msgs, simple_template, TOK.encode, max_length=len(full.input_ids) - 10)
    assert cut.input_ids == full.input_ids[10:]
    assert cut.trained_tokens == full.trained_tokens
    with pytest.raises(RowError, match="more than max_length"):
        encode_row(msgs, simple_template, TOK.encode, max_length=5)


def test_template_whose_prompt_is_not_a_prefix_is_refused():
    bad = lambda msgs, gen: ("GEN " if gen else "") + simple_template(msgs, False)  # noqa: E731
    with pytest.raises(RowError, match="not a prefix"):
        encode_row(normalise_row(fixit_row()), bad, TOK.encode)


def test_pad_batch_masks_padding():
    a = encode_row(normalise_row(fixit_row(1)), simple_template, TOK.encode)
    b = encode_row(normalise_row(fixit_row(12345)), simple_template, TOK.encode)
    batch = pad_batch([a, b], TOK.PAD)
    width = max(len(a.input_ids), len(b.input_ids))
    assert all(len(r) == width for k in batch for r in batch[k])
    short = 0 if len(a.input_ids) < width else 1
    n = len([a, b][short].input_ids)
    assert batch["attention_mask"][short][n:] == [0] * (width - n)
    assert batch["labels"][short][n:] == [IGNORE_INDEX] * (width - n)
    assert batch["input_ids"][short][n:] == [TOK.PAD] * (width - n)


def test_byte_tokenizer_round_trip():
    s = "mbarrier.try_wait ✓"
    assert TOK.decode(TOK.encode(s)) == s
    assert max(TOK.encode(s)) < 256 < TOK.vocab_size
