#!/usr/bin/env bash
# CLI tests of `asw switch`: every bad option value exits 2 with a message
# naming the option; --help works; a short run writes the JSON fields. Then the
# fail-fast checks of asw switch / net / sweep / trace (output files, empty
# measurement windows, trace replays without warm-up).
# Usage: test_cli.sh path/to/asw   Prints "cli: N passed, N failed".
asw=${1:?usage: test_cli.sh ASW}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() { # bad WORD args...: must exit 2 and mention WORD on stderr
  local word=$1
  shift
  "$asw" switch "$@" --cycles 100 >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 2 ]] && grep -q -- "$word" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "  FAIL: asw switch $* -> exit $rc, stderr: $(head -c 200 "$tmp/err")"
  fi
}

bad --ports --ports 1
bad --arn --arn maybe
bad --arn --arn afi --vcs 1
bad --arn --arn arn --voq off
bad --arn-up --arn-up sometimes
bad --hcdth --arn arn --hcdth 65
bad --hcdth --arn arn --hcdth 0
bad --lcdth --arn arn --hcdth 10 --lcdth 11
bad --fcth --arn arn --fcth 65
bad --crt --crt 0
bad --crt --crt 16777216
bad --arn-ttl --arn-ttl 0
bad --ports --ports 65
bad --ports --ports abc
bad --ports --ports ''
bad --ports --ports -3
bad --vcs --vcs 0
bad --vcs --vcs 9
bad --voq --voq maybe
# the option the user set is named, not the default it collides with (issue 28)
bad "--packet-flits: LMAX 100 flits does not fit the default --buffer-flits 64" --packet-flits 100
bad "--max-packet: LMAX 100 flits" --max-packet 100
# one spelling across the tools: on/off and 1/0 (as asw net voq=, make cosim VOQ=)
for w in on off 1 0; do
  if "$asw" switch --voq $w --cycles 90 --warmup 10 --quiet >"$tmp/out" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL: asw switch --voq $w: $(head -c 200 "$tmp/out")"; fi
done
bad --iters --iters 5
bad --iters --iters 0
bad --pfc --pfc maybe
bad --link-faults --link-faults 2
bad --counters --counters maybe
bad --oblivious --oblivious 2
# contract 1 features: the same study with every optional hardware built, the same results (the
# study builds the routing mode it programs, the counters and the read-back in both runs)
all_on="--bubble on --pfc on --qcn on --route-hash on --link-faults on --port-rate on --vc-adaptive on"
all_on="$all_on --oblivious on --adaptive on --counters on --readback on"
for o in off on; do
  if [ $o = on ]; then feats=$all_on; else feats=""; fi
  "$asw" switch --ports 4 --vcs 2 --load 0.6 --cycles 1800 --warmup 200 --seed 5 --routing adaptive $feats --quiet \
    --json "$tmp/feat$o.json" >"$tmp/out" 2>&1 || echo "  FAIL: asw switch features $o: $(head -c 200 "$tmp/out")"
done
if python3 - "$tmp/featon.json" "$tmp/featoff.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
strip = lambda r: {k: v for k, v in r.items() if "wall" not in k and "second" not in k}
assert a["packets_delivered"] > 0 if "packets_delivered" in a else a["accepted_throughput"] > 0
assert strip(a) == strip(b), "results differ"
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: asw switch with every feature on differs from every feature off"; fi
bad --routing --routing random
bad --trigger --trigger 3th
bad --load --load 1.5
bad --load --load -0.1
bad --load --load nan
bad --load --load 0.5x
bad --packet-flits --packet-flits 0
bad --packet-flits --packet-flits 20 --max-packet 16
bad --max-packet --max-packet 300
bad --buffer-flits --buffer-flits 8 --packet-flits 16
bad --buffer-flits --buffer-flits 20000
bad --vcs/--buffer-flits --vcs 8 --buffer-flits 16384
bad --cycles --cycles 0
bad --warmup --warmup 4294967295
bad --drain-limit --drain 100
bad --seed --seed x
bad --credit-delay --credit-delay 0
bad --dest --dest everywhere
bad --dest --dest hotspot:99:0.5
bad --dest --dest hotspot:1:2
bad --dest --dest hotspot:1
bad --json --json
bad unknown --frobnicate 1
bad --ports --ports
bad --table --table "$tmp/no-such-table"
printf 'fwd 1 99\n' >"$tmp/bad.tbl"
bad --table --table "$tmp/bad.tbl"
printf 'reg THRESH 0x00080002\n' >"$tmp/good.tbl"
if "$asw" switch --cycles 450 --warmup 50 --routing adaptive --table "$tmp/good.tbl" --quiet; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "  FAIL: good --table rejected"; fi

