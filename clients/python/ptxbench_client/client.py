"""The HTTP client of `ptxbench serve` (docs/serve.md), standard library only.

    client = Client("http://127.0.0.1:8765", token=None)
    job = client.judge(task="gemm_n7168_k5120", reply=model_reply)   # submit and wait
    job.reward, job.disposition, job.feedback

Retries: a 429 waits for its Retry-After, a 5xx, a 421 (a job's instance is down behind a
balancer) or a lost connection backs off exponentially, up to `retries` times; every submission
carries an idempotency key (one of its own unless given), so a retried POST never makes a second
job on one service (behind a balancer a retry may reach another instance: docs/serve.md).

Job ids are strings "INSTANCE.N" (the service's --instance name, then a number): several
services behind one balancer never share an id, and a batch poll asks each instance for its own
ids."""
from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.parse
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


class JobNotEnded(TimeoutError):
    """A job's reward or feedback was asked for before it ended (a wait that timed out)."""


@dataclass
class Job:
    """A job as GET /v1/jobs/ID returns it; `result` is set once it is done. `id` is the
    service's "INSTANCE.N"."""

    id: str
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
        """The preset's reward. A job that has not ended, or ended unjudged (cancelled, expired),
        raises JobNotEnded: a timeout or another client's cancel is not a reward of 0."""
        self._ended()
        return float(self.result["reward"]["value"])

    @property
    def feedback(self) -> str:
        """The text a model may be shown (never show it `result['report']`: docs/serve.md)."""
        self._ended()
        return self.result["feedback"]

    def _ended(self) -> None:
        if not self.final:
            raise JobNotEnded(f"job {self.id} is still {self.state}: wait longer (Client.wait)")
        if self.result is None:  # cancelled or expired: there is no verdict to reward
            raise JobNotEnded(f"job {self.id} ended {self.state}, unjudged: no reward")


def _job(d: Dict[str, Any]) -> Job:
    return Job(id=str(d["id"]), state=str(d["state"]), raw=d)


def _instance(job_id: str) -> str:
    """The instance an id names (the part before its first dot; '' for a bare number)."""
    return job_id.split(".", 1)[0] if "." in job_id else ""


def _path_id(job_id: Any) -> str:
    return urllib.parse.quote(str(job_id), safe="")


