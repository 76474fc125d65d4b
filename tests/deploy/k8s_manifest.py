#!/usr/bin/env python3
"""deploy/k8s/ptxbench-serve.yaml as far as a CPU machine can check it (no cluster): it parses
as YAML, the serve pods get one GPU, the token from a Secret, the store on their volume and
their pod name as --instance; the HAProxy configuration in it is what `ptxbench serve
lb-config` prints for those pods (PTXBENCH: the binary) and `haproxy -c` accepts it.
Exit 77 (skipped) without python3-yaml.
    PTXBENCH=build/ptxbench python3 tests/deploy/k8s_manifest.py"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("SKIPPED: python3-yaml is not installed (apt-get install python3-yaml)")
    sys.exit(77)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MANIFEST = os.path.join(ROOT, "deploy", "k8s", "ptxbench-serve.yaml")


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    docs = [d for d in yaml.safe_load_all(open(MANIFEST)) if d]
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)
    for kind, n in (("StatefulSet", 1), ("Service", 2), ("ConfigMap", 1), ("Deployment", 1)):
        if len(by_kind.get(kind, [])) != n:
            fail(f"{n} {kind} expected, found {len(by_kind.get(kind, []))}")
    sts = by_kind["StatefulSet"][0]
    pod = sts["spec"]["template"]["spec"]
    serve = pod["containers"][0]
    args = serve["args"]
    if args[0] != "serve" or "--instance=$(POD_NAME)" not in args or "--host=0.0.0.0" not in args:
        fail(f"the serve container's args: {args}")
    if serve["resources"]["limits"].get("nvidia.com/gpu") != 1:
        fail("a serve pod must have one GPU (resources.limits nvidia.com/gpu: 1)")
    env = {e["name"]: e for e in serve["env"]}
    if env.get("PTXBENCH_SERVE_TOKEN", {}).get("valueFrom", {}).get("secretKeyRef") is None:
        fail("the token must come from a Secret (PTXBENCH_SERVE_TOKEN secretKeyRef)")
    if env.get("POD_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "metadata.name":
        fail("POD_NAME must be the pod's name (the instance name)")
    mounts = {m["name"]: m["mountPath"] for m in serve["volumeMounts"]}
    store = next(a.split("=", 1)[1] for a in args if a.startswith("--store="))
    claims = {c["metadata"]["name"] for c in sts["spec"]["volumeClaimTemplates"]}
    if not any(store.startswith(p + "/") and n in claims for n, p in mounts.items()):
        fail(f"the store {store} is not on the pod's own volume ({mounts}, claims {claims})")
    if serve["readinessProbe"]["httpGet"]["path"] != "/v1/health":
        fail("the readiness probe must be GET /v1/health (it needs no token)")
    headless = next(s for s in by_kind["Service"] if s["spec"].get("clusterIP") == "None")
    if headless["metadata"]["name"] != sts["spec"]["serviceName"]:
        fail("the StatefulSet's serviceName must be the headless Service")

    config = by_kind["ConfigMap"][0]["data"]["haproxy.cfg"]
    replicas = sts["spec"]["replicas"]
    name, svc = sts["metadata"]["name"], headless["metadata"]["name"]
    pods = [f"{name}-{k}" for k in range(replicas)]
    # Each backend (new jobs by leastconn; keyed submissions by their key's hash) has one server
    # per pod.
    backends, current = {}, None
    for line in config.splitlines():
        words = line.split()
        if line.startswith("backend "):
            current = words[1]
            backends[current] = []
        elif current and words[:1] == ["server"]:
            backends[current].append(words[1])
    if not backends:
        fail("the ConfigMap's haproxy.cfg has no backend")
    for backend, servers in backends.items():
        if servers != pods:
            fail(f"HAProxy's servers of {backend} {servers} are not the {replicas} pods {pods}")
    ptxbench = os.environ.get("PTXBENCH")
    if ptxbench:
        argv = [ptxbench, "serve", "lb-config", "--bind", "0.0.0.0:8765", "--dns"]
        for p in pods:
            argv += ["--backend", f"{p}.{svc}:8765:{p}"]
        generated = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        if generated != config:
            fail("the ConfigMap's haproxy.cfg is not what `ptxbench serve lb-config` prints now: "
                 "regenerate it (" + " ".join(argv[1:]) + ")")
    if shutil.which("haproxy"):
        with tempfile.NamedTemporaryFile("w", suffix=".cfg") as f:
            f.write(config)
            f.flush()
            r = subprocess.run(["haproxy", "-c", "-f", f.name], capture_output=True, text=True)
            if r.returncode != 0:
                fail("haproxy -c refused the ConfigMap's configuration:\n" + r.stdout + r.stderr)
    print(f"ok: {len(docs)} objects; {replicas} serve pods with a GPU each; the HAProxy configuration"
          f"{' matches lb-config' if ptxbench else ''}{' and passes haproxy -c' if shutil.which('haproxy') else ''}")


if __name__ == "__main__":
    main()
