"""Reward functions for RL trainers, each backed by a `ptxbench serve` (docs/serve.md):

* TRL (GRPOTrainer(reward_funcs=[...])): `trl_reward_func(client)` returns
  f(prompts, completions, **kwargs) -> list[float]; the task of each sample comes from the
  dataset column `task` (kwargs["task"]), completions are strings or chat messages; all of a
  step's completions are submitted and waited for together (Client.judge_batch).

Every adapter raises (ServeError, JobNotEnded) when a job is refused (an unknown task) or does
not end in time: a silent 0 would train on a wrong reward.
* verl (reward.custom_reward_function: path=pkg://ptxbench_client.adapters, or this file's
  path; name=compute_score): `compute_score(data_source, solution_str, ground_truth,
  extra_info=None)` -> {"score": float, ...}; the task is extra_info["task"], else
  ground_truth; the service from PTXBENCH_SERVE_URL (and PTXBENCH_SERVE_TOKEN).
* verifiers >= 0.4 (verifiers.v1): `verifiers_reward(task, trace)`, plugged by import path into a
  task's config (`rewards={"ptxbench": {"fn": "ptxbench_client.adapters:verifiers_reward"}}`);
  the task is the task data's `ptxbench_task` (else `name`).
* verifiers < 0.4 (Rubric(funcs=[...])): `verifiers_reward_func(client)` returns an async
  f(completion, answer, **kwargs) -> float; the task is `answer` (or info["task"]).

Every one submits the model's whole reply (`reply`): the code block is chosen as `ptxbench run`
chooses it, a reply without one scores 0 (no_code)."""
from __future__ import annotations

import asyncio
import os
from typing import Any, Callable, Dict, List, Optional, Sequence

# Absolute, not relative: verl may load this file by its path (custom_reward_function.path),
# with no package around it; ptxbench_client must be installed (pip install ./clients/python).
from ptxbench_client.client import AsyncClient, Client


def _text_of(completion: Any) -> str:
    """A completion as text: a string, or the content of a chat's last assistant message."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    raise TypeError(f"a completion is text or chat messages, not {type(completion).__name__}")


def trl_reward_func(client: Client, reward: str = "ptxbench", arch: str = "sm_90a",
                    timeout: Optional[float] = 900) -> Callable[..., List[float]]:
    def ptxbench_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> List[float]:
        tasks = kwargs.get("task")
        if tasks is None:
            raise KeyError("the dataset needs a `task` column (a ptxbench task name per prompt)")
        jobs = [{"task": t, "reply": _text_of(c), "reward": reward, "arch": arch}
                for t, c in zip(tasks, completions)]
        # A refused job (an unknown task) or one that did not end in time raises: a silent 0
        # would train on a wrong reward.
        return [job.reward for job in client.judge_batch(jobs, timeout)]

    ptxbench_reward.__name__ = f"ptxbench_{reward}"
    return ptxbench_reward


def compute_score(data_source: str, solution_str: str, ground_truth: Any,
                  extra_info: Optional[Dict[str, Any]] = None, **kwargs: Any) -> Dict[str, Any]:
    client = Client(os.environ.get("PTXBENCH_SERVE_URL", "http://127.0.0.1:8765"),
                    token=os.environ.get("PTXBENCH_SERVE_TOKEN") or None)
    task = (extra_info or {}).get("task") or ground_truth
    job = client.judge(task=str(task), reply=solution_str,
                       reward=(extra_info or {}).get("reward", "ptxbench"), timeout=900)
    components = (job.result or {}).get("reward", {}).get("components", {})
    return {"score": job.reward, "disposition": job.disposition or job.state,
            "correct": float(bool(components.get("correct"))),
            "speedup": float(components.get("speedup") or 0.0)}


def verifiers_reward_func(client: AsyncClient, reward: str = "ptxbench") -> Callable[..., Any]:
    async def ptxbench_reward(completion: Any, answer: Any = None, **kwargs: Any) -> float:
        task = answer or (kwargs.get("info") or {}).get("task")
        if not task:
            raise KeyError("the task name goes in `answer` (or info['task'])")
        job = await client.judge(task=str(task), reply=_text_of(completion), reward=reward, timeout=900)
        return job.reward

    ptxbench_reward.__name__ = f"ptxbench_{reward}"
    return ptxbench_reward


async def verifiers_reward(task: Any, trace: Any) -> float:
    """verifiers >= 0.4 (`verifiers.v1`): a reward plugged into a task's config,
    `vf.TaskConfig(rewards={"ptxbench": {"fn": "ptxbench_client.adapters:verifiers_reward"}})`
    (or returned from a `@vf.reward` method). verifiers calls it with the task's data (`task`) and
    the rollout (`trace`): the task name is `task.ptxbench_task` (a field of your TaskData
    subclass), else `task.name`; the reply is the last model response
    (`trace.assistant_messages`); the service from PTXBENCH_SERVE_URL (and PTXBENCH_SERVE_TOKEN).
    The job's id and disposition go into `trace.info["ptxbench"]`."""
    name = getattr(task, "ptxbench_task", None) or getattr(task, "name", None)
    if not name:
        raise KeyError("the task data needs `ptxbench_task` (or `name`): a ptxbench task name")
    replies = getattr(trace, "assistant_messages", None) or []
    content = replies[-1].content if replies else ""
    if isinstance(content, list):  # content parts: the text ones
        content = "".join(str(getattr(p, "text", p.get("text", "") if isinstance(p, dict) else ""))
                          for p in content)
    client = AsyncClient(os.environ.get("PTXBENCH_SERVE_URL", "http://127.0.0.1:8765"),
                         token=os.environ.get("PTXBENCH_SERVE_TOKEN") or None)
    job = await client.judge(task=str(name), reply=str(content or ""), timeout=900)
    info = getattr(trace, "info", None)
    if isinstance(info, dict):
        info["ptxbench"] = {"job": job.id, "disposition": job.disposition or job.state}
    return job.reward


def run_sync(coro: Any) -> Any:
    """For tests and scripts: run a coroutine to completion."""
    return asyncio.run(coro)
