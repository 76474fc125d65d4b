#!/usr/bin/env python3
"""CPU check of red-team manifests (kernels/controls/leak5.toml first): each parses, each entry
names a kernel file that exists, a task of tasks/, the fields the GPU runner reads with the
types it expects (tests/gpu/eval_controls/run.py, tests/controls/manifests.py), and `args` only
as a list of `--option` strings. Exit 1 with one line per problem; 0 when every entry is sound.
No GPU and no ptxbench build are needed (controls_static compiles the kernels)."""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manifests import load_manifest  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUTCOMES = {"passed", "incorrect", "runtime_error", "timeout", "policy_violation",
            "compile_error", "harness_error", "task_suite_error"}
FAMILY_VERDICTS = {"executed", "absent", "present_not_audited", "present_not_executed"}


def tasks():
    return {os.path.splitext(os.path.basename(p))[0]
            for p in glob.glob(os.path.join(ROOT, "tasks", "**", "*.toml"), recursive=True)}


def problems(path, known_tasks):
    out = []
    try:
        entries = load_manifest(path)
    except Exception as e:  # a TOML error names the line
        return [f"{path}: does not parse: {e}"]
    if not entries:
        return [f"{path}: no [[control]] entries"]
    seen = set()
    for e in entries:
        name = e.get("file", "?")
        say = lambda what: out.append(f"{path}: {name}: {what}")  # noqa: E731
        for field in ("file", "task", "expect_outcome", "expect_flags", "expect_families"):
            if field not in e:
                say(f"lacks {field}")
        if name in seen:
            say("listed twice (run.py's --batch keys entries by file)")
        seen.add(name)
        if not os.path.isfile(e["_src"]):
            say(f"names a file that does not exist ({e['_src']})")
        if e.get("task") not in known_tasks:
            say(f"names task {e.get('task')!r}, which is not in tasks/")
        if e.get("expect_outcome") not in OUTCOMES:
            say(f"expect_outcome {e.get('expect_outcome')!r} is not an outcome")
        if not isinstance(e.get("expect_flags", []), list):
            say("expect_flags is not a list")
        fams = e.get("expect_families", {})
        if not isinstance(fams, dict) or any(v not in FAMILY_VERDICTS for v in fams.values()):
            say(f"expect_families {fams!r} is not a table of family verdicts")
        if "expect_credit" in e and not isinstance(e["expect_credit"], bool):
            say("expect_credit is not true/false")
        args = e.get("args", [])
        if not isinstance(args, list) or any(not isinstance(a, str) or not a.startswith("--")
                                             for a in args):
            say(f"args {args!r} is not a list of --options")
        for field in ("candidate_output_must_contain", "model_must_not_see_flags", "seeds"):
            if not isinstance(e.get(field, []), list):
                say(f"{field} is not a list")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("manifest", nargs="+", help="manifest files, e.g. kernels/controls/leak5.toml")
    a = ap.parse_args()
    known = tasks()
    found = [p for m in a.manifest for p in problems(m, known)]
    for line in found:
        print("FAIL " + line)
    if not found:
        print(f"ok: {', '.join(a.manifest)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
