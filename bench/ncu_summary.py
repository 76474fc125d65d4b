#!/usr/bin/env python3
"""One markdown table from Nsight Compute CSVs (`ncu --csv --page details`), a row per kernel.

    bench/ncu_summary.py TASK.csv [TASK.csv ...]

Written for the CSVs of scripts/device-profile.sh (the task is the file's stem). Columns: the
kernel (name without its namespace and arguments), launch shape, duration, SM clock, SM
throughput (% of peak), the busiest pipe and its share (from ncu's HighPipeUtilization rule;
on Hopper wgmma counts in both "Tensor" and "Shared"), memory throughput and DRAM share,
L2 hit rate, issue slots busy, warp cycles per issued instruction, the three largest stall
reasons (cycles per issued instruction, averaged over all warps) where collected, and
achieved occupancy. A value ncu did
not report is shown as "-". Lines ncu writes for itself ("==PROF==" ...) are ignored.
"""
import csv
import os
import re
import sys

STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio")
TOP_PIPE = re.compile(r"(\w[\w ]*?) is the highest-utilized pipeline \(([\d.]+)%\)")
COLUMNS = ["task", "kernel", "grid x block", "time (us)", "SM GHz", "SM %", "top pipe", "mem %",
           "DRAM %", "L2 hit %", "issue busy %", "cyc/issue", "top stalls (cyc/issue)", "occupancy %"]


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def short_name(kernel):
    name = kernel.split("(")[0]
    return name.split("::")[-1]


def read_kernels(path):
    """[(kernel, shape, {metric: value}, [rule descriptions])] in launch order."""
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("==")]
    kernels, by_id = [], {}
    for row in csv.DictReader(lines):
        kid = row.get("ID")
        if kid not in by_id:
            shape = row.get("Grid Size", "") + " x " + row.get("Block Size", "")
            by_id[kid] = (short_name(row.get("Kernel Name", "?")), shape, {}, [])
            kernels.append(by_id[kid])
        _, _, metrics, rules = by_id[kid]
        if row.get("Metric Name"):
            value = row.get("Metric Value", "")
            metrics.setdefault(row["Metric Name"], value)
            metrics.setdefault(row["Metric Name"] + "|" + row.get("Metric Unit", ""), value)
        elif row.get("Rule Description"):
            rules.append(row["Rule Description"])
    return kernels


def fmt(value, scale=1.0, digits=1):
    return "-" if value is None else f"{value * scale:.{digits}f}"


def top_pipe(rules):
    for text in rules:
        m = TOP_PIPE.search(text)
        if m:
            return f"{m.group(1)} {float(m.group(2)):.0f}%"
    return "-"


def top_stalls(metrics, n=3):
    stalls = []
    for name, value in metrics.items():
        m = STALL.fullmatch(name)
        v = number(value)
        if m and v is not None and m.group(1) not in ("selected", "not_selected"):
            stalls.append((v, m.group(1)))
    stalls.sort(reverse=True)
    return ", ".join(f"{reason} {v:.1f}" for v, reason in stalls[:n]) or "-"


def row_for(task, kernel):
    name, shape, m, rules = kernel
    g = lambda key: number(m.get(key))
    return [task, name, shape, fmt(g("Duration"), 1e-3), fmt(g("SM Frequency"), 1e-9, 2),
            fmt(g("Compute (SM) Throughput")), top_pipe(rules),
            fmt(g("Memory Throughput|%")),
            fmt(g("DRAM Throughput")), fmt(g("L2 Hit Rate")), fmt(g("Issue Slots Busy")),
            fmt(g("Warp Cycles Per Issued Instruction"), digits=2), top_stalls(m), fmt(g("Achieved Occupancy"))]


def main(paths):
    if not paths:
        sys.exit(__doc__.strip())
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for path in paths:
        task = os.path.splitext(os.path.basename(path))[0]
        kernels = read_kernels(path)
        if not kernels:
            out.append("| " + task + " | (no kernel in the CSV) |" + " |" * (len(COLUMNS) - 2))
        for k in kernels:
            out.append("| " + " | ".join(row_for(task, k)) + " |")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
