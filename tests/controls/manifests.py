"""The entries of kernels/controls/*.toml, for the checks that read them (tests/controls/
static_check.py, tests/gpu/eval_controls/run.py). Each entry is the manifest's table plus
`_manifest` (the .toml it came from) and `_src` (the kernel's absolute path)."""
import glob
import os

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


def load_entries(root):
    entries = []
    for path in sorted(glob.glob(os.path.join(root, "kernels", "controls", "*.toml"))):
        if tomllib is None:
            raise SystemExit("reading " + path + " needs Python 3.11+ (tomllib)")
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for key in ("control", "controls"):
            for e in data.get(key, []):
                src = os.path.normpath(os.path.join(root, "kernels", "controls", e["file"]))
                entries.append(dict(e, _manifest=path, _src=src))
    return entries
