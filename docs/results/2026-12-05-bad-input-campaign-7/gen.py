# gen.py: writes the case lines of campaign.sh (campaign 7).  python3 gen.py > cases.part
L=[]
def c(i,e,cmd): L.append("c %s '%s' '%s'"%(i,e,cmd.replace("'","'\"'\"'")))
# --- V: odd numeric spellings for numeric options of every command (exit 2 = refused; some valid spellings 0)
opts=[("compile","--timeout","$FX/good.cu --task $T"),("compile","--max-source-bytes","$FX/good.cu --task $T"),
("eval","--trials","$FX/good.cu --task $T"),("eval","--sample-budget","$FX/good.cu --task $T"),("eval","--call-timeout","$FX/good.cu --task $T"),
("eval","--sustained-load-ms","$FX/good.cu --task $T"),("eval","--seed","$FX/good.cu --task $T"),("eval","--input-seed","$FX/good.cu --task $T"),
("audit","--seed","$FX/good.cu --task $T"),("prompt","--speedup-target","$T"),("show","--price-in","r.db"),("show","--price-out","r.db"),
("sft fixit","--per-task-cap","r.db --out ex"),("sft fixit","--bytes-per-token","r.db --out ex"),("sft kernelgen","--max-tokens","r.db --out ex"),
("sft coverage","--seed","r.db"),("sft coverage","--min-speedup","r.db"),("sft mine","--limit","r.db --dry-run"),("sft mine","--turns","r.db --dry-run"),
("slurm script","--shards",""),("slurm script","--gpus-per-shard","--shards 2"),("slurm script","--cpus-per-shard","--shards 2"),
("gate","--min-speedup","--task $T $FX/good.cu"),("run","--turns","--tasks $T --out n.db --no-progress"),("run","--concurrency","--tasks $T --turns 1 --out n.db --no-progress"),
("run","--shard-count","--tasks $T --turns 1 --out n.db --no-progress"),("run","--max-tokens","--model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress"),
("run","--top-p","--model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress")]
vals=[("arab","\u0663","2"),("fullw","\uff15","2"),("under","1_0","2"),("bin","0b11","2"),("commadec","1,5","2"),("hexfloat","0x1p2","0|2|17"),("uplus","+3","0|2|17"),("nbsp","3\u00a0","2")]
for oi,(cmd,opt,rest) in enumerate(opts):
    for vi,(vn,v,e) in enumerate(vals):
        i="V%02d%s"%(oi,chr(97+vi))
        c(i,e,'"$PB" %s %s %s "%s" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'%(cmd,rest,opt,v))
import sys
sys.stdout.write("\n".join(L)+"\n")
L=[]
# --- P: new model-reply shapes and HTTP behaviours of the endpoint (fakesrv.py c7_* modes)
RM='--tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress'
def pc(i,e,mode,extra=""):
    c(i,e,'"$PB" run --model m --base-url $U/%s/v1 %s %s --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\\" | \\"||substr(replace(feedback,char(10),\\" \\"),1,100) from turns; select status||\\" \\"||coalesce(stop_reason,\\"\\") from trajectories" 2>&1 | head -3 >&2; exit $r'%(mode,extra,RM))
