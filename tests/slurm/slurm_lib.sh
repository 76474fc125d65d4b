# A private single-node Slurm cluster on this machine, for tests (sourced; bash).
#   slurm_start WORK   munged, slurmctld and slurmd with their config, sockets, state and logs
#                      in WORK (free ports, a fresh munge key), no GPU, no cgroups (proctrack
#                      linuxproc, task/none: they work inside a container); exports SLURM_CONF.
#                      Returns 77 with SLURM_SKIP_REASON set when the daemons cannot start here.
#   slurm_stop         stops them (call it from an EXIT trap).
# Needs root and the Debian packages slurm-wlm and munge (scripts/setup-slurm.sh).
SLURM_PIDS=()

slurm_skip() {
  SLURM_SKIP_REASON=$1
  return 77
}

slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_log_tail() {
  local f
  for f in "$SLURM_WORK"/*.log; do
    [ -s "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
  done
}

slurm_start() {
  SLURM_WORK=$1
  [ "$(id -u)" -eq 0 ] || { slurm_skip "not root: slurmd runs jobs as their users, which needs root"; return; }
  local b
  for b in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$b" >/dev/null ||
      { slurm_skip "$b is not installed (scripts/setup-slurm.sh installs slurm-wlm and munge; scripts/test.sh runs it)"; return; }
  done
  local host ctld_port slurmd_port cpus
  host=$(hostname -s)
  ctld_port=$(slurm_free_port) slurmd_port=$(slurm_free_port)
  cpus=$(nproc)
  mkdir -p "$SLURM_WORK/state" "$SLURM_WORK/spool"
  chmod 700 "$SLURM_WORK"
  mungekey --create --keyfile="$SLURM_WORK/munge.key" >/dev/null 2>&1 ||
    { slurm_skip "mungekey could not create a key"; return; }
  munged --force --socket="$SLURM_WORK/munge.sock" --key-file="$SLURM_WORK/munge.key" \
    --pid-file="$SLURM_WORK/munged.pid" --log-file="$SLURM_WORK/munged.log" \
    --seed-file="$SLURM_WORK/munged.seed" 2>"$SLURM_WORK/munged.err" ||
    { slurm_skip "munged did not start: $(tail -n 3 "$SLURM_WORK/munged.err" "$SLURM_WORK/munged.log" 2>/dev/null | tr '\n' ' ')"; return; }
  SLURM_PIDS+=("$(cat "$SLURM_WORK/munged.pid")")
  cat >"$SLURM_WORK/slurm.conf" <<CONF
ClusterName=ptxbench-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$SLURM_WORK/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SLURM_WORK/state
SlurmdSpoolDir=$SLURM_WORK/spool
SlurmctldPidFile=$SLURM_WORK/slurmctld.pid
SlurmdPidFile=$SLURM_WORK/slurmd.pid
SlurmctldLogFile=$SLURM_WORK/slurmctld.log
SlurmdLogFile=$SLURM_WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ptxbench Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$SLURM_WORK/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >>"$SLURM_WORK/slurmctld.log" 2>&1 &
  SLURM_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$SLURM_WORK/slurmd.log" 2>&1 &
  SLURM_PIDS+=($!)
  local i state
  for i in $(seq 1 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && return 0
    sleep 1
  done
  slurm_skip "the daemons did not bring the node up within 60 s (state '${state:-none}'): $(slurm_log_tail | tail -n 20 | tr '\n' ' ')"
}

slurm_stop() {
  local pid
  [ -n "${SLURM_CONF:-}" ] && scancel --user=root >/dev/null 2>&1
  for pid in "${SLURM_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${SLURM_PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  SLURM_PIDS=()
}

# Waits until the queue is empty (at most $1 seconds); 1 on time-out.
slurm_wait_empty() {
  local i
  for i in $(seq 1 "$1"); do
    [ -z "$(squeue -h 2>/dev/null)" ] && return 0
    sleep 1
  done
  return 1
}
