"""The HTTP client of `ptxbench serve` (docs/serve.md), standard library only.

    client = Client("http://127.0.0.1:8765", token=None)
    job = client.judge(task="gemm_n7168_k5120", reply=model_reply)   # submit and wait
    job.reward, job.disposition, job.feedback

Retries: a 429 waits for its Retry-After, a 5xx or a lost connection backs off exponentially,
up to `retries` times; every submission carries an idempotency key (one of its own unless given),
so a retried POST never makes a second job."""
from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence

FINAL_STATES = ("done", "cancelled", "expired")


class ServeError(RuntimeError):
    """The service refused a request (status 4xx) or kept failing (5xx, connection) past the
    retries. `status` is the HTTP status (0: no answer), `message` the service's own words."""

    def __init__(self, status: int, message: str):
        super().__init__(f"ptxbench serve: {status}: {message}" if status else f"ptxbench serve: {message}")
        self.status = status
        self.message = message


@dataclass
class Job:
    """A job as GET /v1/jobs/ID returns it; `result` is set once it is done."""

    id: int
    state: str
    raw: Dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def final(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def result(self) -> Optional[Dict[str, Any]]:
        return self.raw.get("result")

    @property
    def disposition(self) -> Optional[str]:
        """passed, incorrect, compile_error, ... (docs/judging.md); None until done."""
        return self.result["disposition"] if self.result else None

    @property
    def reward(self) -> float:
        """The preset's reward; 0.0 for a job that ended without a result (cancelled, expired)."""
        return float(self.result["reward"]["value"]) if self.result else 0.0

    @property
    def feedback(self) -> str:
        """The text a model may be shown (never show it `result['report']`: docs/serve.md)."""
        return self.result["feedback"] if self.result else f"the job ended {self.state}, unjudged"


def _job(d: Dict[str, Any]) -> Job:
    return Job(id=int(d["id"]), state=str(d["state"]), raw=d)


class Client:
    def __init__(self, base_url: str = "http://127.0.0.1:8765", token: Optional[str] = None,
                 timeout: float = 90.0, retries: int = 5, backoff: float = 0.5):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff

    # -- the API -----------------------------------------------------------------------------
    def submit(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
               **options: Any) -> int:
        """One job: `source` (.cu text) or `reply` (a model's reply); options: arch, contract,
        idempotency_key, priority, deadline_s, reward. Returns the job id."""
        body = self._job_body(task, source, reply, options)
        return int(self._call("POST", "/v1/jobs", body)["id"])

    def submit_batch(self, jobs: Sequence[Dict[str, Any]]) -> List[Any]:
        """Several jobs in one request: per job its id (int), or a ServeError for a refused one."""
        bodies = [dict(j, idempotency_key=j.get("idempotency_key") or uuid.uuid4().hex) for j in jobs]
        answers = self._call("POST", "/v1/jobs", {"jobs": bodies})["jobs"]
        return [int(a["id"]) if "id" in a else ServeError(400, a.get("error", "refused")) for a in answers]

    def get(self, job_id: int, wait: float = 0.0) -> Job:
        path = f"/v1/jobs/{int(job_id)}" + (f"?wait={min(max(wait, 0.0), 60.0):g}" if wait else "")
        return _job(self._call("GET", path))

    def wait(self, job_id: int, timeout: Optional[float] = None) -> Job:
        """Long-polls until the job ends (or `timeout` seconds: then the job as it stands)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 60.0 if deadline is None else max(0.0, min(60.0, deadline - time.monotonic()))
            job = self.get(job_id, wait=left)
            if job.final or (deadline is not None and time.monotonic() >= deadline):
                return job

    def judge(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
              timeout: Optional[float] = None, **options: Any) -> Job:
        return self.wait(self.submit(task, source, reply, **options), timeout)

    def cancel(self, job_id: int) -> bool:
        """True when cancelled; False when it was already running or ended."""
        try:
            self._call("DELETE", f"/v1/jobs/{int(job_id)}")
            return True
        except ServeError as e:
            if e.status == 409:
                return False
            raise

    def tasks(self) -> List[Dict[str, Any]]:
        return list(self._call("GET", "/v1/tasks")["tasks"])

    def health(self) -> Dict[str, Any]:
        return dict(self._call("GET", "/v1/health"))

    # -- plumbing ----------------------------------------------------------------------------
    @staticmethod
    def _job_body(task: str, source: Optional[str], reply: Optional[str],
                  options: Dict[str, Any]) -> Dict[str, Any]:
        if (source is None) == (reply is None):
            raise ValueError("give exactly one of source= and reply=")
        body: Dict[str, Any] = {"task": task, ("source" if source is not None else "reply"): source if source is not None else reply}
        body.update({k: v for k, v in options.items() if v is not None})
        body.setdefault("idempotency_key", uuid.uuid4().hex)
        return body

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        last = ServeError(0, "no attempt made")
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as r:
                    return json.loads(r.read().decode())
            except urllib.error.HTTPError as e:
                message = _error_text(e)
                last = ServeError(e.code, message)
                if e.code == 429:
                    delay = _retry_after(e, self.backoff * 2 ** attempt)
                elif e.code >= 500:
                    delay = self.backoff * 2 ** attempt
                else:
                    raise last from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                last = ServeError(0, f"{self.base_url}: {getattr(e, 'reason', e)}")
                delay = self.backoff * 2 ** attempt
            if attempt < self.retries:
                time.sleep(delay)
        raise last


def _error_text(e: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(e.read().decode()).get("error", e.reason))
    except (ValueError, AttributeError):
        return str(e.reason)


def _retry_after(e: urllib.error.HTTPError, default: float) -> float:
    try:
        return max(0.0, float(e.headers.get("Retry-After", default)))
    except (TypeError, ValueError):
        return default


class AsyncClient:
    """asyncio face of Client: each call runs in a worker thread, at most `concurrency` at once."""

    def __init__(self, *args: Any, concurrency: int = 32, **kwargs: Any):
        self.sync = Client(*args, **kwargs)
        self._limit = asyncio.Semaphore(concurrency)

    async def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        async with self._limit:
            return await asyncio.to_thread(fn, *args, **kwargs)

    async def submit(self, task: str, source: Optional[str] = None, reply: Optional[str] = None, **options: Any) -> int:
        return await self._run(self.sync.submit, task, source, reply, **options)

    async def wait(self, job_id: int, timeout: Optional[float] = None) -> Job:
        return await self._run(self.sync.wait, job_id, timeout)

    async def judge(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
                    timeout: Optional[float] = None, **options: Any) -> Job:
        job_id = await self.submit(task, source, reply, **options)
        return await self.wait(job_id, timeout)

    async def judge_many(self, jobs: Iterable[Dict[str, Any]], timeout: Optional[float] = None) -> List[Job]:
        """Every job ({task, source or reply, options...}) judged, in order."""
        return list(await asyncio.gather(*(self.judge(timeout=timeout, **j) for j in jobs)))