class Client:
    def __init__(self, base_url: str = "http://127.0.0.1:8765", token: Optional[str] = None,
                 timeout: float = 90.0, retries: int = 5, backoff: float = 0.5):
        # The URL serve prints ends in /v1; the paths below carry it.
        self.base_url = base_url.rstrip("/")
        if self.base_url.endswith("/v1"):
            self.base_url = self.base_url[:-3]
        self.token = token.strip() if token else None  # a token read from a file keeps its newline
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff

    # -- the API -----------------------------------------------------------------------------
    def submit(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
               **options: Any) -> str:
        """One job: `source` (.cu text) or `reply` (a model's reply); options: arch, contract,
        idempotency_key, priority, deadline_s, reward. Returns the job id ("INSTANCE.N")."""
        body = self._job_body(task, source, reply, options)
        # The key in the Idempotency-Key header too: a balancer routes on it (serve lb-config), so
        # that a retried POST reaches the instance that knows the key.
        return str(self._call("POST", "/v1/jobs", body, key=str(body["idempotency_key"]))["id"])

    def submit_batch(self, jobs: Sequence[Dict[str, Any]]) -> List[Any]:
        """Up to 1024 jobs in one request: per job its id (str), or a ServeError (with the item's
        status: 429 for a full queue, 400 for a bad job) for a refused one. judge_batch retries."""
        bodies = [dict(j, idempotency_key=j.get("idempotency_key") or uuid.uuid4().hex) for j in jobs]
        # The batch's own key in the header: a retried batch reaches the same instance behind a
        # balancer, which knows its items' keys.
        answers = self._call("POST", "/v1/jobs", {"jobs": bodies}, key=uuid.uuid4().hex)["jobs"]
        return [str(a["id"]) if "id" in a else ServeError(int(a.get("status", 400)), a.get("error", "refused"))
                for a in answers]

    def get(self, job_id: str, wait: float = 0.0) -> Job:
        path = f"/v1/jobs/{_path_id(job_id)}" + (f"?wait={min(max(wait, 0.0), 60.0):g}" if wait else "")
        return _job(self._call("GET", path))

    def wait(self, job_id: str, timeout: Optional[float] = None) -> Job:
        """Long-polls until the job ends (or `timeout` seconds: then the job as it stands)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 60.0 if deadline is None else max(0.0, min(60.0, deadline - time.monotonic()))
            asked = time.monotonic()
            job = self.get(job_id, wait=left)
            if job.final or (deadline is not None and time.monotonic() >= deadline):
                return job
            _pause_if_early(asked, left)

    def judge(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
              timeout: Optional[float] = None, **options: Any) -> Job:
        return self.wait(self.submit(task, source, reply, **options), timeout)

    def wait_many(self, job_ids: Sequence[str], timeout: Optional[float] = None) -> List[Job]:
        """Long-polls several jobs at once (GET /v1/jobs?ids=..., 256 at a time, one batch per
        instance) until all end (or `timeout` seconds: then as they stand); in the order given."""
        job_ids = [str(i) for i in job_ids]
        deadline = None if timeout is None else time.monotonic() + timeout
        jobs: Dict[str, Job] = {}
        while True:
            pending = [i for i in job_ids if i not in jobs or not jobs[i].final]
            if not pending or (deadline is not None and time.monotonic() >= deadline):
                return [jobs[i] for i in job_ids]
            left = 60.0 if deadline is None else max(0.0, min(60.0, deadline - time.monotonic()))
            asked = time.monotonic()
            # One batch per instance (a balancer routes a batch by its first id; an instance
            # answers 421 to another's ids), 256 ids a request: a URL of 1024 large ids passes
            # the server's 8 KiB line limit.
            groups: Dict[str, List[str]] = {}
            for i in pending:
                groups.setdefault(_instance(i), []).append(i)
            for group in groups.values():
                for at in range(0, len(group), 256):
                    ids = ",".join(_path_id(i) for i in group[at:at + 256])
                    for d in self._call("GET", f"/v1/jobs?ids={ids}&wait={left:g}")["jobs"]:
                        if "error" in d and "not in this answer" in d["error"]:
                            continue  # the answer's size limit: asked again next round
                        if "error" in d:
                            raise ServeError(404, f"job {d.get('id')}: {d['error']}")
                        jobs[str(d["id"])] = _job(d)
            _pause_if_early(asked, left)

    def judge_batch(self, jobs: Sequence[Dict[str, Any]], timeout: Optional[float] = None) -> List[Job]:
        """Every job ({task, source or reply, options...}) submitted in batches of 1024 and waited
        for together. Items refused for a full queue (429) are submitted again after a pause; any
        other refusal raises ServeError naming the item."""
        ids: List[Optional[str]] = [None] * len(jobs)
        bodies = [self._job_body(j["task"], j.get("source"), j.get("reply"),
                                 {k: v for k, v in j.items() if k not in ("task", "source", "reply")})
                  for j in jobs]
        for attempt in range(self.retries + 1):
            todo = [k for k, i in enumerate(ids) if i is None]
            if not todo:
                break
            for at in range(0, len(todo), 1024):
                chunk = todo[at:at + 1024]
                answers = self._call("POST", "/v1/jobs", {"jobs": [bodies[k] for k in chunk]})["jobs"]
                for k, a in zip(chunk, answers):
                    if "id" in a:
                        ids[k] = str(a["id"])
                    elif a.get("status") != 429:
                        raise ServeError(int(a.get("status", 400)), f"job {k} of the batch: {a.get('error')}")
            if any(i is None for i in ids) and attempt < self.retries:
                time.sleep(self.backoff * 2 ** attempt)
        if any(i is None for i in ids):
            raise ServeError(429, "the service's queue stayed full; try again later or add instances")
        return self.wait_many([i for i in ids if i is not None], timeout)

    def cancel(self, job_id: str) -> bool:
        """True when cancelled (a queued job; or a running one, whose judging then stops at its
        next checkpoint and whose verdict is thrown away); False when it had already ended."""
        try:
            self._call("DELETE", f"/v1/jobs/{_path_id(job_id)}")
            return True
        except ServeError as e:
            if e.status == 409:
                return False
            raise

    def tasks(self) -> List[Dict[str, Any]]:
        return list(self._call("GET", "/v1/tasks")["tasks"])

    def health(self) -> Dict[str, Any]:
        return dict(self._call("GET", "/v1/health"))

    def metrics(self) -> str:
        """GET /v1/metrics: Prometheus text."""
        return str(self._call("GET", "/v1/metrics", raw=True))

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

    def _call(self, method: str, path: str, body: Any = None, raw: bool = False,
              key: Optional[str] = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        last = ServeError(0, "no attempt made")
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as r:
                    text = r.read().decode()
                    return text if raw else json.loads(text)
            except urllib.error.HTTPError as e:
                message = _error_text(e)
                last = ServeError(e.code, message)
                if e.code == 429:
                    delay = _retry_after(e, self.backoff * 2 ** attempt)
                elif e.code >= 500 or e.code == 421:  # 421: the job's instance is down for now
                    delay = self.backoff * 2 ** attempt
                else:
                    raise last from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                last = ServeError(0, f"{self.base_url}: {getattr(e, 'reason', e)}")
                delay = self.backoff * 2 ** attempt
            if attempt < self.retries:
                time.sleep(delay)
        raise last


def _pause_if_early(asked: float, wait: float) -> None:
    """A long poll the service answered well before its wait (it had no room to wait): pause a
    little, so that pollers never spin against it."""
    if wait > 0 and time.monotonic() - asked < min(wait, 1.0) / 2:
        time.sleep(min(wait, 1.0))


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
        self._concurrency = concurrency
        self._limits: Dict[int, asyncio.Semaphore] = {}  # one per event loop (a trainer may start several)

    async def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        limit = self._limits.setdefault(id(loop), asyncio.Semaphore(self._concurrency))
        async with limit:
            return await asyncio.to_thread(fn, *args, **kwargs)

    async def submit(self, task: str, source: Optional[str] = None, reply: Optional[str] = None, **options: Any) -> str:
        return await self._run(self.sync.submit, task, source, reply, **options)

    async def wait(self, job_id: str, timeout: Optional[float] = None) -> Job:
        return await self._run(self.sync.wait, job_id, timeout)

    async def judge(self, task: str, source: Optional[str] = None, reply: Optional[str] = None,
                    timeout: Optional[float] = None, **options: Any) -> Job:
        job_id = await self.submit(task, source, reply, **options)
        return await self.wait(job_id, timeout)

    async def judge_many(self, jobs: Iterable[Dict[str, Any]], timeout: Optional[float] = None) -> List[Job]:
        """Every job ({task, source or reply, options...}) judged, in order."""
        return list(await asyncio.gather(*(self.judge(timeout=timeout, **j) for j in jobs)))