for sub in "" switch; do
  if "$asw" $sub --help >"$tmp/out" 2>&1 && grep -q usage "$tmp/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "  FAIL: asw $sub --help"
  fi
done
if "$asw" nosuchcommand >/dev/null 2>&1; [[ $? -eq 2 ]]; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "  FAIL: unknown subcommand not exit 2"; fi

# a real run: JSON has the required fields with sane values
if "$asw" switch --ports 8 --load 0.3 --cycles 2700 --warmup 300 --seed 3 --json "$tmp/r.json" \
    --vcs 2 --voq off --iters 2 --routing adaptive --packet-flits 2 --buffer-flits 32 \
    --credit-delay 3 --dest hotspot:2:0.2 >"$tmp/out" 2>&1 &&
  python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["config"]
assert c["ports"] == 8 and c["vcs"] == 2 and c["voq"] == 0 and c["iters"] == 2
assert c["routing"] == "adaptive" and c["credit_delay"] == 3 and c["dest"] == "hotspot"
assert abs(r["offered_load"] - 0.3) < 0.05, r["offered_load"]
assert abs(r["accepted_throughput"] - r["offered_load"]) < 0.02
assert r["latency_mean"] >= 5 and r["latency_p99"] >= r["latency_mean"]
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: JSON run: $(cat "$tmp/out")"; fi