modes=[("c7_content_parts","0|1"),("c7_content_number","0|1"),("c7_refusal","0|1"),("c7_toolcalls","0|1"),("c7_filter","0|1"),("c7_utf16","0|1"),("c7_bom","0|1"),("c7_html200","1"),
("c7_redirect","0|1"),("c7_redirloop","1"),("c7_retryafter_huge","1"),("c7_retryafter_date","1"),("c7_retryafter_neg","1"),("c7_e401","1"),("c7_e413","1"),("c7_e404html","1"),
("c7_dupclen","0|1"),("c7_shortbody","1"),("c7_trailgarbage","0|1"),("c7_nan","0|1"),("c7_deepnest","0|1"),("c7_bigint","0|1"),("c7_nul","0|1"),("c7_surrogate","0|1"),("c7_huge","0|1"),
("c7_firstempty","0|1"),("c7_gzipbad","1"),("c7_chunkbad","1"),("c7_http10","0|1"),("c7_continue","0|1"),("c7_status999","1"),("c7_notjsonhttp","1"),("c7_reasononly","0|1"),("c7_thinkopen","0|1")]
for k,(m,e) in enumerate(modes): pc("P%02d"%(k+1),e,m)
sse=[("c7_sse_nospace","0|1"),("c7_sse_crlf","0|1"),("c7_sse_event_error","1"),("c7_sse_onlydone","0|1"),("c7_sse_asjson","0|1"),("c7_sse_idretry","0|1"),("c7_sse_multiline","0|1"),("c7_sse_nodone_close","0|1"),("c7_sse_bigline","0|1")]
for k,(m,e) in enumerate(sse): pc("Q%02d"%(k+1),e,m,"--stream")
pc("Q10","1","c7_drip","--request-timeout 2")
c("Q11","0|1",'MYKEY=s3cret "$PB" run --model m --base-url $U/c7_redirect_ext/v1 --api-key-env MYKEY '+RM+' --out n.db; r=$?; grep -qi "Bearer" $W/srv/c7_recordext.req 2>/dev/null && harm "API key sent to another host after a redirect"; exit $r')
c("Q12","0|1",'MYKEY=s3cret "$PB" run --model m --base-url $U/c7_redirect/v1 --api-key-env MYKEY '+RM+' --out n.db; exit $?')
c("Q13","0|1",'"$PB" sft mine r.db --model m --base-url $U/c7_content_parts/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}')
c("Q14","1",'"$PB" sft mine r.db --model m --base-url $U/c7_e401/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}')
c("Q15","0|1",'"$PB" sft mine r.db --model m --base-url $U/c7_sse_crlf/v1 --stream --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}')
c("Q16","0|1",'"$PB" sft mine r.db --model m --base-url $U/c7_huge/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}')
c("Q17","1",'"$PB" sft mine r.db --model m --base-url $U/c7_retryafter_huge/v1 --out m.db --limit 1 --attempts 3 --retry-max-s 2 | tail -1; exit ${PIPESTATUS[0]}')
c("Q18","2",'"$PB" run --model m --base-url "$U/nocode/v1?key=abc#frag" '+RM+' --out n.db')
c("Q19","2",'"$PB" run --model m --base-url "http://[::1:$PORT/v1" '+RM+' --out n.db')
c("Q20","0|1|2",'"$PB" run --model m --base-url "http://user:pw@127.0.0.1:$PORT/nocode/v1" '+RM+' --out n.db; r=$?; grep -q "pw" n.db 2>/dev/null && harm "password stored in run file"; exit $r')
c("Q21","2",'"$PB" run --model "" --base-url $U/nocode/v1 '+RM+' --out n.db')
c("Q22","0|1|2",'"$PB" run --model "$(printf "m\\nX-Evil: 1")" --base-url $U/c7_record/v1 '+RM+' --out n.db; r=$?; grep -q "^X-Evil" $W/srv/c7_record.req 2>/dev/null && harm "model id injected a header"; exit $r')
c("Q23","2",'"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "" '+RM+' --out n.db')
c("Q24","2",'"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "A=B" '+RM+' --out n.db')
c("Q25","0|1|2",'"$PB" run --model m --base-url $U/nocode/v1 --temperature 1e308 '+RM+' --out n.db')
# --- D: new damage to run files
def mk(i,e,sql,cmd):
    c(i,e,'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "%s" >/dev/null 2>&1; sha256sum d.db > d.sha; %s; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'%(sql.replace('"','\\"'),cmd))
