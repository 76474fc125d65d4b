#!/usr/bin/env python3
"""GPU acceptance test: run `ptxbench eval` on every entry of kernels/controls/*.toml and
assert its expect_outcome and expect_flags.

    tests/gpu/eval_controls/run.py [--ptxbench BUILD/ptxbench] [--only SUBSTRING[,SUBSTRING...]] [--fast] [--log DIR]
                                   [--batch [--shared-inputs]]

An entry with `memcheck = true` is evaluated with `--memcheck` (compute-sanitizer). An entry
with `expect_refused` (kernels/controls/sandbox.toml) must also name the refused call in the
verdict's message, and the paths of its `expect_not_created` (removed before the evaluation)
must not exist after it.

An entry's `feedback_must_not_contain` (and the handed manifests' `message_must_not_contain`)
must appear in nothing a model may be shown of the verdict (message, phase, faulting kernel);
its `max_judging_seconds` bounds one eval's wall time (not checked in --batch, where a gate
judges several), with the file compiled before (judging, not nvcc, is bounded). Its `max_extra_seconds` bounds it relative to `compare_with` (a file beside
the manifest; the task's reference kernel kernels/reference/ARCH/TASK.cu when absent): that
file is judged with the same options right after, and the entry fails when it took more than
max_extra_seconds longer (eval mode only).

An entry's `model_must_not_see_flags` must not be among the verdict's flags (the feedback prints
every one); its `candidate_output_must_contain` lines must be in the --candidate-output file (the
whole of what the session's processes printed).

An entry with `also_acceptable` passes with any of those verdicts too. Whatever the verdict, an
entry FAILS when its worker's output (eval.worker_stderr_tail, eval.worker_stdout_tail) or the
verdict's message holds a "PTXBENCH-ESCAPE" line: a step of the control's attack worked
(kernels/controls/isolation.toml). An entry with `concurrent_copies = N` is judged as N
`ptxbench eval`s started at the same time (compiled once before, so they do not race for the
compile cache), one with `sequential_copies = N` as N evals one after the other; every copy
must get an acceptable verdict and print no ESCAPE line (one result line per copy). --batch
judges such entries the same way (eval, gate's default options), outside the gates.

--fast shortens timing (1 s sample budget, 2 s where a timing flag is expected) and, for entries
that do not expect `passed`, the hang limit (5 s per kernel call). Manifests that do not exist yet are skipped; entries whose manifest expects an
outcome eval cannot produce alone are still checked against eval's verdict (compile stage
outcomes come from the compile part of the JSON). Exit 0 when every entry matches, 1 otherwise,
77 (skip) when no manifest exists.

--batch judges the entries of each (task, arch) in one `ptxbench gate --json` instead: one
process, one warm verifier per GPU shared by its sessions (src/eval/verifier_host.h), so each
candidate is judged right after another one in the same verifier process, with gate's default
options (no --fast) and a random seed per kernel. Entries that need eval's own options
(memcheck) are left out and said so. With --shared-inputs the gates run with it, and each also
checks that its kernels shared their base input sets (one input seed; a warm verifier made none
again): one more line per gate.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "controls"))
from manifests import acceptable_outcomes, copies, escape_lines, load_entries  # noqa: E402


EXTRA_EVAL_ARGS = []  # --eval-arg: added to every eval of the run


def eval_cmd(ptxbench, e, fast, seed):
    cmd = [ptxbench, "eval", e["_src"], "--task", e["task"], "--arch", e.get("arch", "sm_90a"), "--json", "--seed", str(seed)]
    flags = e.get("expect_flags", [])
    if fast:
        cmd += ["--sample-budget", "1" if not flags else "2"]
        # The 5 s hang limit only where no pass is expected: a slow honest kernel needs the
        # default limit, whose checks budget (3 call limits) its loaded re-checks fill past 15 s
        # (H100, 2026-12-07: compat/helper_named_cudacheck, 1.2 s a call, `timeout` under 5 s).
        if e.get("expect_outcome") != "passed":
            cmd += ["--call-timeout", "5"]
    if e.get("memcheck"):
        cmd += ["--memcheck"]
    cmd += [str(a) for a in e.get("args", [])]  # the entry's own eval options (leak5.toml)
    if fast and e.get("expect_outcome") == "timeout":
        cmd += ["--timeout", "60"]
    return cmd + EXTRA_EVAL_ARGS  # then the run's (--eval-arg)


def clear_not_created(e):
    for path in e.get("expect_not_created", []):  # left by an earlier run without the sandbox
        if os.path.lexists(path):
            os.remove(path)


def timed_run(cmd):
    """Runs one command; an `eval` also writes everything the candidate printed to a file of its
    own (--candidate-output: the JSON withholds it after a hidden call, and an escape line there
    must still be seen), kept as p.candidate_output."""
    out_path = None
    if cmd[1] == "eval":
        fd, out_path = tempfile.mkstemp(prefix="ptxbench-candidate-", suffix=".txt")
        os.close(fd)
        cmd = cmd + ["--candidate-output", out_path]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    secs = time.time() - t0
    p.candidate_output = read_and_remove(out_path)
    return p, secs


def read_and_remove(path):
    if not path:
        return ""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""
    finally:
        if os.path.exists(path):
            os.remove(path)


def judge(e, p, secs, name, log_dir, log_name):
    """One finished `ptxbench eval` against its entry: (ok, line, secs)."""
    if log_dir:
        with open(os.path.join(log_dir, log_name + ".json"), "w") as f:
            f.write(p.stdout + "\n--- stderr ---\n" + p.stderr)
        if p.candidate_output:
            with open(os.path.join(log_dir, log_name + ".candidate.txt"), "w") as f:
                f.write(p.candidate_output)
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        return False, f"FAIL {name}: no JSON from ptxbench (exit {p.returncode}): {p.stderr.strip()[-400:]}", secs
    return check(e, out, name, f"exit {p.returncode}, {secs:.1f}s", secs, p.candidate_output) + (secs,)


def precompile(ptxbench, src, e):
    """Builds `src` into the compile cache first, so that a judging-time bound measures judging,
    not nvcc (a cache miss on the GPU machine, whose host compiler makes other cache keys)."""
    subprocess.run([ptxbench, "compile", src, "--task", e["task"], "--arch", e.get("arch", "sm_90a")],
                   capture_output=True, text=True, timeout=900)


def run_one(ptxbench, root, e, fast, log_dir, seed=1234):
    cmd = eval_cmd(ptxbench, e, fast, seed)
    clear_not_created(e)
    if "max_extra_seconds" in e or "max_judging_seconds" in e:
        precompile(ptxbench, e["_src"], e)
    p, secs = timed_run(cmd)
    name = os.path.basename(e["file"]) + ("" if seed == 1234 else f" (seed {seed})")
    log_name = os.path.basename(e["file"]) + ("" if seed == 1234 else f".seed{seed}")
    ok, line, secs = judge(e, p, secs, name, log_dir, log_name)
    if "max_extra_seconds" in e:
        extra_ok, extra = extra_seconds_check(ptxbench, root, e, fast, seed, secs)
        ok, line = ok and extra_ok, line.replace("ok   ", "FAIL ", 1) if not extra_ok else line
        line += extra
    return ok, line, secs


def comparison_source(root, e):
    """The file an entry's max_extra_seconds is measured against: compare_with (relative to the
    entry's manifest), else the task's reference kernel."""
    if e.get("compare_with"):
        return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(e["_manifest"])), e["compare_with"]))
    return os.path.join(root, "kernels", "reference", e.get("arch", "sm_90a"), e["task"] + ".cu")


def extra_seconds_check(ptxbench, root, e, fast, seed, secs):
    """Judges the comparison file with the same options and holds the entry's wall time to the
    comparison's plus max_extra_seconds. Returns (ok, text to append to the entry's line)."""
    src = comparison_source(root, e)
    if not os.path.exists(src):
        return False, f" max_extra_seconds: no comparison file {src};"
    precompile(ptxbench, src, e)
    p, base = timed_run(eval_cmd(ptxbench, dict(e, _src=src, expect_flags=[], memcheck=False), fast, seed))
    limit = base + float(e["max_extra_seconds"])
    ok = secs <= limit
    text = (f" judged in {secs:.1f} s vs {base:.1f} s for {os.path.basename(src)} (exit {p.returncode}),"
            f" limit +{e['max_extra_seconds']} s")
    return ok, text + ("" if ok else " EXCEEDED;")


def run_copies(ptxbench, e, fast, log_dir, seed=1234):
    """An entry with concurrent_copies / sequential_copies = N: N evals of the same file, all
    started at once or one after the other. Yields (ok, line) per copy; each copy is held to the
    entry (verdict, flags, no ESCAPE line), and expect_not_created is checked after all of them."""
    mode, n = copies(e)
    cmd = eval_cmd(ptxbench, e, fast, seed)
    clear_not_created(e)
    # One compile first: the copies then find the object in the compile cache instead of
    # building it side by side.
    subprocess.run([ptxbench, "compile", e["_src"], "--task", e["task"], "--arch", e.get("arch", "sm_90a"), "--json"],
                   capture_output=True, text=True, timeout=900)
    if mode == "concurrent":
        with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
            runs = [f.result() for f in [pool.submit(timed_run, cmd) for _ in range(n)]]
    else:
        runs = [timed_run(cmd) for _ in range(n)]
    base = os.path.basename(e["file"])
    for i, (p, secs) in enumerate(runs):
        name = f"{base} (copy {i + 1}/{n}, {mode}" + ("" if seed == 1234 else f", seed {seed}") + ")"
        log_name = f"{base}.copy{i + 1}" + ("" if seed == 1234 else f".seed{seed}")
        ok, line, _ = judge(e, p, secs, name, log_dir, log_name)
        yield ok, line


def model_text_leaks(e, ev):
    """The entry's feedback_must_not_contain (or the handed manifests' message_must_not_contain)
    found in what a model may be shown of the verdict: its message, its phase, the faulting
    kernel's name (never `withheld`, which is for people)."""
    text = "\n".join(str((ev or {}).get(k) or "") for k in ("message", "phase", "faulting_kernel"))
    banned = e.get("feedback_must_not_contain", []) + e.get("message_must_not_contain", [])
    return [b for b in banned if b in text]


