#!/usr/bin/env python3
"""What judging one candidate costs on this GPU (issue 14): `ptxbench eval` (the default
judging: checks, timing, audit) on a fixed set of candidates, one after another, with the
compile cache warm, and per candidate the wall time and the judging session's phases
(eval.phase_seconds: start = verifier and runner start-up, inputs, references, calibration and
loading; checks; timing; audit). Prints one line per candidate and the median and p90 of each
column, how many outcomes are what their manifests expect (naming any that are not), and for the
slower candidates where the time went (eval.timeline: the session's round trips with its
verifier and runner processes, summed per phase and kind); --out FILE also writes one JSON line
per candidate.

    bench/judging_cost.py [--ptxbench BIN] [--manifest M.toml ...] [--only SUBSTR] [--out F]
                          [--repeat N] [--breakdown-above S] [--batch] [-- EXTRA EVAL OPTIONS]

--batch: the candidates of each task in one `ptxbench gate --json --timeline` (a run's way of
judging: one warm verifier process per GPU, src/eval/verifier_host.h) instead of one `eval`
process each. A candidate's wall time is then the time between its line of gate's JSON output and
the one before (the first: from gate's start), read as gate writes them; EXTRA options do not
apply (gate judges with eval's defaults and a random seed per kernel).

The default set: every sm_90a entry of kernels/controls/*.toml (controls and the five sm_90a
references) plus the hostile cases of ../shared/cases/judge/manifest.toml when present (or
$PTXBENCH_CASES/judge/manifest.toml). A program, not a test: it asserts nothing."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "tests", "controls"))
from manifests import load_entries  # noqa: E402

PHASES = ("start", "checks", "timing", "audit")
# Parts of those phases (eval.phase_seconds; builds before 2026-12-01 fourth session print 0):
# the verifier's start (buffers, inputs, references) within start, the library's opening check
# (its plan chosen and built) and the warm-up rounds within timing.
PARTS = ("verifier", "library_setup", "warmup")
COLUMNS = PHASES + PARTS


def default_manifests():
    paths = sorted(
        os.path.join(root, "kernels", "controls", f)
        for f in os.listdir(os.path.join(root, "kernels", "controls"))
        if f.endswith(".toml"))
    cases = os.environ.get("PTXBENCH_CASES", os.path.join(root, "..", "shared", "cases"))
    judge = os.path.join(cases, "judge", "manifest.toml")
    if os.path.exists(judge):
        paths.append(judge)
    return paths


def judge_one(ptxbench, e, extra):
    cmd = [ptxbench, "eval", e["_src"], "--task", e["task"], "--arch", "sm_90a", "--json",
           "--timeline", "--seed", "1234"] + extra
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    wall = time.time() - t0
    row = {"file": os.path.relpath(e["_src"], root), "task": e["task"], "wall_s": round(wall, 3),
           "exit": p.returncode, "expect_outcome": e.get("expect_outcome")}
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        row["error"] = p.stderr.strip()[-300:]
        return row
    return fill_row(row, out)


def fill_row(row, out):
    """The columns of one judge report (eval --json, or a gate --json line's report)."""
    ev = out.get("eval") or {}
    row["outcome"] = ev.get("outcome") or (out.get("compile") or {}).get("outcome")
    row["eval_s"] = ev.get("seconds", 0.0)
    row["verifier_session"] = ev.get("verifier_session", 0)
    for k in COLUMNS + ("warmup_rounds", "sampled_rounds"):
        row[k] = (ev.get("phase_seconds") or {}).get(k, 0)
    row["stop"] = (ev.get("timing") or {}).get("stop_reason", "")
    # The verifier's own account of its set-up, ms (timing.setup_ms; builds of the fifth session
    # of 2026-12-01 on): references; the library's sets, plans, the wait for them, its choice.
    row["setup_ms"] = (ev.get("timing") or {}).get("setup_ms", {})
    # eval.timeline (--timeline, builds of 2026-12-01's eighth session on): per "phase/kind",
    # [round trips, seconds]; the spans of a phase need not fill it (the parent's own work).
    spans = {}
    for phase, kind, _at, ms, _w, _runner in ev.get("timeline") or []:
        n, sec = spans.get(f"{phase}/{kind}", [0, 0.0])
        spans[f"{phase}/{kind}"] = [n + 1, round(sec + ms / 1000, 4)]
    row["spans"] = spans
    return row


def judge_batch(ptxbench, task, group, out_dir, gate_options=()):
    """One `ptxbench gate --json --timeline` over a task's candidates; a row per candidate, its
    wall time the gap between its JSON line and the one before, as gate writes them."""
    out_file = os.path.join(out_dir, f"gate-{task}.jsonl")
    if os.path.exists(out_file):
        os.remove(out_file)
    cmd = [ptxbench, "gate", *[e["_src"] for e in group], "--task", task, "--arch", "sm_90a",
           "--json", out_file, "--timeline", *gate_options]
    by_src = {e["_src"]: e for e in group}
    rows, pending = [], ""
    with tempfile.TemporaryFile("w+") as err, ExitStack() as files:
        t0 = last = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, text=True)
        out = None
        while True:
            done = p.poll() is not None  # before the read: the last read sees every line
            if out is None and os.path.exists(out_file):
                out = files.enter_context(open(out_file))
            pending += out.read() if out else ""
            *complete, pending = pending.split("\n")  # a line without its newline waits
            for text in (t for t in complete if t.strip()):
                x = json.loads(text)
                now = time.time()
                e = by_src.get(x["file"], {"_src": x["file"], "task": task})
                row = {"file": os.path.relpath(x["file"], root), "task": task,
                       "wall_s": round(now - last, 3), "exit": x["gate"]["exit_code"],
                       "expect_outcome": e.get("expect_outcome")}
                rows.append(fill_row(row, x["report"]))
                last = now
            if done:
                break
            time.sleep(0.02)
        err.seek(0)
        why = err.read().strip()[-300:]
    for e in group[len(rows):]:
        rows.append({"file": os.path.relpath(e["_src"], root), "task": task, "wall_s": 0.0,
                     "exit": p.returncode, "expect_outcome": e.get("expect_outcome"),
                     "error": f"no line from gate: {why}"})
    return rows, time.time() - t0


