"""Rows shaped like `ptxbench sft fixit` output, for the tests."""

from fixit_data import synthetic_row as fixit_row  # noqa: F401


def prompt_completion(row: dict) -> dict:
    strip = lambda m: {"role": m["role"], "content": m["content"]}  # noqa: E731
    return {"prompt": [strip(m) for m in row["messages"][:-1]], "completion": [strip(row["messages"][-1])]}