def check(e, out, name, how, secs=None, candidate_output=""):
    """Holds one judge report (eval --json, or a gate --json line's report) against its entry.
    With `secs` (one eval's wall time), also its max_judging_seconds."""
    flags = e.get("expect_flags", [])
    not_created = e.get("expect_not_created", [])
    ev = out.get("eval")
    got = ev["outcome"] if ev else out["compile"]["outcome"]
    got_flags = ev.get("flags", []) if ev else []
    want = e.get("expect_outcome")
    wants = acceptable_outcomes(e)
    stage = ev or out["compile"]
    message = stage.get("message") or stage.get("summary") or ""
    refused = e.get("expect_refused", "") if got == want else ""
    created = [path for path in not_created if os.path.lexists(path)]
    # A control's attack that worked, whatever the verdict (kernels/controls/isolation.toml).
    # The whole of what the candidate printed (--candidate-output) as well: the JSON withholds it
    # once a hidden call was made.
    escapes = escape_lines(ev.get("worker_stderr_tail"), ev.get("worker_stdout_tail"), message,
                           candidate_output) if ev else []
    leaks = model_text_leaks(e, ev)
    # Flags the feedback prints (run/feedback.cc flags_text prints every eval flag) that must not
    # reach the model (kernels/controls/leak4.toml), and lines the tester's copy of the
    # candidate's output must hold (--candidate-output: every process of the session).
    seen_flags = [f for f in e.get("model_must_not_see_flags", []) if f in got_flags]
    lost = [x for x in e.get("candidate_output_must_contain", []) if x not in (candidate_output or "")]
    slow = secs is not None and "max_judging_seconds" in e and secs > e["max_judging_seconds"]
    # ptxbench keeps the head and tail of a process's output (core/output_capture.h): a control
    # that printed past it could have hidden an ESCAPE line in the cut (leak5/
    # output_escape_in_middle.cu), so the run cannot be concluded.
    cut = "bytes cut by ptxbench" in (candidate_output or "")
    ok = (got in wants and all(f in got_flags for f in flags) and refused in message and not created
          and not escapes and not leaks and not slow and not seen_flags and not lost and not cut)
    detail = ""
    if leaks:
        detail += f" the model's text holds {leaks};"
    if seen_flags:
        detail += f" flags the model sees {seen_flags};"
    if lost:
        detail += f" candidate output lacks {lost};"
    if cut:
        detail += " its output was cut in the middle: an ESCAPE line may be hidden (inconclusive);"
    if slow:
        detail += f" judged in {secs:.1f} s, over its max_judging_seconds {e['max_judging_seconds']};"
    # The audit part of eval (CUPTI route by default), where the entry states expectations.
    audit = out.get("audit") or {}
    if (want == "passed" or (got == "passed" and "passed" in wants)) and audit.get("runtime_run"):
        fams = {f.get("name"): f.get("verdict") for f in audit.get("families", [])}
        for fam, verdict in e.get("expect_families", {}).items():
            if fams.get(fam, "absent") != verdict:
                ok = False
                detail += f" {fam} {fams.get(fam, 'absent')} (want {verdict});"
        metric = audit.get("instruction_metric") or {}
        if "expect_credit" in e and metric.get("evaluated") and metric.get("passed") != e["expect_credit"]:
            ok = False
            detail += f" instruction credit {metric.get('passed')} (want {e['expect_credit']});"
        cov = (audit.get("coverage") or {})
        if "expect_coverage" in e and cov.get("available"):
            lo, hi = e["expect_coverage"]
            if not lo <= cov.get("ratio", -1) <= hi:
                ok = False
                detail += f" coverage {cov.get('ratio'):.3f} outside [{lo}, {hi}];"
    if refused and refused not in message:
        detail += f" refused call {refused!r} not named in the message;"
    if created:
        detail += f" created {created};"
    if escapes:
        more = f" (+{len(escapes) - 1} more)" if len(escapes) > 1 else ""
        detail += f" ESCAPE line in the worker's output: {escapes[0][:240]!r}{more};"
    if ev:
        t = ev.get("timing") or {}
        detail += f" msg={ev.get('message','')[:160]!r}"
        if t.get("speedup") is not None:
            detail += f" speedup={t['speedup']:.3f} tflops={t['tflops']:.1f}"
    want_text = " or ".join(wants)
    line = (f"{'ok  ' if ok else 'FAIL'} {name}: outcome {got} (want {want_text}), flags {got_flags} "
            f"(want {flags}), {how}{detail}")
    return ok, line