# hot-spot study with ARN: roots are declared and reported to the sources;
# with up ports and adaptive routing + AFI they are consumed here and
# packets adapted; everything is delivered and the switch drains idle
for mode in "arn:off" "afi:on"; do
  arn=${mode%:*} up=${mode#*:}
  if "$asw" switch --ports 8 --vcs 2 --load 0.5 --dest hotspot:3:0.4 --packet-flits 2 \
      --routing adaptive --arn "$arn" --arn-up "$up" --crt 50 --arn-ttl 400 \
      --cycles 5400 --warmup 600 --drain on --drain-limit 100000 --quiet --json "$tmp/arn.json" >"$tmp/out" 2>&1 &&
    python3 - "$tmp/arn.json" "$arn" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["arn"] == sys.argv[2] and r["drained"] and r["roots_declared"] >= 1, r
if sys.argv[2] == "arn":
    assert r["arn_sent"] > 0 and r["packets_adapted"] == 0, r
else:
    assert r["arn_consumed"] >= 1 and r["packets_adapted"] > 0, r
PY
  then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: ARN $mode run: $(cat "$tmp/out")"; fi
done

# Fail fast (issue 28): an output that cannot be written is refused before the
# simulation (exit 2 within seconds although the run would take hours), for
# every command that writes files; an existing output is not truncated by the
# check; a run whose measurement window saw no packet says so and exits 1; a
# trace replay has no warm-up unless one is given.
failfast() { # failfast WORDS cmd args...: exit 2 within 20 s, stderr has WORDS
  local words=$1
  shift
  timeout 20 "$asw" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 2 ]] && grep -qF -- "$words" "$tmp/err" && [[ $(wc -l <"$tmp/err") -eq 1 ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "  FAIL: asw $* -> exit $rc (want 2 at once), stderr: $(head -c 200 "$tmp/err")"
  fi
}
failfast "asw switch: --json: cannot write $tmp/no/r.json" switch --cycles 4294960000 --json "$tmp/no/r.json"
failfast "asw switch: --json: cannot write $tmp: it is a directory" switch --cycles 4294960000 --json "$tmp"
failfast "asw net: --json: cannot write $tmp/no/r.json" net cycles=2000000000 warmup=0 --json "$tmp/no/r.json"
failfast "asw net: --csv: cannot write $tmp/no/r.csv" net cycles=2000000000 warmup=0 --csv "$tmp/no/r.csv"
failfast "asw net: --trace-out: cannot write $tmp/no/t.txt" net cycles=2000000000 warmup=0 --trace-out "$tmp/no/t.txt"
failfast "asw trace: out: cannot write $tmp/no/t.txt" trace pattern=alltoall nodes=65536 size=1000000 out="$tmp/no/t.txt"
mkdir -p "$tmp/ro" && chmod a-w "$tmp/ro"
if [[ ! -w "$tmp/ro" ]]; then # (root writes anywhere: then this probe says nothing)
  failfast "asw sweep: --dir: cannot write $tmp/ro/results.json" sweep --dir "$tmp/ro" ports=4 stages=2 cycles=2000000000 --vary load=0.1,0.2
  failfast "asw net: --json: cannot write $tmp/ro/r.json" net cycles=2000000000 --json "$tmp/ro/r.json"
fi
chmod u+w "$tmp/ro"
# the check neither creates nor truncates: a refused run leaves no file, an existing one intact
echo keep >"$tmp/old.json"
"$asw" switch --ports 1 --json "$tmp/old.json" 2>/dev/null
"$asw" net ports=4 stages=2 cycles=100 warmup=0 load=0 --quiet --csv "$tmp/new.csv" --json "$tmp/old.json" 2>/dev/null
if [[ $(cat "$tmp/old.json") != keep ]] && grep -q '"config"' "$tmp/old.json" && [[ -s "$tmp/new.csv" ]]; then
  pass=$((pass + 1)) # written after the run (load=0: exit 1, but the results are kept)
else
  fail=$((fail + 1)); echo "  FAIL: outputs after a run: $(head -c 100 "$tmp/old.json")"
fi
echo keep >"$tmp/old2.json"
"$asw" switch --ports 99 --json "$tmp/old2.json" 2>/dev/null
"$asw" switch --json "$tmp/missing.json" --cycles 0 2>/dev/null
if [[ $(cat "$tmp/old2.json") == keep && ! -e "$tmp/missing.json" ]]; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "  FAIL: a refused run touched its output files"; fi
# both forms in both commands: asw switch key=value, asw net --key value / --key=value
if "$asw" switch ports=8 buffer_flits=32 packet_flits=4 cycles=2700 warmup=300 --quiet --json "$tmp/kv.json" &&
   python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; assert (c["ports"], c["buffer_flits"], c["packet_flits"]) == (8, 32, 4), c' "$tmp/kv.json" &&
   [[ "$("$asw" net --ports 4 --stages 2 --buffer-flits=32 --packet-flits 8 --print-config | grep -E '^(ports|stages|buffer_flits|packet_flits) ' | tr '\n' ' ')" == "ports = 4 stages = 2 buffer_flits = 32 packet_flits = 8 " ]]
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: key=value in asw switch / --key value in asw net"; fi
# asw sweep takes asw net's settings in both forms too: the same runs
"$asw" sweep --dir "$tmp/sw1" ports=4 stages=2 cycles=300 warmup=100 load=0.3 --vary seed=1,2 >/dev/null 2>&1
"$asw" sweep --dir "$tmp/sw2" --ports 4 --stages=2 --cycles 300 --warmup 100 --load 0.3 --vary seed=1,2 >/dev/null 2>&1
"$asw" sweep --dir "$tmp/sw3" --prots 4 --vary seed=1 >"$tmp/out" 2>"$tmp/err"; rc=$?
if [[ -s "$tmp/sw1/summary.csv" ]] && cmp -s "$tmp/sw1/summary.csv" "$tmp/sw2/summary.csv" &&
   [[ $rc -eq 2 ]] && grep -qx "asw sweep: --prots: unknown key (see asw net --help)" "$tmp/err"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "  FAIL: asw sweep --key value: $(head -c 200 "$tmp/err")"; fi
# asw sweep's own options take both forms too: jobs=N dir=DIR vary=K=V,.. slurm=on merge=on as
# -j N / --jobs N, --dir DIR, --vary K=V,.., --slurm, --merge; the same sweep either way
"$asw" sweep --slurm -j 3 --dir "$tmp/own1" ports=4 stages=2 cycles=300 --vary seed=1,2 --vary load=0.1,0.2 >/dev/null 2>&1; rc1=$?
"$asw" sweep slurm=on jobs=3 dir="$tmp/own2" ports=4 stages=2 cycles=300 vary=seed=1,2 vary=load=0.1,0.2 >/dev/null 2>&1; rc2=$?
"$asw" sweep --slurm=on --jobs=3 --dir="$tmp/own3" ports=4 stages=2 cycles=300 --vary=seed=1,2 --vary load=0.1,0.2 >/dev/null 2>&1; rc3=$?
same=1
for f in sweep.args run-000.args run-003.args; do
  cmp -s "$tmp/own1/$f" "$tmp/own2/$f" && cmp -s "$tmp/own1/$f" "$tmp/own3/$f" || same=0
done
"$asw" sweep --merge --dir "$tmp/own1" >/dev/null 2>&1; m1=$?
"$asw" sweep merge=on dir="$tmp/own2" >/dev/null 2>&1; m2=$?
if [[ $rc1 -eq 0 && $rc2 -eq 0 && $rc3 -eq 0 && $same -eq 1 && -s "$tmp/own1/run-003.args" ]] &&
   grep -qx "load=0.2" "$tmp/own1/run-003.args" && [[ $m1 -eq 1 && $m2 -eq 1 ]] &&
   cmp -s "$tmp/own1/summary.csv" "$tmp/own2/summary.csv" && [[ $(wc -l < "$tmp/own2/summary.csv") -eq 5 ]]
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: asw sweep's own options as key=value: rc $rc1 $rc2 $rc3 same $same merge $m1 $m2"; fi
# ... and say so in --help, and check them with the wording of every front end
help=$("$asw" sweep --help)
ok=1
for w in "jobs=N" "--jobs N, -j N" "dir=DIR" "--dir DIR" "vary=KEY=V1,V2" "--vary KEY=V1,V2" "slurm=on|off" \
         "--slurm" "submit=on|off" "--submit" "merge=on|off" "--merge"; do
  grep -qF -- "$w" <<<"$help" || { ok=0; echo "  (asw sweep --help lacks $w)"; }
done
for probe in "jobs=0|asw sweep: jobs: '0' is not an integer in 1..64" "-j x|asw sweep: -j: 'x' is not an integer in 1..64" \
             "--jobs 65|asw sweep: --jobs: '65' is not an integer in 1..64" \
             "slurm=maybe|asw sweep: slurm: 'maybe' is not one of on, off, 1, 0" \
             "vary=seed|asw sweep: vary: 'seed': expected key=v1,v2,..." \
             "--vary seed=1,x|asw sweep: seed: 'x' is not an integer in 0..18446744073709551615"; do
  # shellcheck disable=SC2086
  "$asw" sweep --dir "$tmp/own4" ports=4 stages=2 ${probe%%|*} >"$tmp/out" 2>"$tmp/err"; rc=$?
  [[ $rc -eq 2 ]] && [[ "$(cat "$tmp/err")" == "${probe#*|}" ]] || { ok=0; echo "  (asw sweep ${probe%%|*}: exit $rc, $(cat "$tmp/err"))"; }
done
if [[ $ok -eq 1 && ! -e "$tmp/own4/results.json" ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: asw sweep's own options: help and messages"; fi
# asw net's own options take key=value too: json=FILE quiet=on print_config=on are --json FILE
# --quiet --print-config (and --json=FILE, -q): the same run, the same files
"$asw" net ports=4 stages=2 cycles=300 warmup=100 json="$tmp/n1.json" quiet=on >"$tmp/o1"; rc1=$?
"$asw" net ports=4 stages=2 cycles=300 warmup=100 --json "$tmp/n2.json" --quiet >"$tmp/o2"; rc2=$?
"$asw" net ports=4 stages=2 cycles=300 warmup=100 --json="$tmp/n3.json" -q >"$tmp/o3"; rc3=$?
"$asw" net quiet=maybe >"$tmp/out" 2>"$tmp/err"; rc4=$?
if [[ $rc1 -eq 0 && $rc2 -eq 0 && $rc3 -eq 0 && ! -s "$tmp/o1" && ! -s "$tmp/o3" && $rc4 -eq 2 ]] &&
   python3 -c 'import json,sys
d = [json.load(open(p)) for p in sys.argv[1:]]
for x in d:  # (the host'"'"'s speed and memory aside)
    for k in ("wall_seconds", "max_rss_kb", "flit_hops_per_second", "flit_hops_per_cpu_second"):
        x.pop(k)
assert d[0] == d[1] == d[2] and d[0]["packets_delivered"] > 0' "$tmp/n1.json" "$tmp/n2.json" "$tmp/n3.json" &&
   cmp -s <("$asw" net ports=4 print_config=on) <("$asw" net --ports 4 --print-config) &&
   [[ "$(cat "$tmp/err")" == "asw net: quiet: 'maybe' is not one of on, off, 1, 0" ]]
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: asw net's own options as key=value: rc $rc1 $rc2 $rc3 $rc4 $(cat "$tmp/err")"; fi
"$asw" switch prots=4 >"$tmp/out" 2>"$tmp/err"; rc1=$?
"$asw" net --prots 4 >"$tmp/out" 2>"$tmp/err2"; rc2=$?
if [[ $rc1 -eq 2 && $rc2 -eq 2 ]] && grep -qx "asw switch: prots: unknown key (see asw switch --help)" "$tmp/err" && grep -qx "asw net: --prots: unknown key (see asw net --help)" "$tmp/err2"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: unknown key in the other form: $(cat "$tmp/err" "$tmp/err2")"; fi
# asw net: a key without its value is not taken for a missing config file
"$asw" net ports 8 >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 2 ]] && grep -q "ports: a key needs its value, ports=VALUE" "$tmp/err"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "  FAIL: asw net ports 8: $(head -c 200 "$tmp/err")"; fi
# nothing measured: said, exit 1
for cmd in "switch --load 0 --cycles 3000" "net ports=4 stages=2 load=0 warmup=0 cycles=100" \
           "net ports=4 stages=2 load=0 cycles=3000"; do
  # shellcheck disable=SC2086
  "$asw" $cmd --quiet >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [[ $rc -eq 1 ]] && grep -q "no packet .* measurement window" "$tmp/err"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL: asw $cmd (nothing measured) -> exit $rc: $(head -c 200 "$tmp/err")"; fi
done
# a trace replay: warm-up 0 by default (its packets are measured), warmup= still honoured
"$asw" trace pattern=alltoall nodes=8 size=256 out="$tmp/a2a.txt" >/dev/null
if "$asw" net ports=4 stages=2 traffic=trace:"$tmp/a2a.txt" --print-config | grep -qx 'warmup = 0' &&
   "$asw" net ports=4 stages=2 warmup=9 traffic=trace:"$tmp/a2a.txt" --print-config | grep -qx 'warmup = 9' &&
   "$asw" net ports=4 stages=2 traffic=trace:"$tmp/a2a.txt" traffic=uniform --print-config | grep -qx 'warmup = 5000' &&
   "$asw" net ports=4 stages=2 traffic=trace:"$tmp/a2a.txt" cycles=20000 --quiet --json "$tmp/tr.json" &&
   python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["packets_measured"] == 56, r["packets_measured"]' "$tmp/tr.json"
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL: trace replay without warm-up"; fi

echo "cli: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
