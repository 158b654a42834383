#!/bin/sh
# Seed 001 §4.3 on the 432-node RLFT (docs/results.md, "ARN and AFI"):
# D-mod-K, Oblivious, Adaptive-Th, Adaptive-Th+AFI, ARN, ARN+AFI x 1Q /
# vFtree x uniform, HS10-1, HS25-1, the hot spot starting after the warm-up.
# 192 KB of buffer per port and VC set as in the other studies (1Q: 1 VC of
# 3072 flits, vFtree: 3 VCs of 1024); the AFI configurations get one more VC
# of the same size (the adapted-flow channel). One process at a time.
# Usage: study_arn.sh ASW OUTDIR [CYCLES] [PARTS]   (PARTS: subset of
# "1q 1q_afc 1q_arn vftree vftree_afc vftree_arn")
set -e
ASW=$1; OUT=$2; CYC=${3:-30000}
PARTS=${4:-"1q 1q_afc 1q_arn vftree vftree_afc vftree_arn"}
COMMON="ports=12 stages=3 voq=1 packet_flits=64 load=1 warmup=10000 \
  cycles=$CYC window=1000 hs_start=10000 crt=1024 arn_ttl=4096 watchdog=0"
run() { # part vcs buffer sqs routings
  case " $PARTS " in *" $1 "*) ;; *) return 0 ;; esac
  "$ASW" sweep -j 1 --dir "$OUT/$1" $COMMON vcs=$2 buffer_flits=$3 sqs=$4 \
    --vary routing=$5 --vary traffic=uniform,hs10-1,hs25-1
}
run 1q 1 3072 1q dmodk,oblivious,adaptive-th
run 1q_afc 2 3072 1q adaptive-th-afi,arn-afi
run 1q_arn 1 3072 1q arn
run vftree 3 1024 vftree dmodk,oblivious,adaptive-th
run vftree_afc 4 1024 vftree adaptive-th-afi,arn-afi
run vftree_arn 3 1024 vftree arn