def run_batch(ptxbench, entries, log_dir, shared_inputs=False):
    """Each (task, arch) group's entries in one `ptxbench gate --json` (with --shared-inputs:
    also the check that they shared their base input sets); yields (ok, line)."""
    groups = {}
    for e in entries:
        if e.get("memcheck"):
            yield True, f"skip {os.path.basename(e['file'])}: memcheck needs eval's --memcheck"
            continue
        if e.get("args"):  # eval options of its own: not one gate's sequence
            yield True, f"skip {os.path.basename(e['file'])}: its args {e['args']} need eval"
            continue
        if copies(e)[0]:  # several evals of one file together: not a gate's sequence
            yield from run_copies(ptxbench, e, False, log_dir)
            continue
        groups.setdefault((e["task"], e.get("arch", "sm_90a")), []).append(e)
    for (task, arch), group in groups.items():
        for e in group:
            for path in e.get("expect_not_created", []):
                if os.path.lexists(path):
                    os.remove(path)
        out_file = os.path.join(log_dir or "/tmp", f"gate-{task}-{arch}.jsonl")
        out_dir = tempfile.mkdtemp(prefix="ptxbench-gate-candidates-")
        cmd = [ptxbench, "gate", *[e["_src"] for e in group], "--task", task, "--arch", arch,
               "--json", out_file, "--force", "--candidate-output", out_dir] + (["--shared-inputs"] if shared_inputs else [])
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        secs = time.time() - t0
        lines = []
        if os.path.exists(out_file):
            with open(out_file) as f:
                lines = [json.loads(x) for x in f if x.strip()]
        by_file = {x["file"]: x for x in lines}
        for i, e in enumerate(group):
            x = by_file.get(e["_src"])
            name = os.path.basename(e["file"])
            printed = read_and_remove(os.path.join(out_dir, f"{i + 1:03}-{gate_output_name(e['_src'])}.txt"))
            if x is None:
                yield False, f"FAIL {name}: no line in {out_file} (gate exit {p.returncode}): {p.stderr.strip()[-300:]}"
                continue
            session = ((x["report"].get("eval") or {}).get("verifier_session"))
            yield check(e, x["report"], name, f"gate of {len(group)} ({secs:.1f}s), verifier session {session}",
                        candidate_output=printed)
        shutil.rmtree(out_dir, ignore_errors=True)
        if shared_inputs:
            yield shared_inputs_check(task, lines)


