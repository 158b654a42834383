#!/bin/bash
# test_slurm.sh ASW — `asw sweep --slurm` against a real Slurm (make test-slurm).
#
# Starts a one-node cluster on this machine in a temporary folder: munged with a
# generated key, slurmctld and slurmd from a slurm.conf with
# ProctrackType=proctrack/linuxproc, TaskPlugin=task/none, SelectType=select/cons_tres,
# the node `hostname -s`, state and spool directories in the folder, ports above
# 20000 (picked free). Then `asw sweep --slurm --submit` runs a 4-run sweep as a job
# array, `asw sweep --merge` merges it, and the merged results.json (wall-clock
# lines aside) and summary.csv must equal those of the same sweep run locally.
# The daemons are stopped (by their pid files) on every exit. Needs root (munged,
# slurmd) and slurm-wlm + munge (make deps-slurm). Prints "slurm: N passed, N failed".
set -u
ASW=$(readlink -f "$1")
T=$(mktemp -d /tmp/asw-slurm.XXXXXX)
pass=0; fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
cleanup() {
  for p in slurmd slurmctld munged; do
    [ -s "$T/$p.pid" ] && kill "$(cat "$T/$p.pid")" 2>/dev/null
  done
  sleep 1
  for p in slurmd slurmctld munged; do
    [ -s "$T/$p.pid" ] && kill -9 "$(cat "$T/$p.pid")" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
finish() { echo "slurm: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

if [ "$(id -u)" != 0 ]; then bad "test-slurm needs root (munged and slurmd)"; finish; fi
for c in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v $c >/dev/null || { bad "$c not installed (make deps-slurm)"; finish; }
done
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
mkdir -p "$T/state" "$T/spool" "$T/munge" "$T/sweep_s" "$T/sweep_l"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
  --pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" \
  || { bad "munged did not start: $(tail -2 "$T/munged.log" 2>/dev/null)"; finish; }
cpus=$(nproc)
cat > "$T/slurm.conf" <<EOF
ClusterName=aswtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(freeport)
SlurmdPort=$(freeport)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld -i || { bad "slurmctld did not start: $(tail -3 "$T/slurmctld.log")"; finish; }
slurmd || { bad "slurmd did not start: $(tail -3 "$T/slurmd.log")"; finish; }
up=0
for i in $(seq 1 60); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)'; then up=1; break; fi
  sleep 1
done
if [ $up = 1 ]; then ok "one-node Slurm cluster up ($host, $cpus CPUs)"; else
  bad "node not idle after 60 s: $(sinfo -h -N 2>&1 | head -2); $(tail -3 "$T/slurmd.log")"; finish; fi

args=(topology=kary k=4 n=3 cycles=2000 warmup=500 buffer_flits=64 packet_flits=16
      --vary load=0.3,0.6 --vary routing=dmodk,adaptive)
cd "$T"
if "$ASW" sweep --slurm --submit --dir sweep_s "${args[@]}" > submit.log 2>&1; then
  ok "asw sweep --slurm --submit: $(grep -o 'Submitted batch job [0-9]*' submit.log)"
else bad "asw sweep --slurm --submit: $(tail -3 submit.log)"; finish; fi
done_all=0
for i in $(seq 1 180); do
  n=$(ls sweep_s/run-*.status 2>/dev/null | wc -l)
  [ "$n" = 4 ] && { done_all=1; break; }
  sleep 1
done
if [ $done_all = 1 ]; then ok "the 4 array tasks ran (exit statuses: $(cat sweep_s/run-*.status | tr '\n' ' '))"
else bad "array tasks not done after 180 s: $(squeue -h 2>&1 | head -3)"; finish; fi
if "$ASW" sweep --merge --dir sweep_s > merge.log 2>&1; then ok "asw sweep --merge"
else bad "asw sweep --merge: $(tail -3 merge.log)"; fi
"$ASW" sweep -j 2 --dir sweep_l "${args[@]}" > local.log 2>&1 || bad "local sweep failed"
if cmp -s sweep_l/summary.csv sweep_s/summary.csv; then ok "summary.csv of the Slurm sweep = the local sweep's"
else bad "summary.csv differs: $(diff sweep_l/summary.csv sweep_s/summary.csv | head -4)"; fi
if cmp -s <(grep -v wall_seconds sweep_l/results.json) <(grep -v wall_seconds sweep_s/results.json); then
  ok "results.json of the Slurm sweep = the local sweep's (wall-clock lines aside)"
else bad "results.json differs"; fi
finish