dm=[("pragma ignore_check_constraints=1; update turns set speedup=-3 where speedup is not null","show"),
("update runs set config_json=json_set(config_json,'$.turns',-1)","show"),
("update runs set config_json=json_set(config_json,'$.model',json('\\\"x\\\"'))","show"),
("drop table messages","show"),
("drop index if exists idx_turns_traj; create index zz on turns(turn)","show"),
("update meta set value=null where key='schema_version'","show"),
("delete from meta","show"),
("insert into meta values('schema_version','2')","show"),
("update trajectories set task='gemm_n7168_k5120\\r\\n' ","show"),
("update turns set category='passed', correct=0 where category!='passed'","show"),
("update turns set eval_json=json_set(eval_json,'$.speedup',1e-320) where eval_json is not null","show --json"),
("update trajectories set model=char(27)||'[2J'||model","show"),
("update runs set provenance_json=json_set(provenance_json,'$.git','<script>alert(2)</script>')","report --html h.html r.db"),
("update turns set category='passed'||char(0)||'x'","report --csv c.csv"),
("update turns set source=char(93,93,62)||source where source is not null","report --junit j.xml"),
("update runs set status='finished'; update trajectories set status='running'","rejudge --out rj.db"),
("pragma ignore_check_constraints=1; update trajectories set sample=1.5","sft kernelgen --out ex"),
("update messages set content=NULL where seq=1","sft fixit --out ex"),
("update messages set reasoning=x'ff00fe'","sft fixit --out ex"),
("update turns set arch='sm_70'","sft coverage"),
("update trajectories set arch='sm_100a'","sft mine --dry-run --limit 1"),
("pragma page_size=512; vacuum","show"),
("pragma auto_vacuum=full; vacuum","merge --out m.db"),
("update runs set id=-1; update trajectories set run_id=-1","show --turns"),
("update turns set llm_json=json_set(llm_json,'$.cost',-1e9)","show --price-in 1 --price-out 1"),
("create trigger t after insert on turns begin delete from runs; end","rejudge --out rj.db"),
("create view v as select 1","show")]
for k,(sql,cmd) in enumerate(dm):
    if cmd.startswith("report"): full=cmd.replace(" r.db","")+" d.db"
    elif cmd.startswith("merge"): full="merge d.db "+cmd[6:]
    elif " --out" in cmd: full=cmd.replace(" --out"," d.db --out",1)
    else: full=cmd.split(" ")[0]+" d.db "+" ".join(cmd.split(" ")[1:]) if not cmd.startswith("sft") else " ".join(cmd.split(" ")[:2])+" d.db "+" ".join(cmd.split(" ")[2:])
    mk("D%02d"%(k+1),"0|1|2",sql,'"$PB" %s > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"'%full)
