"""ptxbench_client's verifiers adapter against the real verifiers package (pinned in
clients/python/requirements-adapters.txt, installed into .deps/adapters-venv by scripts/setup.sh)
and a real `ptxbench serve` on this machine (no GPU: not_evaluated, reward 0; a reply without
code: no_code). The reward is plugged into a task's config by import path and scored by
verifiers' own Task.score, as a verifiers environment scores a rollout.
    PTXBENCH=build/ptxbench .deps/adapters-venv/bin/python clients/python/tests/test_verifiers.py
Exit 77 (skipped) when verifiers is not installed in the Python that runs it."""
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

try:
    import verifiers.v1 as vf
    from verifiers.v1.configs.agent import AgentConfig
    from verifiers.v1.configs.task import RewardFunctionConfig
    from verifiers.v1.types import AssistantMessage, UserMessage
except ImportError as e:
    print(f"SKIPPED: verifiers is not installed here ({e}); PTXBENCH_WITH_ADAPTERS=1 scripts/setup.sh")
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
KERNEL = open(os.path.join(ROOT, "tests", "kernels", "sm90_plain.cu")).read()
TASK = "gemm_n7168_k5120"


class KernelData(vf.TaskData):
    ptxbench_task: str


def rollout(data, reply):
    """A finished rollout of `data` whose model answered `reply`."""
    return vf.Trace(task=vf.TraceTask(type="Task", data=data),
                    agent=vf.AgentInfo(config=AgentConfig()),
                    nodes=[vf.MessageNode(message=UserMessage(content=str(data.prompt))),
                           vf.MessageNode(parent=0, message=AssistantMessage(content=reply),
                                          sampled=True)])


class VerifiersAdapter(unittest.TestCase):
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
        os.environ["PTXBENCH_SERVE_URL"] = m.group(1)
        os.environ.pop("PTXBENCH_SERVE_TOKEN", None)

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(30)
        cls.log.close()
        cls.dir.cleanup()

    def score(self, data, reply):
        config = vf.TaskConfig(rewards={"ptxbench": RewardFunctionConfig(
            fn="ptxbench_client.adapters:verifiers_reward")})
        trace = rollout(data, reply)
        asyncio.run(vf.Task(data, config).score(trace))
        return trace

    def test_a_plugged_reward_is_the_services_verdict(self):
        data = KernelData(prompt="write the kernel", ptxbench_task=TASK)
        trace = self.score(data, "Here it is.\n```cuda\n" + KERNEL + "```\n")
        self.assertEqual(trace.rewards["ptxbench"].score, 0.0)  # no GPU here: not_evaluated
        self.assertEqual(trace.info["ptxbench"]["disposition"], "not_evaluated")
        self.assertTrue(trace.info["ptxbench"]["job"])
        trace = self.score(data, "I would rather not.")
        self.assertEqual(trace.info["ptxbench"]["disposition"], "no_code")
        self.assertEqual(trace.reward, 0.0)

    def test_the_task_name_from_name_and_an_unknown_task_is_an_error(self):
        trace = self.score(vf.TaskData(prompt="p", name=TASK), "no code")
        self.assertEqual(trace.info["ptxbench"]["disposition"], "no_code")
        with self.assertRaises(Exception) as e:  # verifiers wraps the adapter's ServeError
            self.score(vf.TaskData(prompt="p", name="gemm_typo"), "no code")
        self.assertIn("unknown task", repr(e.exception) + repr(e.exception.__cause__))


if __name__ == "__main__":
    unittest.main()
