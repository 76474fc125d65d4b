"""Reading `ptxbench sft fixit|kernelgen` exports, turning rows into TRL prompt-completion
examples and fitting their tokens into max_length without cutting the trained message.

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
from enum import Enum
from pathlib import Path
from typing import Sequence

ROLES = ("system", "user", "assistant")

Message = dict


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


def to_prompt_completion(messages: Sequence[Message]) -> dict:
    """TRL's conversational prompt-completion example of a validated row: prompt = every
    message but the last, completion = [the last]; only role and content are kept (the
    loss switch `weight` is what prompt/completion expresses)."""
    strip = [{"role": m["role"], "content": m["content"]} for m in messages]
    return {"prompt": strip[:-1], "completion": strip[-1:]}


class Drop(str, Enum):
    """Why a row is not trained on (counted in metrics.json)."""
    COMPLETION_TOO_LONG = "completion_too_long"  # the trained message alone exceeds max_length
    PROMPT_NOT_PREFIX = "prompt_not_prefix"  # the chat template renders the prompt differently in the row
    EMPTY_COMPLETION = "empty_completion"  # the trained message encodes to no tokens


def fit_tokens(prompt_ids: Sequence[int], full_ids: Sequence[int], max_length: int,
               bos_id: int | None, cut_completion: bool = False) -> tuple[list, list] | Drop:
    """The (input_ids, completion_mask) SFTTrainer trains on, at most max_length tokens.

    prompt_ids are the tokens of the prompt rendered with the generation prompt, full_ids
    those of the whole conversation; the completion is what full_ids adds after the
    prompt and carries the loss (mask 1). A row longer than max_length loses prompt
    tokens from the LEFT (the oldest context), never completion tokens; a leading BOS
    (bos_id) is kept in front, as the server always adds it. A row whose completion
    (plus BOS) alone exceeds max_length is returned as Drop.COMPLETION_TOO_LONG, or with
    cut_completion kept cut: BOS, the last quarter of max_length of the prompt, and the
    completion's first tokens up to max_length (the loss on that start only).
    max_length <= 0: no limit."""
    prompt_ids, full_ids = list(prompt_ids), list(full_ids)
    if full_ids[: len(prompt_ids)] != prompt_ids:
        return Drop.PROMPT_NOT_PREFIX
    completion = full_ids[len(prompt_ids):]
    if not completion:
        return Drop.EMPTY_COMPLETION
    if max_length > 0 and len(full_ids) > max_length:
        head = prompt_ids[:1] if bos_id is not None and prompt_ids[:1] == [bos_id] else []
        room = max_length - len(head) - len(completion)
        if room < 0 and cut_completion:
            # A machine that cannot hold the whole repair (a CPU): the last quarter of
            # max_length for the end of the prompt (the feedback), the rest for the start
            # of the completion, which alone carries the loss.
            keep = min(len(prompt_ids) - len(head), (max_length - len(head)) // 4)
            prompt_ids = head + (prompt_ids[len(prompt_ids) - keep:] if keep else [])
            completion = completion[:max_length - len(prompt_ids)]
            return prompt_ids + completion, [0] * len(prompt_ids) + [1] * len(completion)
        if room < 0:
            return Drop.COMPLETION_TOO_LONG
        prompt_ids = head + (prompt_ids[len(head):][-room:] if room else [])
    return prompt_ids + completion, [0] * len(prompt_ids) + [1] * len(completion)


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