def gate_output_name(src):
    """gate --candidate-output's name for a kernel file (src/cli/cmd_gate.cc candidate_output_name)."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in os.path.basename(src))


SHARED = "gate's shared inputs, task"


def shared_inputs_check(task, lines):
    """A gate draws one input seed for all its kernels (src/eval/plan.h), and a warm verifier's
    sessions after its first find every base set kept (src/eval/worker/base_cache.h): none of
    them reports a base set made (timing.setup_ms.bases_made). Returns (ok, line)."""
    evals = [(x["file"], x["report"].get("eval") or {}) for x in lines]
    evals = [(f, ev) for f, ev in evals if (ev.get("verifier_session") or 0) >= 1]
    setup = lambda ev: (ev.get("timing") or {}).get("setup_ms") or {}  # noqa: E731
    seeds = {ev.get("input_seed") for _, ev in evals}
    made_again = [os.path.basename(f) for f, ev in evals
                  if ev["verifier_session"] > 1 and setup(ev).get("bases_made", 0) > 0]
    reused = sum(1 for _, ev in evals if setup(ev).get("bases_reused", 0) > 0)
    ok = len(seeds) <= 1 and None not in seeds and not made_again
    line = (f"{'ok  ' if ok else 'FAIL'} {SHARED} {task}: {len(seeds)} input seed(s) over "
            f"{len(evals)} sessions, {reused} found their base sets kept")
    if made_again:
        line += f"; made again in a warm verifier: {', '.join(made_again)}"
    return ok, line


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.environ.get("PTXBENCH_ROOT") or os.path.normpath(os.path.join(here, "..", "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxbench", default=os.path.join(root, "build", "ptxbench"))
    ap.add_argument("--only", default="", help="only entries whose file contains one of these comma-separated substrings")
    ap.add_argument("--skip", default="",
                    help="leave out entries whose file's base name is one of these (comma-separated), "
                         "e.g. those an earlier, cut-off call already judged")
    ap.add_argument("--no-memcheck", action="store_true",
                    help="leave out the entries judged with --memcheck (each can take its 120 s limit)")
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--log", default="")
    ap.add_argument("--batch", action="store_true",
                    help="each (task, arch) group in one `ptxbench gate --json` (warm verifier)")
    ap.add_argument("--shared-inputs", action="store_true",
                    help="with --batch: gate --shared-inputs, and check that each gate's kernels "
                         "shared their base input sets")
    ap.add_argument("--manifest", action="append", default=[],
                    help="run these manifest files instead of kernels/controls/*.toml (repeatable)")
    ap.add_argument("--eval-arg", action="append", default=[],
                    help="an option added to every `ptxbench eval` (repeatable; e.g. "
                         "--eval-arg=--count-timed-calls)")
    a = ap.parse_args()
    EXTRA_EVAL_ARGS.extend(a.eval_arg)
    wanted = [w for w in a.only.split(",") if w] or [""]
    entries = [e for e in load_entries(root, a.manifest) if any(w in e.get("file", "") for w in wanted)]
    skip = {w for w in a.skip.split(",") if w}
    left_out = [e for e in entries if os.path.basename(e.get("file", "")) in skip
                or (a.no_memcheck and e.get("memcheck"))]
    entries = [e for e in entries if e not in left_out]
    if left_out:
        print(f"left out as asked (--skip/--no-memcheck): {len(left_out)} entries", flush=True)
    if not entries:
        print("SKIPPED: no kernels/controls/*.toml manifests (or no entry matches)")
        return 77
    if a.log:
        os.makedirs(a.log, exist_ok=True)
    failures = 0
    if a.batch:
        results = list(run_batch(a.ptxbench, entries, a.log, a.shared_inputs))
        for ok, line in results:
            print(line, flush=True)
            failures += 0 if ok else 1
        judged = sum(1 for _, line in results if not line.startswith("skip") and SHARED not in line)
        checks = sum(1 for _, line in results if SHARED in line)
        bad = sum(1 for ok, line in results if not ok and SHARED not in line)
        shared = (f"; {checks - (failures - bad)}/{checks} gates shared their inputs"
                  if a.shared_inputs else "")
        print(f"{judged - bad}/{judged} controls as expected (batch: gate, warm verifier){shared}")
        return 1 if failures else 0
    runs = [(e, seed) for e in entries for seed in e.get("seeds", [1234])]
    judged = 0
    for e, seed in runs:
        if copies(e)[0]:
            results = list(run_copies(a.ptxbench, e, a.fast, a.log, seed))
        else:
            ok, line, _ = run_one(a.ptxbench, root, e, a.fast, a.log, seed)
            results = [(ok, line)]
        for ok, line in results:
            print(line, flush=True)
            judged += 1
            failures += 0 if ok else 1
    print(f"{judged - failures}/{judged} controls as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
