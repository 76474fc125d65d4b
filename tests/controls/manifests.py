"""The entries of kernels/controls/*.toml, for the checks that read them (tests/controls/
static_check.py, tests/gpu/eval_controls/run.py). Each entry is the manifest's table plus
`_manifest` (the .toml it came from) and `_src` (the kernel's absolute path).

Fields (documented at the top of each manifest): file, task, arch, expect_outcome, expect_flags,
expect_families, purpose; optional expect_coverage, memcheck, caught_by ("timing": only the
timing phase's evidence reaches the verdict), seeds (the run seeds the GPU check judges it at,
default [1234]: evidence drawn at random, such as the timing phase's repeat calls, must not
depend on the draw), expect_audit ("declined": too slow to instrument;
no credit then), expect_credit (true/false: whether the target instructions earn the task's
instruction credit, the audit's instruction_metric.passed, where it was evaluated),
model_must_not_see_flags (flags that must not be among the verdict's flags, all of which the
model's feedback prints), candidate_output_must_contain (lines the --candidate-output file must
hold: what every process of the session printed), args (extra `ptxbench eval` options the
entry is judged with, e.g. ["--count-timed-calls"]; run.py's --batch skips such entries, gate
has none of them), and, for
controls that only the
run-time sandbox can stop (kernels/controls/sandbox.toml), expect_refused (the system call or
driver function that must be refused and named in the verdict's message) and expect_not_created
(paths the candidate tries to create that must not exist after the evaluation).

For the isolation controls (kernels/controls/isolation.toml, and the handed cases): kind (what
kind of attack), also_acceptable (other verdicts a sound judge may give), runtime_attack (must get
through the compile stage although expect_outcome may be policy_violation), concurrent_copies /
sequential_copies (judge N copies at the same time / one after the other); such a control prints
"PTXBENCH-ESCAPE <name>: ..." when a step of its attack worked, which fails it whatever the
verdict."""
import glob
import os

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


def load_manifest(path):
    """The entries of one manifest file: [[control]] tables (kernels/controls/*.toml) or [[case]]
    tables (the hostile cases handed to the project, ../shared/cases/*/manifest.toml); `file` is
    relative to the manifest's folder."""
    if tomllib is None:
        raise SystemExit("reading " + path + " needs Python 3.11+ (tomllib)")
    with open(path, "rb") as f:
        data = tomllib.load(f)
    entries = []
    for key in ("control", "controls", "case"):
        for e in data.get(key, []):
            src = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), e["file"]))
            entries.append(dict(e, _manifest=path, _src=src))
    return entries


def load_entries(root, manifests=None):
    """Every entry of kernels/controls/*.toml, or of the given manifest files instead."""
    paths = manifests or sorted(glob.glob(os.path.join(root, "kernels", "controls", "*.toml")))
    entries = []
    for path in paths:
        entries.extend(load_manifest(path))
    return entries


def refused_at_run_time(entry):
    """True for a control that the static stages must let through and the sandbox must stop:
    its expect_outcome (policy_violation) comes from a refusal at run time, not from the policy
    (expect_refused names the refused call, or runtime_attack says so without naming it)."""
    return bool(entry.get("expect_refused")) or bool(entry.get("runtime_attack"))


def acceptable_outcomes(entry):
    """expect_outcome first, then also_acceptable."""
    return [entry.get("expect_outcome")] + [o for o in entry.get("also_acceptable", []) if o != entry.get("expect_outcome")]


def copies(entry):
    """("concurrent", N), ("sequential", N) or (None, 1)."""
    if int(entry.get("concurrent_copies", 1)) > 1:
        return "concurrent", int(entry["concurrent_copies"])
    if int(entry.get("sequential_copies", 1)) > 1:
        return "sequential", int(entry["sequential_copies"])
    return None, 1


ESCAPE_MARK = "PTXBENCH-ESCAPE"


def escape_lines(*texts):
    """The lines of the given texts that carry the escape mark (a control's step that worked)."""
    out = []
    for t in texts:
        for line in (t or "").splitlines():
            if ESCAPE_MARK in line:
                out.append(line.strip())
    return out
