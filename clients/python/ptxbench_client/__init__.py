"""Client of `ptxbench serve` (docs/serve.md): submit GPU-kernel candidates, get verdicts and
rewards. Standard library only; sync (Client) and asyncio (AsyncClient); adapters for verl's
compute_score, TRL's reward_funcs and verifiers' reward functions (ptxbench_client.adapters)."""
from .client import AsyncClient, Client, Job, JobNotEnded, ServeError

__all__ = ["AsyncClient", "Client", "Job", "JobNotEnded", "ServeError"]
