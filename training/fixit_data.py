"""Reading `ptxbench sft fixit|kernelgen` exports and turning rows into token ids and
labels with the loss on the trained message only.

Pure Python (no torch): the data side is tested in CI without the training stack.

Row formats (docs/sft.md):
  messages:          {"messages": [{"role", "content", "weight"?}, ...]}
                     `weight` (OpenAI's per-message loss switch) is on assistant messages:
                     1 on the last (trained), 0 on earlier ones (context).
  prompt-completion: {"prompt": [...], "completion": [one assistant message]} (TRL).
A row is trained on exactly one message: the last, an assistant message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

IGNORE_INDEX = -100  # the label value torch's cross-entropy skips
ROLES = ("system", "user", "assistant")

Message = dict
Render = Callable[[Sequence[Message], bool], str]  # (messages, add_generation_prompt) -> text
Encode = Callable[[str], list]  # text -> token ids


class RowError(ValueError):
    """A row that is not a valid SFT row; the message says which line and why."""


def _check_message(m: object, where: str) -> Message:
    if not isinstance(m, dict):
        raise RowError(f"{where}: a message must be an object, got {type(m).__name__}")
    if m.get("role") not in ROLES:
        raise RowError(f"{where}: role must be one of {ROLES}, got {m.get('role')!r}")
    if not isinstance(m.get("content"), str):
        raise RowError(f"{where}: content must be a string")
    if "weight" in m:
        if m["role"] != "assistant":
            raise RowError(f"{where}: only assistant messages may carry a weight")
        if m["weight"] not in (0, 1):
            raise RowError(f"{where}: weight must be 0 or 1, got {m['weight']!r}")
    return m


def normalise_row(row: object, where: str = "row") -> list[Message]:
    """The messages of a row in either format, validated: the last message is the
    only trained one (an assistant message; weight 1 when given), every earlier
    assistant message has weight 0 when a weight is given."""
    if not isinstance(row, dict):
        raise RowError(f"{where}: a row must be a JSON object")
    if "messages" in row:
        messages = row["messages"]
    elif "prompt" in row and "completion" in row:
        if not isinstance(row["prompt"], list) or not isinstance(row["completion"], list):
            raise RowError(f"{where}: prompt and completion must be lists of messages")
        if len(row["completion"]) != 1:
            raise RowError(f"{where}: completion must hold exactly one message")
        messages = list(row["prompt"]) + list(row["completion"])
    else:
        raise RowError(f"{where}: expected 'messages' or 'prompt' + 'completion'")
    if not isinstance(messages, list) or len(messages) < 2:
        raise RowError(f"{where}: a row needs at least a prompt message and the trained message")
    messages = [_check_message(m, f"{where} message {i}") for i, m in enumerate(messages)]
    last = messages[-1]
    if last["role"] != "assistant":
        raise RowError(f"{where}: the last message must be the assistant's (the trained one)")
    if last.get("weight", 1) != 1:
        raise RowError(f"{where}: the last message has weight 0: nothing would be trained")
    for i, m in enumerate(messages[:-1]):
        if m.get("weight", 0) != 0:
            raise RowError(f"{where} message {i}: only the last message may be trained (weight 1)")
    return messages


def read_rows(path: str | Path) -> list[list[Message]]:
    """Every row of a JSONL file (blank lines skipped), validated."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise RowError(f"{path}:{n}: not JSON ({e.msg})") from None
            rows.append(normalise_row(row, f"{path}:{n}"))
    return rows


def simple_template(messages: Sequence[Message], add_generation_prompt: bool) -> str:
    """A plain chat template for models without one (and for the tests):
    '<|role|>\\ncontent<|end|>\\n' per message; the generation prompt is '<|assistant|>\\n'."""
    text = "".join(f"<|{m['role']}|>\n{m['content']}<|end|>\n" for m in messages)
    if add_generation_prompt:
        text += "<|assistant|>\n"
    return text


@dataclass
class Example:
    input_ids: list
    labels: list  # IGNORE_INDEX where no loss is taken

    @property
    def trained_tokens(self) -> int:
        return sum(1 for t in self.labels if t != IGNORE_INDEX)


def encode_row(messages: Sequence[Message], render: Render, encode: Encode, max_length: int = 0) -> Example:
    """Token ids of the rendered conversation, with labels only on the last message.

    The prompt is render(messages[:-1], add_generation_prompt=True); its tokens must be
    a prefix of the whole conversation's tokens (true of byte-level tokenisers and of
    chat templates that end a turn on a special token). With max_length > 0 the row is
    cut from the LEFT (the oldest context goes first) so the trained message survives;
    a row whose trained message alone is longer than max_length raises RowError.
    """
    prompt_ids = list(encode(render(messages[:-1], True)))
    full_ids = list(encode(render(messages, False)))
    if full_ids[: len(prompt_ids)] != prompt_ids:
        raise RowError("the prompt's tokens are not a prefix of the conversation's tokens: "
                       "use a chat template whose generation prompt matches the assistant turn")
    labels = [IGNORE_INDEX] * len(prompt_ids) + full_ids[len(prompt_ids):]
    if max_length and len(full_ids) > max_length:
        cut = len(full_ids) - max_length
        if cut > len(prompt_ids):
            raise RowError(f"the trained message has {len(full_ids) - len(prompt_ids)} tokens, "
                           f"more than max_length={max_length}")
        full_ids, labels = full_ids[cut:], labels[cut:]
    if not any(t != IGNORE_INDEX for t in labels):
        raise RowError("the trained message encodes to no tokens")
    return Example(full_ids, labels)


def pad_batch(examples: Iterable[Example], pad_id: int) -> dict:
    """Right-padded lists: input_ids, labels (IGNORE_INDEX on padding), attention_mask."""
    examples = list(examples)
    width = max(len(e.input_ids) for e in examples)
    batch = {"input_ids": [], "labels": [], "attention_mask": []}
    for e in examples:
        pad = width - len(e.input_ids)
        batch["input_ids"].append(e.input_ids + [pad_id] * pad)
        batch["labels"].append(e.labels + [IGNORE_INDEX] * pad)
        batch["attention_mask"].append([1] * len(e.input_ids) + [0] * pad)
    return batch


def synthetic_row(i: int = 0) -> dict:
    """An export-shaped fixit row (5 messages, weights as `ptxbench sft fixit` writes
    them), for smoke runs and tests."""
    return {"messages": [
        {"role": "system", "content": "You write CUDA kernels."},
        {"role": "user", "content": f"Task {i}: C = A @ B^T"},
        {"role": "assistant", "content": f"```cuda\nbroken kernel {i}\n```", "weight": 0},
        {"role": "user", "content": f"COMPILE ERROR {i}: identifier undefined"},
        {"role": "assistant", "content": f"<think>\nfix {i}\n</think>\n\n```cuda\nfixed kernel {i}\n```",
         "weight": 1},
    ]}
