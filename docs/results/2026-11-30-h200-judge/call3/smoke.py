#!/usr/bin/env python3
# Device smoke test (not part of ptxbench): a chosen subset of the controls and cases, compiled in
# parallel first, then judged one by one through tests/gpu/eval_controls/run.py's run_one.
import concurrent.futures, glob, os, subprocess, sys
root = "/work/main"
sys.path.insert(0, os.path.join(root, "tests", "gpu", "eval_controls"))
sys.path.insert(0, os.path.join(root, "tests", "controls"))
import run as R
from manifests import load_entries
bin_ = sys.argv[1]
names = sys.argv[2:]
ms = sorted(glob.glob(os.path.join(root, "kernels", "controls", "*.toml"))) + \
     sorted(glob.glob(os.path.join(root, ".devbin", "cases", "judge", "manifest.toml")))
ents = [e for e in load_entries(root, ms) if os.path.basename(e["file"]) in names]
ents.sort(key=lambda e: names.index(os.path.basename(e["file"])))
def comp(e):
    return subprocess.run([bin_, "compile", e["_src"], "--task", e["task"], "--json"], capture_output=True, text=True).returncode
with concurrent.futures.ThreadPoolExecutor(16) as p:
    list(p.map(comp, ents))
log = os.path.join(os.environ.get("OUT", "/tmp"), "smoke")
os.makedirs(log, exist_ok=True)
ok_n = 0
for e in ents:
    ok, line, secs = R.run_one(bin_, root, e, True, log)
    ok_n += ok
    print(line, flush=True)
print(f"{ok_n}/{len(ents)} as expected")