c("D28","2",'cp $W/run.db d.db; truncate -s -4096 d.db; "$PB" rejudge d.db --out rj.db')
c("D29","2",'cp $W/run.db d.db; truncate -s 0 d.db; "$PB" sft coverage d.db')
c("D30","2",'ln -s $W/run.db l.db; "$PB" merge l.db l.db --out m.db')
c("D31","2",'cp $W/run.db d.db; "$PB" show d.db --compare d.db/')
c("D32","2",'mkdir dir.db; "$PB" report dir.db --csv c.csv')
c("D33","2",'"$PB" show $D/s0.db --compare /dev/null')
c("D34","0|2",'"$PB" merge $D/s0.db $D/s1.db $D/s0hard.db --out m.db')
c("D35","0|2",'"$PB" merge $D/s1.db $D/s0.db --out m.db --allow-partial; sqlite3 m.db "select status from runs" >&2')
c("D36","2",'cp $D/s0.db s0.db; "$PB" merge s0.db $D/s1.db --out s0.db; r=$?; cmp s0.db $D/s0.db || harm "merge wrote over its input"; exit $r')
c("D37","2",'cp $W/run.db d.db; "$PB" rejudge d.db --out d.db; r=$?; cmp d.db $W/run.db || harm "rejudge wrote over its input"; exit $r')
c("D38","2",'"$PB" report r.db --csv r.db; r=$?; cmp r.db $W/run.db || harm "report csv wrote over the run file"; exit $r')
c("D39","2",'"$PB" report r.db --html r.db --force; r=$?; cmp r.db $W/run.db || harm "report --force wrote over the run file"; exit $r')
c("D40","2",'"$PB" sft coverage r.db --out r.db --force; r=$?; cmp r.db $W/run.db || harm "coverage --force wrote over the run file"; exit $r')
c("D41","17|2",'touch out.jsonl; "$PB" gate --task $T $FX/good.cu --json out.jsonl --force --timeline; r=$?; vjsonl out.jsonl; exit $r')
c("D42","2",'"$PB" report r.db --csv same.out --junit same.out')
c("D43","0|2",'cp $FX/good.cu g.cu; "$PB" report r.db --html g.cu --force; r=$?; head -c 15 g.cu >&2; exit $r')
# --- E: environment values
E=[("PTXBENCH_ROOT=\"$(printf '\\t')\"","tasks","2"),("PTXBENCH_ROOT=$ROOT/tasks","tasks","2"),("PTXBENCH_ROOT=/proc/self/cwd","tasks","0|2"),
("PTXBENCH_CACHE=/dev/null","compile $FX/good.cu --task $T","0|1|2"),("PTXBENCH_CACHE=/proc/1","compile $FX/good.cu --task $T --no-cache","0|1|2"),
("PTXBENCH_CACHE='~root/c'","compile $FX/good.cu --task $T","0|2"),("PTXBENCH_NVCC=/bin/true","compile $FX/good.cu --task $T --no-cache","1|11"),
("PTXBENCH_NVCC=/bin/false","compile $FX/good.cu --task $T --no-cache","1|11"),("PTXBENCH_NVCC=$FX","compile $FX/good.cu --task $T --no-cache","1|2"),
("PTXBENCH_NVCC=nvcc\\ --version","compile $FX/good.cu --task $T --no-cache","1|2"),("PTXBENCH_CUOBJDUMP=/bin/true","compile $FX/good.cu --task $T --no-cache","1"),
("PTXBENCH_NVDISASM=/bin/cat","compile $FX/good.cu --task $T --no-cache","0|1"),("PTXBENCH_NCU=/nonexist","audit $FX/good.cu --task $T","0|2"),
("PTXBENCH_COMPUTE_SANITIZER=/nonexist","eval $FX/good.cu --task $T --memcheck","0|2"),("PTXBENCH_NO_GPU=yes","eval $FX/good.cu --task $T","0|2"),
("PTXBENCH_NO_GPU=0","tasks --suite core","0"),("PTXBENCH_ASSUME_GPU=1","eval $FX/good.cu --task $T","1|2|13"),("PTXBENCH_ASSUME_GPU=1 PTXBENCH_NO_GPU=1","eval $FX/good.cu --task $T","0|2"),
("PTXBENCH_BIN_DIR=/tmp","eval $FX/good.cu --task $T","0|1|2"),("PTXBENCH_DLPACK_INCLUDE=/nonexist","compile $K/examples/tvm_ffi/gemm.cu --task $T","1|2|11"),
("PTXBENCH_TVM_FFI_ROOT=/etc","compile $K/examples/tvm_ffi/gemm.cu --task $T","1|2|11"),("CUDA_VISIBLE_DEVICES=-1","eval $FX/good.cu --task $T","0"),
("TMPDIR=/nonexistent/x","compile $FX/good.cu --task $T --no-cache","1|2"),("TMPDIR=$FX/good.cu","compile $FX/cerr.cu --task $T --no-cache","1|2"),
("XDG_CACHE_HOME=relative/xdg PTXBENCH_CACHE=","compile $FX/good.cu --task $T","0|2"),("HOME=/nonexistent PTXBENCH_CACHE=","compile $FX/good.cu --task $T","0|1|2"),
("SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=1","run --tasks $T --turns 1 --out n.db --no-progress","0"),
("SLURM_ARRAY_TASK_ID=abc SLURM_ARRAY_TASK_COUNT=2","run --tasks $T --turns 1 --out n.db --no-progress","2"),
("JOB_COMPLETION_INDEX=5","run --tasks $T --turns 1 --shard-count 2 --out n.db --no-progress","2"),
("JOB_COMPLETION_INDEX=-1","run --tasks $T --turns 1 --shard-count 2 --out n.db --no-progress","2"),
("JOB_COMPLETION_INDEX=1","run --tasks $T --turns 1 --shard-count 0 --out n.db --no-progress","2"),
("LANG=tr_TR.UTF-8 LC_ALL=tr_TR.UTF-8","tasks --family GEMM","0|2"),("LC_NUMERIC=de_DE.UTF-8 LC_ALL=de_DE.UTF-8","show r.db --price-in 1.5","0"),
("TZ=Nowhere/Bogus","show r.db","0"),("PATH=","compile $FX/good.cu --task $T --no-cache","0|1"),("COLUMNS=5","show r.db --turns","0"),("TERM=dumb NO_COLOR=1","run --tasks $T --turns 1 --out n.db","0")]
for k,(env,cmd,e) in enumerate(E):
    c("E%02d"%(k+1),e,'%s "$PB" %s > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'%(env,cmd))
