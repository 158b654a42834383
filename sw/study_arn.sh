#!/bin/sh
# Seed 001 §4.3 on the 432-node RLFT (docs/results.md, "ARN and AFI"):
# six routing configurations x 1Q / vFtree x uniform, HS10-1, HS25-1, the
# hot spot starting after the warm-up. AFI configurations get one more VC
# (the adapted-flow channel). Usage: study_arn.sh ASW OUTDIR [CYCLES]
set -e
ASW=$1; OUT=$2; CYC=${3:-30000}
COMMON="ports=12 stages=3 voq=1 buffer_flits=3072 packet_flits=64 load=1 \
  warmup=10000 cycles=$CYC window=1000 hs_start=10000 crt=1024 arn_ttl=4096 watchdog=0"
run() { # name vcs sqs routings
  "$ASW" sweep -j 1 --dir "$OUT/$1" $COMMON vcs=$2 sqs=$3 \
    --vary routing=$4 --vary traffic=uniform,hs10-1,hs25-1
}
[ "$SKIP_1Q" ] || run 1q 1 1q dmodk,oblivious,adaptive-th,arn
run 1q_afc 2 1q adaptive-th-afi,arn-afi
run vftree 3 vftree dmodk,oblivious,adaptive-th,arn
run vftree_afc 4 vftree adaptive-th-afi,arn-afi
