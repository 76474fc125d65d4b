"""The chat template of template-less Gemma tokenizers (chat_template.py) renders what
llama-server's built-in `gemma` template renders, and check_template.py notices when it
does not. Needs jinja2 only (no server: the expected strings below were checked
byte for byte against llama-server's POST /apply-template, build 11434)."""

import json

import pytest

pytest.importorskip("jinja2", reason="jinja2 is not installed (training/requirements-data.txt)")

import check_template  # noqa: E402
from chat_template import reference_render, render  # noqa: E402
from fixit_data import normalise_row  # noqa: E402
from rows import fixit_row  # noqa: E402

# Leading/trailing whitespace of every message is trimmed (C isspace only: the \t goes,
# the é stays), the system message is folded into the first user turn.
ROW = [
    {"role": "system", "content": "You write CUDA kernels.\n"},
    {"role": "user", "content": "  Task: C = A @ B^T\n"},
    {"role": "assistant", "content": "```cuda\nbroken\n```\n\n"},
    {"role": "user", "content": "COMPILE ERROR: \u00e9 undefined\t"},
    {"role": "assistant", "content": "<think>\nfix\n</think>\n\n```cuda\nfixed\n```"},
]
# llama-server's /apply-template answers for ROW and ROW[:-1] (verified 2026-12-01)
SERVER_CONVERSATION = ("<start_of_turn>user\nYou write CUDA kernels.\n\nTask: C = A @ B^T<end_of_turn>\n"
                       "<start_of_turn>model\n```cuda\nbroken\n```<end_of_turn>\n"
                       "<start_of_turn>user\nCOMPILE ERROR: \u00e9 undefined<end_of_turn>\n"
                       "<start_of_turn>model\n<think>\nfix\n</think>\n\n```cuda\nfixed\n```<end_of_turn>\n")
SERVER_PROMPT = ("<start_of_turn>user\nYou write CUDA kernels.\n\nTask: C = A @ B^T<end_of_turn>\n"
                 "<start_of_turn>model\n```cuda\nbroken\n```<end_of_turn>\n"
                 "<start_of_turn>user\nCOMPILE ERROR: \u00e9 undefined<end_of_turn>\n<start_of_turn>model\n")


def test_golden_row_renders_as_the_server_does():
    assert render(ROW, False, bos_token="<bos>") == "<bos>" + SERVER_CONVERSATION
    assert render(ROW[:-1], True, bos_token="<bos>") == "<bos>" + SERVER_PROMPT
    assert reference_render(ROW, False) == SERVER_CONVERSATION


@pytest.mark.parametrize("messages", [
    [{"role": "system", "content": "S1 "}, {"role": "system", "content": " S2"},
     {"role": "assistant", "content": "A0"}, {"role": "user", "content": "U"}],  # system waits for a user turn
    [{"role": "system", "content": " \n "}, {"role": "user", "content": "U"}],  # empty system: no blank line
    [{"role": "user", "content": "\x0b\x0cU\r"}, {"role": "assistant", "content": "\u00a0A\u2003"}],
])
def test_jinja_template_equals_the_plain_python_rendering(messages):
    for gen in (False, True):
        assert render(messages, gen) == reference_render(messages, gen)
    assert render(messages, False).startswith("<start_of_turn>")  # no BOS text unless bos_token is given


def test_the_prompt_is_a_prefix_of_the_conversation():
    messages = normalise_row(fixit_row(3))
    assert render(messages, False).startswith(render(messages[:-1], True))


def test_check_template_passes_on_equal_and_fails_on_different_renderings(tmp_path, monkeypatch):
    data = tmp_path / "train.jsonl"
    data.write_text(json.dumps({"messages": ROW}) + "\n")
    answers = {len(ROW): SERVER_CONVERSATION, len(ROW) - 1: SERVER_PROMPT}
    monkeypatch.setattr(check_template, "server_render", lambda url, msgs: answers[len(msgs)])
    assert check_template.main(["--base-url", "http://x/v1", "--data", str(data)]) == 0
    answers[len(ROW)] = SERVER_CONVERSATION.replace("model\n<think>", "model\n <think>")
    assert check_template.main(["--base-url", "http://x", "--data", str(data)]) == 1


def test_check_template_without_a_server_says_so(tmp_path, capsys):
    data = tmp_path / "train.jsonl"
    data.write_text(json.dumps({"messages": ROW}) + "\n")
    assert check_template.main(["--base-url", "http://127.0.0.1:9", "--data", str(data)]) == 2
    assert "is llama-server running" in capsys.readouterr().err