# --- S: signals, limits, other users, streams
c("S01","130|143|129|0",'"$PB" run --model m --base-url $U/hang/v1 --tasks $T --turns 1 --out n.db --no-progress & p=$!; sleep 3; kill -INT $p; wait $p; r=$?; sqlite3 n.db "select status from runs" >&2; exit $r')
c("S02","129|0",'"$PB" sft mine r.db --model m --base-url $U/hang/v1 --out m.db --limit 1 & p=$!; sleep 3; kill -HUP $p; wait $p')
c("S03","143|0",'"$PB" report r.db --html h.html & p=$!; kill -TERM $p; wait $p; r=$?; [ -f h.html ] && vhtml h.html; exit $r')
c("S04","0|1|143",'"$PB" sft fixit r.db --out ex & p=$!; sleep 0.3; kill -TERM $p; wait $p; r=$?; ls ex >&2; exit $r')
c("S05","1|2",'ulimit -f 1; "$PB" report r.db --csv c.csv')
c("S06","1|2",'ulimit -f 1; "$PB" sft coverage r.db --json --out c.json')
c("S07","1|2",'( ulimit -f 0; exec "$PB" gate --task $T $FX/good.cu --junit j.xml 2>&1 ) | cat >&2; exit ${PIPESTATUS[0]}')
c("S08","1",'"$PB" tasks --json > /dev/full')
c("S09","1",'"$PB" prompt $T --json > /dev/full')
c("S10","1",'"$PB" slurm script --shards 2 > /dev/full')
c("S11","1",'"$PB" show r.db --json > /dev/full')
c("S12","0|1|2",'ulimit -n 8; "$PB" show r.db')
c("S13","0|1|2",'ulimit -v 200000; "$PB" report r.db --html h.html')
c("S14","2",'chmod 777 .; $NB "$PB" rejudge $W/run.db --out /root/rj.db')
c("S15","0|2",'chmod 777 .; cp r.db u.db; chmod 444 u.db; $NB "$PB" show u.db')
c("S16","2|1",'chmod 777 .; $NB env PTXBENCH_CACHE=/root/.cache/x "$PB" compile $FX/good.cu --task $T')
c("S17","0|2",'"$PB" show r.db <&- >o.txt; r=$?; cat o.txt | tail -1; exit $r')
c("S18","1|0",'"$PB" version >&-')
c("S19","0|2",'"$PB" compile - --task $T < $FX/good.cu')
c("S20","2",'"$PB" compile /dev/stdin --task $T < /dev/null')
# --- X: option combinations, odd names, unusual uses
X=[("2","tasks --suite core --suite extended"),("2","tasks --arch sm_90"),("2","tasks --family gemm,attention_fwd"),("2","prompt $T $TA"),
("2","prompt --levels --json extra"),("0|2","prompt $T --context FULL"),("2","prompt $T --contract tvm-ffi --context none --arch sm_100"),
("2","compile $FX/good.cu --task $T --arch sm_90a,sm_100a"),("2","compile $FX/good.cu $FX/cerr.cu --task $T"),("2","compile --task $T"),
("2","compile $FX/good.cu --task $T --contract TVM-FFI"),("2","eval $FX/good.cu --task $T --timeline"),("2","eval $FX/good.cu --task $T --library-plan slowest"),
("2","audit $FX/good.cu --task $T --route nsys"),("2","audit $FX/good.cu --task $T --workload 'M=0'"),("2","audit $FX/good.cu --task $T --workload '\"; rm -rf /'"),
("2","eval $FX/rp_fence5.md --task $T"),("0|15","eval $FX/rp_fence5.md --task $T --reply --no-timing --no-audit"),("2","gate --task $T"),
("2","gate --task $T $FX/good.cu --timeline"),("2","gate --task $T $FX/good.cu $FX/good.cu --junit j.xml --json j.xml"),
("2","show"),("2","show r.db r.db r.db"),("2","show r.db --compare"),("2","rejudge r.db"),("2","rejudge --out rj.db"),
("2","merge --out m.db"),("2","merge r.db --out ''"),("2","slurm"),("2","slurm script"),("2","slurm script --shards 2 --job-name ''"),
("2","slurm script --shards 2 --time 'forever'"),("2","slurm script --shards 2 --partition 'a b;c'"),("2","slurm script --shards 2 --sbatch-arg '--wrap=rm -rf /'"),
("2","slurm script --shards 2 --dir '$(touch pwned)'"),("2","slurm script --shards 2 --account $'acc\\nX'"),("2","sft"),("2","sft fixit r.db"),
("2","sft fixit r.db --out ex --pairing some"),("2","sft fixit r.db --out ex --categories passed"),("2","sft fixit r.db --out ex --heldout-task nosuch"),
("2","sft kernelgen r.db --out ex --allow-flag bogus_flag"),("2","sft coverage r.db --json --pairing ALL"),("2","sft mine r.db --json"),
("2","sft mine r.db --model m --dry-run --base-url ftp://x"),("2","sft mine r.db --turns 65 --dry-run"),("2","report r.db"),("2","report --html h.html"),
("2","report r.db --html ''"),("2","report r.db --junit /"),("2","run --tasks $T --resume r.db --out n.db"),("2","run --resume /nonexistent.db"),
("2","run --tasks $T --arch both --turns 1 --out n.db"),("2","run --tasks $T --turns 1 --shard 1/1 --out n.db"),("2","run --tasks $T --turns 1 --shard 0/2/3 --out n.db"),
("2","run --tasks $T --turns 1 --fast-p 1.2,0.5 --out n.db"),("2","run --tasks $T --turns 1 --fast-p , --out n.db"),("2","run --tasks $T --turns 1 --scripted-version ../v1 --out n.db"),
("2","run --tasks $T --turns 1 --context nonsense --out n.db"),("2","run --tasks $T --turns 1 --gpus 0 --out n.db"),("2","run --tasks $T --turns 1 --cpu-jobs 0 --out n.db"),
("2","run --tasks $T --turns 1 --stall-timeout 0 --stream --out n.db"),("2","run --tasks $T --turns 1 --samples 0 --out n.db"),("2","run --tasks $T --turns 1 --out n.db --stream"),
("2","version --json"),("2","version extra"),("2","--version extra"),("2","tasks --json=yes"),("2","tasks -json"),("2","compile $FX/good.cu --task=$T --task=$TA"),
("2","run --tasks , --turns 1 --out n.db"),("2","run --tasks ' ' --turns 1 --out n.db"),("2","run --tasks core,extended,all --turns 1 --out n.db")]
for k,(e,cmd) in enumerate(X):
    c("X%02d"%(k+1),e,'"$PB" %s > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'%cmd)
sys.stdout.write("\n".join(L)+"\n")
