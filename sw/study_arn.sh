#!/bin/sh
# Seed 001 §4.3 on the 432-node RLFT (docs/results.md, "Seed 001 §4.3"):
# D-mod-K, Oblivious, Adaptive-Th, Adaptive-Th+AFI, ARN, ARN+AFI x 1Q, DBBM,
# vFtree, Flow2SL x uniform, HS10-1, HS25-1, HS10-4, HS25-4; efficiency vs
# time around the hot-spot start.
#
# Scaling (see docs/results.md): 8-flit (512 B) packets instead of 4 KB, so
# every buffer holds the paper's 84 packets per input port (672 flits,
# divided among the VCs as in seed 001: 1Q 1x672, 1Q+AFC 2x336, SQS 3x224,
# SQS+AFC 4x168) while all packet-time constants shrink 8x; hot spot from
# cycle 10 000 to the end; CRT 1024 cycles, ARN_TTL 4096; the paper's
# HCDTh/LCDTh/FCTh (81/63/78 %); VOQs in every run; load 1.
#
# Parts (4th argument, default all):
#   grid     the 6 routings x 4 schemes x 4 hot-spot patterns (60 000 cycles)
#   uniform  the same x uniform (30 000 cycles)
#   leaf     ARN and ARN+AFI with arn_up_nodes=1 (incast ARNs consumed by the
#            sources' leaves) x 4 schemes x 4 hot-spot patterns; skipped if
#            the asw binary has no arn_up_nodes key
#   long     1Q and vFtree, HS10-1, D-mod-K / ARN+AFI (/ ARN+AFI leaf),
#            205 000 cycles, the two schemes side by side
# Usage: study_arn.sh ASW OUTDIR [JOBS] [PARTS]    (JOBS: parallel runs, 2)
# Environment: ARN_SCHEMES (default "1q dbbm vftree flow2sl") limits the schemes;
# ARN_RESUME=1 keeps the sweeps whose results.json already exists in OUTDIR.
# ARN+AFI here is the pseudo-code reading of seed 001 (arn_up_nodes=0 adapted_arn=0
# alt_refresh=0, pinned below: routing=arn-afi defaults to the text reading since
# issue 27); the "leaf" rows add arn_up_nodes=1 only. make study-arn-paper
# (sw/study_arn_paper.py) runs the text reading.
set -e
ASW=$1; OUT=$2; JOBS=${3:-2}
PARTS=${4:-"grid uniform leaf long"}
SCHEMES=${ARN_SCHEMES:-"1q dbbm vftree flow2sl"}
COMMON="ports=12 stages=3 voq=1 packet_flits=8 load=1 window=1000 \
  hs_start=10000 crt=1024 arn_ttl=4096 watchdog=0"
HS="hs10-1,hs25-1,hs10-4,hs25-4"
PSEUDO="adapted_arn=0 alt_refresh=0"
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
sweep() { # dir, then asw sweep arguments
  d=$1; shift
  if [ -n "${ARN_RESUME:-}" ] && [ -f "$OUT/$d/results.json" ]; then
    echo "study_arn: $d kept"; return 0
  fi
  "$ASW" sweep -j "$JOBS" --dir "$OUT/$d" $COMMON "$@" > "$OUT/$d.log" 2>&1 ||
    { echo "study_arn: $d failed, see $OUT/$d.log" >&2; exit 1; }
  echo "study_arn: $d done"
}
# scheme -> VCs and flits per VC without / with the adapted-flow channel
cfg() {
  case $1 in
    1q) V=1; B=672; VA=2; BA=336 ;;
    *) V=3; B=224; VA=4; BA=168 ;;
  esac
}
mkdir -p "$OUT"
leaf_ok=0
"$ASW" net arn_up_nodes=1 cycles=1 warmup=0 --quiet > /dev/null 2>&1 && leaf_ok=1
for s in $SCHEMES; do
  cfg $s
  if want grid; then
    sweep "${s}_hs" warmup=5000 cycles=55000 sqs=$s vcs=$V buffer_flits=$B \
      --vary routing=dmodk,oblivious,adaptive-th,arn --vary traffic=$HS
    sweep "${s}_hs_afc" warmup=5000 cycles=55000 sqs=$s vcs=$VA buffer_flits=$BA \
      arn_up_nodes=0 $PSEUDO --vary routing=adaptive-th-afi,arn-afi --vary traffic=$HS
  fi
  if want uniform; then
    sweep "${s}_uni" warmup=5000 cycles=25000 sqs=$s vcs=$V buffer_flits=$B traffic=uniform \
      --vary routing=dmodk,oblivious,adaptive-th,arn
    sweep "${s}_uni_afc" warmup=5000 cycles=25000 sqs=$s vcs=$VA buffer_flits=$BA \
      arn_up_nodes=0 $PSEUDO traffic=uniform --vary routing=adaptive-th-afi,arn-afi
  fi
  if want leaf && [ $leaf_ok = 1 ]; then
    sweep "${s}_leaf" warmup=5000 cycles=55000 sqs=$s vcs=$V buffer_flits=$B arn_up_nodes=1 \
      routing=arn --vary traffic=$HS
    sweep "${s}_leaf_afc" warmup=5000 cycles=55000 sqs=$s vcs=$VA buffer_flits=$BA \
      arn_up_nodes=1 $PSEUDO routing=arn-afi --vary traffic=$HS
  fi
done
if want long; then
  mkdir -p "$OUT/long"
  longrun() { # scheme, dir suffix, arguments (1Q and vFtree run side by side)
    cfg $1
    L="warmup=5000 cycles=200000 window=4000 sqs=$1 traffic=hs10-1"
    case $2 in
      "") sweep "long/$1" $L vcs=$V buffer_flits=$B routing=dmodk --vary seed=1 ;;
      *) sweep "long/$1$2" $L vcs=$VA buffer_flits=$BA $PSEUDO "$3" "$4" --vary seed=1 ;;
    esac
  }
  for part in "|" "_afc|routing=arn-afi|arn_up_nodes=0" "_leaf|routing=arn-afi|arn_up_nodes=1"; do
    suf=${part%%|*}; rest=${part#*|}; a1=${rest%%|*}; a2=${rest#*|}
    [ "$suf" = _leaf ] && [ $leaf_ok = 0 ] && continue
    [ "$suf" = _afc ] && [ $leaf_ok = 0 ] && a2=seed=1
    longrun 1q "$suf" "$a1" "$a2" &
    longrun vftree "$suf" "$a1" "$a2"
    wait
  done
fi
[ $leaf_ok = 1 ] || echo "study_arn: $ASW has no arn_up_nodes key: part 'leaf' skipped" >&2
exit 0
