"""Rows shaped like `ptxbench sft fixit` output, for the tests."""


def fixit_row(i: int = 0) -> dict:
    return {"messages": [
        {"role": "system", "content": "You write CUDA kernels."},
        {"role": "user", "content": f"Task {i}: C = A @ B^T"},
        {"role": "assistant", "content": f"```cuda\nbroken kernel {i}\n```", "weight": 0},
        {"role": "user", "content": f"COMPILE ERROR {i}: identifier undefined"},
        {"role": "assistant", "content": f"<think>\nfix {i}\n</think>\n\n```cuda\nfixed kernel {i}\n```", "weight": 1},
    ]}


def prompt_completion(row: dict) -> dict:
    strip = lambda m: {"role": m["role"], "content": m["content"]}  # noqa: E731
    return {"prompt": [strip(m) for m in row["messages"][:-1]], "completion": [strip(row["messages"][-1])]}
