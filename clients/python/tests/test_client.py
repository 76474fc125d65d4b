"""Tests of ptxbench_client: retries and errors against a scripted HTTP server, and every call
and adapter against a real `ptxbench serve` on this machine (PTXBENCH: the binary; without a GPU
every verdict is not_evaluated, and a reply without code no_code).
    PTXBENCH=build/ptxbench python3 clients/python/tests/test_client.py"""
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ptxbench_client import AsyncClient, Client, JobNotEnded, ServeError  # noqa: E402
from ptxbench_client import adapters  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
KERNEL = open(os.path.join(ROOT, "tests", "kernels", "sm90_plain.cu")).read()
TASK = "gemm_n7168_k5120"


class Scripted(http.server.BaseHTTPRequestHandler):
    """Answers POST /v1/jobs from a script of (status, headers, body); records each body."""
    script, seen, gets = [], [], []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Scripted.seen.append(body)
        status, headers, answer = Scripted.script.pop(0)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        data = json.dumps(answer).encode()
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # every job asked for is done, reward 1
        Scripted.gets.append(self.path)
        ids = self.path.split("ids=")[1].split("&")[0].split(",")
        data = json.dumps({"jobs": [{"id": i, "state": "done", "result": {
            "disposition": "passed", "reward": {"value": 1.0}, "feedback": "ok"}} for i in ids]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class Retries(unittest.TestCase):
    def setUp(self):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.client = Client(f"http://127.0.0.1:{self.server.server_port}", retries=3, backoff=0.01)
        Scripted.seen = []

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_429_then_accepted_is_one_job(self):
        Scripted.script = [(429, {"Retry-After": "0"}, {"error": "full"}), (503, {}, {"error": "stopping"}),
                           (202, {}, {"id": "n1.7", "state": "queued"})]
        self.assertEqual(self.client.submit(TASK, source="x"), "n1.7")
        keys = {b["idempotency_key"] for b in Scripted.seen}
        self.assertEqual(len(Scripted.seen), 3)
        self.assertEqual(len(keys), 1, "a retried POST must carry the same idempotency key")

    def test_a_refusal_is_raised_at_once_with_the_services_words(self):
        Scripted.script = [(400, {}, {"error": "unknown task \"x\""})]
        with self.assertRaises(ServeError) as e:
            self.client.submit("x", source="y")
        self.assertEqual(e.exception.status, 400)
        self.assertIn("unknown task", str(e.exception))
        self.assertEqual(len(Scripted.seen), 1)

    def test_gives_up_after_its_retries(self):
        Scripted.script = [(500, {}, {"error": "boom"})] * 4
        with self.assertRaises(ServeError) as e:
            self.client.submit(TASK, source="x")
        self.assertEqual(e.exception.status, 500)
        self.assertEqual(len(Scripted.seen), 4)

    def test_judge_batch_submits_again_only_what_a_full_queue_refused(self):
        Scripted.script = [(202, {"Retry-After": "5"}, {"jobs": [{"id": "n1.1", "state": "queued"},
                                                                 {"error": "full", "status": 429}]}),
                           (202, {}, {"jobs": [{"id": "n2.1", "state": "queued"}]})]
        Scripted.gets = []
        jobs = self.client.judge_batch([{"task": TASK, "reply": "a"}, {"task": TASK, "reply": "b"}])
        self.assertEqual([j.id for j in jobs], ["n1.1", "n2.1"])
        # one batch poll per instance: a balancer routes a batch by its first id
        self.assertEqual(sorted(g.split("ids=")[1].split("&")[0] for g in Scripted.gets), ["n1.1", "n2.1"])
        self.assertEqual([j.reward for j in jobs], [1.0, 1.0])
        self.assertEqual([b["reply"] for b in Scripted.seen[1]["jobs"]], ["b"])
        self.assertEqual(Scripted.seen[0]["jobs"][1]["idempotency_key"], Scripted.seen[1]["jobs"][0]["idempotency_key"])

    def test_judge_batch_raises_for_a_bad_item(self):
        Scripted.script = [(202, {}, {"jobs": [{"error": "unknown task \"x\"", "status": 400}]})]
        with self.assertRaises(ServeError) as e:
            self.client.judge_batch([{"task": "x", "reply": "a"}])
        self.assertIn("job 0 of the batch: unknown task", str(e.exception))

    def test_url_and_token_as_users_write_them(self):
        c = Client("http://127.0.0.1:1/v1/", token="abc\n")
        self.assertEqual(c.base_url, "http://127.0.0.1:1")
        self.assertEqual(c.token, "abc")

    def test_source_or_reply_exactly_one(self):
        with self.assertRaises(ValueError):
            self.client.submit(TASK)
        with self.assertRaises(ValueError):
            self.client.submit(TASK, source="a", reply="b")


@unittest.skipUnless(os.environ.get("PTXBENCH"), "PTXBENCH (the ptxbench binary) is not set")
class AgainstARealService(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        env = dict(os.environ, PTXBENCH_NO_GPU="1", PTXBENCH_ROOT=ROOT,
                   PTXBENCH_CACHE=os.path.join(cls.dir.name, "cache"))
        env.pop("PTXBENCH_SERVE_TOKEN", None)
        cls.log = open(os.path.join(cls.dir.name, "serve.log"), "w+")
        cls.proc = subprocess.Popen([os.environ["PTXBENCH"], "serve", "--port", "0", "--store",
                                     os.path.join(cls.dir.name, "jobs.db")], env=env, stderr=cls.log)
        for _ in range(100):
            cls.log.seek(0)
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+)/v1", cls.log.read())
            if m:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("ptxbench serve did not start")
        cls.url = m.group(1)
        cls.client = Client(cls.url)

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(30)
        cls.dir.cleanup()

    def test_judge_a_source(self):
        job = self.client.judge(TASK, source=KERNEL, timeout=300)
        self.assertEqual(job.state, "done")
        self.assertEqual(job.disposition, "not_evaluated")
        self.assertEqual(job.reward, 0.0)
        self.assertIn("GPU stages skipped", job.feedback)
        self.assertTrue(job.result["reward"]["components"]["compiled"])

    def test_tasks_health_cancel(self):
        names = {t["name"] for t in self.client.tasks()}
        self.assertIn(TASK, names)
        self.assertEqual(self.client.health()["status"], "ok")
        self.assertIn("# TYPE ptxbench_jobs_submitted_total counter", self.client.metrics())
        job_id = self.client.submit(TASK, source=KERNEL)
        self.client.wait(job_id, timeout=300)
        self.assertFalse(self.client.cancel(job_id))  # already ended: 409 -> False
        self.assertRegex(job_id, r"^[A-Za-z][A-Za-z0-9_-]*\.\d+$")  # INSTANCE.N
        with self.assertRaises(ServeError) as e:
            self.client.get(job_id.split(".")[0] + ".123456")
        self.assertEqual(e.exception.status, 404)
        quick = Client(self.url, retries=0)
        with self.assertRaises(ServeError) as e:  # another instance's job: 421 naming it
            quick.get("elsewhere.5")
        self.assertEqual(e.exception.status, 421)
        self.assertIn("instance elsewhere", str(e.exception))

    def test_trl_reward_func_with_chat_completions(self):
        f = adapters.trl_reward_func(self.client)
        rewards = f(prompts=["p1", "p2"],
                    completions=[[{"role": "assistant", "content": f"```cuda\n{KERNEL}```"}],
                                 [{"role": "assistant", "content": "I cannot."}]],
                    task=[TASK, TASK])
        self.assertEqual(rewards, [0.0, 0.0])
        self.assertEqual(f.__name__, "ptxbench_ptxbench")

    def test_an_unended_job_has_no_reward(self):
        job_id = self.client.submit(TASK, source="// unended\n" + KERNEL)
        job = self.client.get(job_id)
        if not job.final:
            with self.assertRaises(JobNotEnded):
                job.reward
        self.assertEqual(self.client.wait(job_id, timeout=300).state, "done")

    def test_trl_adapter_raises_for_an_unknown_task(self):
        f = adapters.trl_reward_func(self.client)
        with self.assertRaises(ServeError) as e:
            f(prompts=["p"], completions=["x"], task=["gemm_typo"])
        self.assertIn("unknown task", str(e.exception))

    def test_verl_compute_score(self):
        os.environ["PTXBENCH_SERVE_URL"] = self.url
        out = adapters.compute_score("ptxbench", "no code at all", TASK, extra_info={"task": TASK})
        self.assertEqual(out["score"], 0.0)
        self.assertEqual(out["disposition"], "no_code")

    def test_verl_loads_and_calls_compute_score_as_verl_does(self):
        """verl 0.9.1's own loader (verl/utils/import_utils.py, pinned by scripts/setup.sh) loads
        the adapter both ways its config names one (pkg:// and a file path), and the adapter is
        called with the keywords verl's NaiveRewardManager passes, read from verl's source. The
        rest of verl needs torch (and the CUDA stack with it), ray and tensordict: not loaded."""
        verl = os.environ.get("PTXBENCH_VERL_DIR") or os.path.join(ROOT, ".deps", "wheels", "verl")
        loader_py = os.path.join(verl, "verl", "utils", "import_utils.py")
        naive_py = os.path.join(verl, "verl", "workers", "reward_manager", "naive.py")
        if not os.path.exists(loader_py):
            self.skipTest(f"verl is not unpacked at {verl} (scripts/setup.sh fetches it)")
        import ast
        import importlib.util
        spec = importlib.util.spec_from_file_location("verl_import_utils", loader_py)
        loader = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loader)
        # The keywords NaiveRewardManager calls compute_score with, from its source.
        with open(naive_py) as f:
            tree = ast.parse(f.read())
        calls = [n for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr == "compute_score"]
        self.assertTrue(calls, "verl's NaiveRewardManager no longer calls compute_score")
        keywords = {k.arg for k in calls[0].keywords}
        self.assertEqual(keywords, {"data_source", "solution_str", "ground_truth", "extra_info"})
        os.environ["PTXBENCH_SERVE_URL"] = self.url
        adapters_py = os.path.join(ROOT, "clients", "python", "ptxbench_client", "adapters.py")
        for path in ("pkg://ptxbench_client.adapters", adapters_py):
            fn = loader.load_extern_object(module_path=path, object_name="compute_score")
            args = {"data_source": "ptxbench", "ground_truth": TASK, "extra_info": {"task": TASK}}
            out = fn(solution_str="```cuda\n" + KERNEL + "```", **args)
            self.assertEqual((out["score"], out["disposition"]), (0.0, "not_evaluated"), path)
            out = fn(solution_str="no code", **args)
            self.assertEqual(out["disposition"], "no_code", path)

    def test_verifiers_reward_func_and_async_many(self):
        ac = AsyncClient(self.url + "/v1", concurrency=4)
        f = adapters.verifiers_reward_func(ac)
        self.assertEqual(adapters.run_sync(f("```cuda\n" + KERNEL + "```", answer=TASK)), 0.0)
        self.assertEqual(adapters.run_sync(f("no code", answer=TASK)), 0.0)  # a second event loop
        jobs = adapters.run_sync(ac.judge_many([{"task": TASK, "source": KERNEL},
                                                {"task": TASK, "reply": "nothing"}], timeout=300))
        self.assertEqual([j.disposition for j in jobs], ["not_evaluated", "no_code"])


if __name__ == "__main__":
    unittest.main()