def where(row, top=6):
    """The largest spans of a candidate, for people: "audit/runner_start 2x 0.81s, ..."."""
    items = sorted((row.get("spans") or {}).items(), key=lambda kv: -kv[1][1])[:top]
    return ", ".join(f"{k} {n}x {sec:.2f}s" for k, (n, sec) in items)


def quantiles(values):
    v = sorted(values)
    if not v:
        return "-", "-"
    p90 = v[min(len(v) - 1, int(round(0.9 * (len(v) - 1))))]
    return f"{statistics.median(v):.2f}", f"{p90:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptxbench", default=os.path.join(root, "build", "ptxbench"))
    ap.add_argument("--manifest", action="append", default=[])
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--breakdown-above", type=float, default=4.0,
                    help="print where the time went for candidates of this many seconds or more")
    ap.add_argument("--batch", action="store_true",
                    help="each task's candidates in one `ptxbench gate` (warm verifier)")
    ap.add_argument("--shared-inputs", action="store_true",
                    help="with --batch: gate --shared-inputs (the task's candidates share base "
                         "input sets; the verifier computes their references once)")
    ap.add_argument("extra", nargs="*", help="options passed to every `ptxbench eval`")
    a = ap.parse_args()
    entries = [e for e in load_entries(root, a.manifest or default_manifests())
               if e.get("arch", "sm_90a") == "sm_90a" and a.only in e["file"]]
    rows = []
    out = open(a.out, "w") if a.out else None
    print(f"{'candidate':<44} {'outcome':<28} {'wall':>6} " + " ".join(f"{k[:7]:>7}" for k in COLUMNS)
          + "  rounds")
    def show(r):
        rows.append(r)
        if out:
            out.write(json.dumps(r) + "\n")
            out.flush()
        print(f"{r['file'][-44:]:<44} {str(r.get('outcome', r.get('error', '?')))[:28]:<28} "
              f"{r['wall_s']:6.2f} " + " ".join(f"{r.get(k, 0.0):7.2f}" for k in COLUMNS)
              + f"  {r.get('warmup_rounds', 0)}+{r.get('sampled_rounds', 0)}",
              flush=True)

    batches = []
    for _ in range(a.repeat):
        if not a.batch:
            for e in entries:
                show(judge_one(a.ptxbench, e, a.extra))
            continue
        groups = {}
        for e in entries:
            groups.setdefault(e["task"], []).append(e)
        for task, group in groups.items():
            got, secs = judge_batch(a.ptxbench, task, group,
                                    os.path.dirname(os.path.abspath(a.out)) if a.out else "/tmp",
                                    ["--shared-inputs"] if a.shared_inputs else [])
            batches.append((task, len(group), secs))
            for r in got:
                show(r)
    if batches:
        total = sum(s for _, _, s in batches)
        n = sum(k for _, k, _ in batches)
        print(f"\nbatch: {len(batches)} gate processes, {n} candidates, {total:.1f} s in all "
              f"({total / max(n, 1):.2f} s per candidate)")
        for task, k, secs in batches:
            print(f"  {task:<36} {k:3d} candidates {secs:7.1f} s")
    print(f"\n{len(rows)} candidates   median    p90")
    for col in ("wall_s", "eval_s") + COLUMNS:
        med, p90 = quantiles([r[col] for r in rows if col in r])
        print(f"  {col:<18} {med:>7} {p90:>7}")
    # The verdicts under the default options (the controls phase runs shorter ones): each
    # candidate's outcome against its manifest's expect_outcome, where it has one.
    expected = [r for r in rows if r.get("expect_outcome")]
    wrong = [r for r in expected if r.get("outcome") != r["expect_outcome"]]
    print(f"\n  outcomes as their manifests expect: {len(expected) - len(wrong)} of {len(expected)}")
    for r in wrong:
        print(f"    {r['file']}: {r.get('outcome', r.get('error', '?'))} "
              f"(expected {r['expect_outcome']})")
    slow = sorted((r for r in rows if r.get("spans")), key=lambda r: -r["wall_s"])
    slow = [r for r in slow if r["wall_s"] >= a.breakdown_above]
    if slow:
        print(f"\n  where the time went, candidates of {a.breakdown_above:g} s and more "
              f"(eval.timeline):")
        for r in slow:
            print(f"    {r['wall_s']:6.2f} {r['file'][-44:]:<44} {where(r)}")
    counts = ("bases_made", "bases_reused")  # how many base input sets, not milliseconds
    parts = sorted({k for r in rows for k in (r.get("setup_ms") or {})} - set(counts))
    if parts:
        print("  the verifier's set-up (timing.setup_ms), seconds:")
        for k in parts:
            med, p90 = quantiles([r["setup_ms"][k] / 1000 for r in rows if k in (r.get("setup_ms") or {})])
            print(f"    {k:<16} {med:>7} {p90:>7}")
        made = sum((r.get("setup_ms") or {}).get("bases_made", 0) for r in rows)
        kept = sum((r.get("setup_ms") or {}).get("bases_reused", 0) for r in rows)
        print(f"  base input sets of the timed sessions: {made} made, {kept} found kept (a run's "
              f"shared inputs, src/eval/worker/base_cache.h)")


if __name__ == "__main__":
    main()
