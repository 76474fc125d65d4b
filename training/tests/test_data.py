"""The data side of the training recipe: reading exports, the prompt-completion
conversion and the token fitting that keeps the trained message. Pure Python: runs in
CI without torch."""

import json

import pytest

from fixit_data import Drop, RowError, fit_tokens, normalise_row, read_rows, to_prompt_completion
from rows import fixit_row, prompt_completion


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


def test_prompt_completion_puts_only_the_repair_in_the_completion():
    row = fixit_row(7)
    pc = to_prompt_completion(normalise_row(row))
    assert [m["role"] for m in pc["prompt"]] == ["system", "user", "assistant", "user"]
    assert pc["completion"] == [{"role": "assistant", "content": row["messages"][4]["content"]}]
    assert "broken kernel 7" in pc["prompt"][2]["content"] and "COMPILE ERROR 7" in pc["prompt"][3]["content"]
    assert all("weight" not in m for m in pc["prompt"] + pc["completion"])  # TRL's format: role + content
    assert pc == prompt_completion(row)  # what `ptxbench sft` writes to train_prompt_completion.jsonl


BOS = 2
PROMPT = [BOS, 10, 11, 12, 13, 14, 15]  # BOS + 6 prompt tokens
FULL = PROMPT + [20, 21, 22]  # + 3 completion tokens


def test_a_row_that_fits_is_unchanged():
    ids, mask = fit_tokens(PROMPT, FULL, max_length=10, bos_id=BOS)
    assert ids == FULL and mask == [0] * 7 + [1] * 3
    assert fit_tokens(PROMPT, FULL, max_length=0, bos_id=BOS) == (FULL, mask)  # 0: no limit


def test_truncation_drops_the_oldest_prompt_tokens_and_keeps_bos_and_completion():
    ids, mask = fit_tokens(PROMPT, FULL, max_length=6, bos_id=BOS)
    assert ids == [BOS, 14, 15, 20, 21, 22]
    assert mask == [0, 0, 0, 1, 1, 1]
    ids, mask = fit_tokens(PROMPT, FULL, max_length=4, bos_id=BOS)  # no room for the prompt: BOS + completion
    assert ids == [BOS, 20, 21, 22] and mask == [0, 1, 1, 1]
    ids, _ = fit_tokens(PROMPT[1:], FULL[1:], max_length=5, bos_id=BOS)  # no BOS: plain left truncation
    assert ids == [14, 15, 20, 21, 22]


def test_rows_whose_completion_does_not_fit_are_dropped_with_a_reason():
    assert fit_tokens(PROMPT, FULL, max_length=3, bos_id=BOS) is Drop.COMPLETION_TOO_LONG
    assert fit_tokens(PROMPT[1:], FULL[1:], max_length=2, bos_id=BOS) is Drop.COMPLETION_TOO_LONG
    assert fit_tokens([BOS, 9, 9], [BOS, 9, 8, 20], max_length=0, bos_id=BOS) is Drop.PROMPT_NOT_PREFIX
    assert fit_tokens(PROMPT, PROMPT, max_length=0, bos_id=BOS) is Drop.EMPTY_COMPLETION
    assert Drop.COMPLETION_TOO_LONG.value == "completion_too_long"  # the key in metrics.json
