import csv, sys
rows=[]
for l in open('raw.tsv', encoding='utf-8', errors='replace'):
    f=l.rstrip('\n').split('\t')
    if len(f)>7: f=f[:6]+[' '.join(f[6:])]
    rows.append(f)
# manual judgments: id -> (crashed, data_changed, unclear, note)
J={
'N19':('n','n','y','PTXBENCH_ASSUME_GPU=1 on a machine without a GPU: exit 1 and "the judge\'s verifier could not prepare the session\'s inputs and references (its error is not shown: it may name a hidden workload)"; the real cause (no GPU although ASSUME_GPU=1) is not named'),
'G10':('n','n','y','--json - wrote a file literally named "-" in the working folder (no word); a user or script expects stdout or a refusal'),
'K01':('n','n','y','kernelgen has no --pairing; the message "stores: File does not exist: one" blames the value as a missing run file instead of naming the unknown option'),
'K02':('n','n','y','kernelgen has no --categories; "stores: File does not exist: x" instead of "unknown option --categories for kernelgen"'),
'M10':('n','n','y','merge of a run file whose trajectories were deleted: raw SQL text (INSERT INTO main."messages" ... NOT NULL constraint failed) and a wrong guess "the inputs hold the same rows twice: are two of them the same run?" with only one input'),
'J05':('n','y','y','rejudge --out sub/ (a name ending in /): creates an empty folder sub/ at the start, judges all 20 candidates, then fails with exit 1 "cannot create sub/: File exists (another process made it meanwhile ...)" - no other process; the work is lost and the stray folder is left'),
'S21':('n','n','y','runs.config_json = null: show prints a normal-looking summary, exit 0, no word that the stored settings are missing (flags_json damage IS reported, S40)'),
'S22':('n','n','y','runs.config_json = empty string (not JSON): show prints a normal-looking summary, exit 0, no word of damage'),
'S24':('n','n','y','turns.compile_json NULL on every turn: show prints "compiled 0.00" and "(no turn compiled: the GPU stages were not reached)" with exit 0, while the same turns are correct 1.00; the damage is not reported and the numbers contradict each other'),
'S25':('n','n','y','turns.speedup = -1 (impossible value): shown as best speedup 0.000 and fast_p 0.00 silently, exit 0'),
'S26':('n','n','y','turns.speedup = \'fast\' (text in a REAL column): shown as 0.000 silently, exit 0'),
'P115':('n','n','y','same damaged speedup (text) exported to CSV as speedup 0 silently, exit 0'),
'S30':('n','n','y','every turn points to a trajectory that does not exist: show exits 0 with "no turn compiled: the GPU stages were not reached"; the orphan rows are dropped silently'),
'X11':('n','y','y','ulimit -f 1 (a file-size quota): report is killed by SIGXFSZ (exit 153) with no ptxbench message, and leaves a half-written o.html.tmp.<pid> (1024 bytes) in the output folder'),
'X13':('n','n','y','run file not readable (chmod 000, run as nobody): "r.db is not an SQLite database (wrong header)" - misleading; the cause is Permission denied'),
'Z04':('n','n','y','rejudge --out a dangling symlink (dl.db -> fx/new2.db): judges every candidate first, then fails "cannot create dl.db: File exists (another process made it meanwhile; choose another --out)" - no other process; the existence check at the start follows the link, the final exclusive create does not; work wasted and the message misleads'),
'L20':('n','n','y','an sbatch that exits 0 but prints no job id: slurm submit exits 0 and prints "shards: job array  (2 tasks); merge: job  -> ..." with empty job ids; a failure reported as success'),
'F23':('n','y','n','two concurrent `sft fixit --out o` on the same new folder: both exit 0 and both say "wrote 5 train ... rows to o"; the second overwrote the first\'s export without --force (the "already holds an export" check is racy; merge M09 refuses correctly). Here the two exports were identical so nothing was actually lost'),
}
notes={
'Z03':'merge --out a dangling symlink: refused at once with "cannot create dl.db: File exists" (clear enough; nothing written through the link)',
'Z05':'a symlink planted inside an export folder (train.jsonl -> fixture): --force replaced the link, the fixture is intact',
'Z06':'a hard link to a fixture as --csv with --force: the file is replaced, the fixture is intact',
'S32':'fixture note: the dupmodel edit partly failed (UNIQUE constraint) - see work/setup.err',
'V02':'--version ignores a stray extra argument (exit 0); tolerable',
'C28':'"-" is not stdin: "cannot read -: No such file or directory" names the path; acceptable',
'L08':'a job name with a line break is accepted and kept inside one single-quoted sbatch argument (script stays valid); sbatch would reject it later; --dir with a line break IS refused (L26)',
'L02':'--shards 100000 gives an 8 MB script; no bound, but valid',
'S19':'a second runs row is ignored silently (only the first run shown)',
'S23':'provenance_json = [] accepted silently',
'S29':'trajectories without turns: "no turn compiled: the GPU stages were not reached" - true but vague',
'F30':'sft fixit of a run marked running: exported with no word that the input is partial (rejudge refuses, J06)',
'X16':'TEST ARTIFACT: cp refused the name --json; the case only shows `show ./--json` on a missing file',
'J04':'rejudge of a full run file (schema_version 2): compiled 20 candidates (nvcc), 36 s',
'T15':'exit 141 = SIGPIPE from `| head` (expected)','T21':'exit 141 = SIGPIPE from `| head` (expected)','T24':'exit 141 = SIGPIPE from `| head -c` (expected)',
}
for k in ['P119','X03','X04','X05','X12','F24']:
    notes[k]='the command finished before the signal was sent (kill: No such process): the signal was not exercised'
out=open('cases.tsv','w')
out.write('id\tcommand\texit\tcrashed\tdata_changed\tunclear\tmessage\tnote\n')
for r in rows:
    i,cmd,rc,cr,dc,msg,note=r
    un='n'
    if i in J:
        cr2,dc2,un,jn=J[i]; cr='y' if 'y' in (cr,cr2) else 'n'; dc='y' if 'y' in (dc,dc2) else 'n'; note=jn+' | '+note
    elif i in notes: note=notes[i]+' | '+note
    out.write('\t'.join([i,cmd,rc,cr,dc,un,msg[:200],note.strip()])+'\n')
out.close()
import collections
rs=[l.rstrip('\n').split('\t') for l in open('cases.tsv')][1:]
print(len(rs), 'crash',sum(r[3]=='y' for r in rs),'data',sum(r[4]=='y' for r in rs),'unclear',sum(r[5]=='y' for r in rs))
print([r[0] for r in rs if r[3]=='y' or r[4]=='y'])
