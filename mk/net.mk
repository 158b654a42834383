# Whole-network simulation (cmodel/net/, `asw net`, `asw sweep`), its tests,
# benchmark and default study. Owner: network simulation.
NET_SRCS := cmodel/net/topo.c cmodel/net/tables.c cmodel/net/netcfg.c cmodel/net/trace.c cmodel/net/qcn_net.c \
  cmodel/net/cube.c cmodel/net/cube_tables.c
# The simulator by concern (net_internal.h): build, cycle loop, switches, end nodes,
# traffic, statistics, threads and ranks, watchdog; the optional mechanisms (mech_*.c).
NET_SRCS += cmodel/net/network.c cmodel/net/net_cycle.c cmodel/net/net_switch.c \
  cmodel/net/net_endnode.c cmodel/net/net_traffic.c cmodel/net/net_stats.c \
  cmodel/net/net_parallel.c cmodel/net/net_watchdog.c cmodel/net/net_mech.c
NET_SRCS += $(sort $(wildcard cmodel/net/mech_*.c))
NET_SRCS += cmodel/net/faults.c # link faults (contract §18.6)
NET_SRCS += cmodel/net/cdg.c cmodel/net/topofile.c # any topology from a file (contract §16.5)
NET_SRCS += cmodel/net/voqnet.c # VOQnet, the reference fabric of tori and meshes (contract §16.6)
ASW_EXTRA_SRCS += $(NET_SRCS) cmodel/app/net_cmd.c cmodel/app/sweep_cmd.c cmodel/app/trace_cmd.c
NET_HDRS := $(wildcard cmodel/net/*.h) $(wildcard cmodel/net/tests/*.h) $(wildcard cmodel/*.h)
NET_SWITCH_SRCS := $(wildcard cmodel/*.c)

# The unit tests use the network's table, topology and config code without a switch.
NET_UNIT_SRCS := cmodel/textfile.c cmodel/net/topo.c cmodel/net/tables.c cmodel/net/netcfg.c cmodel/net/qcn_net.c \
  cmodel/net/cube.c cmodel/net/cube_tables.c
$(BUILD)/net/test_net_unit: cmodel/net/tests/test_net_unit.c $(NET_UNIT_SRCS) $(NET_HDRS) cmodel/textfile.h
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -D_DEFAULT_SOURCE -o $@ $< $(NET_UNIT_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_unit_san: cmodel/net/tests/test_net_unit.c $(NET_UNIT_SRCS) $(NET_HDRS) cmodel/textfile.h
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -D_DEFAULT_SOURCE -o $@ $< $(NET_UNIT_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_sim: cmodel/net/tests/test_net_sim.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -D_DEFAULT_SOURCE= -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_sim_san: cmodel/net/tests/test_net_sim.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -D_DEFAULT_SOURCE= -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_traffic: cmodel/net/tests/test_net_traffic.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -D_DEFAULT_SOURCE= -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_traffic_san: cmodel/net/tests/test_net_traffic.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -D_DEFAULT_SOURCE= -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)

# The tests use their own build of the asw program (same sources as
# $(BUILD)/asw) so a concurrent partial build of $(BUILD)/asw cannot race them.
$(BUILD)/net/asw: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -o $@ $(CMODEL_SRCS) $(ASW_APP_SRCS) $(ASW_EXTRA_SRCS) $(ASW_LDLIBS)

.PHONY: test-net-unit test-net build-net bench bench-net study-net
build: $(BUILD)/asw
build-net: $(BUILD)/asw

# Each prints "name: N passed, N failed" and exits non-zero on a failure.
test-net-unit: $(BUILD)/net/test_net_unit $(BUILD)/net/test_net_unit_san
	@rc=0; $(BUILD)/net/test_net_unit || rc=1; $(BUILD)/net/test_net_unit_san || rc=1; exit $$rc
test-net: $(BUILD)/net/test_net_sim $(BUILD)/net/test_net_sim_san $(BUILD)/net/asw \
  $(BUILD)/net/test_net_traffic $(BUILD)/net/test_net_traffic_san
	@rc=0; \
	$(BUILD)/net/test_net_sim || rc=1; \
	$(BUILD)/net/test_net_sim_san --quick || rc=1; \
	$(BUILD)/net/test_net_traffic || rc=1; \
	$(BUILD)/net/test_net_traffic_san --quick || rc=1; \
	$(PYTHON) sw/test_net_cli.py $(BUILD)/net/asw || rc=1; \
	$(PYTHON) sw/test_net_arn.py $(BUILD)/net/asw || rc=1; \
	$(PYTHON) sw/test_study_arn_paper.py || rc=1; \
	$(PYTHON) sw/test_study_arn_fig8.py || rc=1; \
	$(PYTHON) sw/test_net_pfc.py $(BUILD)/net/asw || rc=1; \
	exit $$rc
TEST_TARGETS += test-net-unit test-net

# Tori and meshes (contract §16.4, issue 11): paths, conservation, bubble deadlock freedom.
$(BUILD)/net/test_net_cube: cmodel/net/tests/test_net_cube.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/test_net_cube_san: cmodel/net/tests/test_net_cube.c $(NET_SRCS) $(NET_SWITCH_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -o $@ $< $(NET_SRCS) $(NET_SWITCH_SRCS) $(ASW_LDLIBS)
.PHONY: test-net-cube
test-net-cube: $(BUILD)/net/test_net_cube $(BUILD)/net/test_net_cube_san
	@rc=0; $(BUILD)/net/test_net_cube || rc=1; $(BUILD)/net/test_net_cube_san --quick || rc=1; exit $$rc
TEST_TARGETS += test-net-cube

# Any topology from a file (contract §16.5, docs/topology-file.md): sw/test_net_topofile.py
# on an ASan+UBSan build of asw, then on a build with a planted bug (ASW_PLANT_UPDN: updn
# takes any shortest legal-cost neighbour, turning down then up) that the test must catch.
$(BUILD)/net/asw_san: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -o $@ $(CMODEL_SRCS) $(ASW_APP_SRCS) $(ASW_EXTRA_SRCS) $(ASW_LDLIBS)
$(BUILD)/net/asw_plant_updn: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -DASW_PLANT_UPDN -o $@ $(CMODEL_SRCS) $(ASW_APP_SRCS) $(ASW_EXTRA_SRCS) $(ASW_LDLIBS)
.PHONY: test-net-topofile
test-net-topofile: $(BUILD)/net/asw_san $(BUILD)/net/asw_plant_updn
	@rc=0; $(PYTHON) sw/test_net_topofile.py $(BUILD)/net/asw_san || rc=1; \
	if $(PYTHON) sw/test_net_topofile.py $(BUILD)/net/asw_plant_updn > $(BUILD)/net/plant_updn.log 2>&1; then \
	  echo "FAIL topology-file test passed with updn not up*/down* (planted)"; echo "topofile-planted: 0 passed, 1 failed"; rc=1; \
	else grep '^FAIL' $(BUILD)/net/plant_updn.log | head -3 | sed 's/^FAIL/  expected on the planted build: FAIL/'; \
	  echo "topofile-planted: 1 passed, 0 failed"; fi; exit $$rc
TEST_TARGETS += test-net-topofile

# Flit-hops per second, single thread (closing-note figures, not a test).
NET_BENCH_512 := topology=kary k=8 n=3 vcs=4 buffer_flits=32 packet_flits=16 \
  iters=1 sqs=dbbm warmup=2000 cycles=20000 --quiet
# Huge pages for malloc: the big network's 4 GB of switch buffers are
# TLB-miss bound (1.75x faster with them; results identical).
bench-net: export GLIBC_TUNABLES = glibc.malloc.hugetlb=1
bench-net: $(BUILD)/asw
	@mkdir -p $(BUILD)/bench
	@for load in 0.3 0.9; do \
	  $(BUILD)/asw net $(NET_BENCH_512) load=$$load --json $(BUILD)/bench/net512_$$load.json || exit 1; \
	  $(PYTHON) sw/net_report.py bench $(BUILD)/bench/net512_$$load.json; \
	done
	@if [ -n "$(NET_BENCH_BIG)" ]; then \
	  $(BUILD)/asw net topology=rlft ports=36 stages=3 vcs=1 buffer_flits=3072 \
	    packet_flits=64 load=1 warmup=0 cycles=$(NET_BENCH_BIG_CYCLES) window=1000 \
	    threads=$(NET_BENCH_BIG_THREADS) --quiet \
	    --json $(BUILD)/bench/net11664.json || exit 1; \
	  $(PYTHON) sw/net_report.py bench $(BUILD)/bench/net11664.json; \
	else echo "(11664-node RLFT, 1 ms: make bench NET_BENCH_BIG=1 [NET_BENCH_BIG_CYCLES=195313] [NET_BENCH_BIG_THREADS=2])"; fi
NET_BENCH_BIG_CYCLES ?= 195313
# Both cores for the big network (same results for any thread count).
NET_BENCH_BIG_THREADS ?= 2
bench: bench-net
# asw net and BookSim2 side by side, one after the other (docs/results.md, Speed §3):
# the 512-node 8-ary 3-tree, 4 VCs x 32 flits, 16-flit packets, uniform 0.9, flit-hops per
# CPU-s of each (sw/bench_booksim.py). BOOKSIM= names a BookSim2 binary built from its own
# source tree (github.com/booksim/booksim2); nothing of BookSim is in this repository, and
# without the binary the target says so and stops with success.
BOOKSIM ?=
.PHONY: bench-booksim
bench-booksim: $(BUILD)/asw
	@if [ -z "$(BOOKSIM)" ] || [ ! -x "$(BOOKSIM)" ]; then \
	  echo "bench-booksim: skipped: no BookSim2 binary$(if $(BOOKSIM), at $(BOOKSIM)) (make bench-booksim BOOKSIM=<path to booksim, built from github.com/booksim/booksim2>)"; \
	else \
	  GLIBC_TUNABLES=glibc.malloc.hugetlb=1 $(PYTHON) sw/bench_booksim.py $(BUILD)/asw $(BOOKSIM) $(BUILD)/bench/booksim; \
	fi
# The 65 536-node RLFT (64-port switches, 3 stages, 5 120 switches), 100 us
# (19 531 cycles of 5.12 ns) at full offered load, uniform and HS25-1, both
# cores (docs/results.md, Speed §4; about 10 GB and 10-20 min each on 2 idle
# cores). Memory-lean: 512-flit input buffers, 64-packet source pools.
NET_BENCH_HUGE := topology=rlft ports=64 stages=3 vcs=1 buffer_flits=512 \
  packet_flits=64 load=1 warmup=0 cycles=19531 window=1000 source_pool=64 \
  threads=2 --quiet
NET_BENCH_HUGE_TRAFFIC ?= uniform hs25-1
.PHONY: bench-65536
bench-65536: export GLIBC_TUNABLES = glibc.malloc.hugetlb=1
bench-65536: $(BUILD)/asw
	@mkdir -p $(BUILD)/bench
	@for t in $(NET_BENCH_HUGE_TRAFFIC); do \
	  $(BUILD)/asw net $(NET_BENCH_HUGE) traffic=$$t --json $(BUILD)/bench/net65536_$$t.json || exit 1; \
	  $(PYTHON) sw/net_report.py bench $(BUILD)/bench/net65536_$$t.json; \
	done
# Byte-identity of this build's asw net against another (BASE=<asw binary>, e.g. main's):
# 33 configurations, --json minus timing, --csv and exit status (sw/net_identity.py; a
# benchmark companion for speed changes, not part of make test).
BASE ?=
.PHONY: net-identity
net-identity: $(BUILD)/asw
	@if [ -z "$(BASE)" ] || [ ! -x "$(BASE)" ]; then \
	  echo "net-identity: needs BASE=<asw binary to compare with>"; exit 2; fi
	@$(PYTHON) sw/net_identity.py $(BASE) $(BUILD)/asw $(BUILD)/bench/identity
# Instructions of a shortened 512-node bench (callgrind: deterministic, unlike
# times on a shared machine; the figure docs/results.md compares per change).
NET_BENCH_CG := topology=kary k=8 n=3 vcs=4 buffer_flits=32 packet_flits=16 \
  iters=1 sqs=dbbm warmup=500 cycles=3000 load=0.9 --quiet
.PHONY: bench-callgrind
bench-callgrind: $(BUILD)/asw
	@mkdir -p $(BUILD)/bench
	@valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/bench/callgrind.net512 \
	  $(BUILD)/asw net $(NET_BENCH_CG) 2>&1 | sed -n 's/.*Collected : /instructions: /p'

# Default study: 432-node RLFT under HS25-1, D-mod-K vs fully adaptive vs a
# restricted adaptive routing, with 1Q and vFtree. Table on stdout, PNG plot.
# Its table (table.txt) is a file target: a second `make` finds it up to date and runs
# nothing; it reruns when build/asw or sw/study_net.py changed (or the file is deleted).
STUDY := study-net
STUDY_NET_DIR := $(BUILD)/results/study_net
$(STUDY_NET_DIR)/table.txt: $(BUILD)/asw sw/study_net.py
	@mkdir -p $(STUDY_NET_DIR)
	@set -o pipefail; $(PYTHON) sw/study_net.py --asw $(BUILD)/asw --out $(STUDY_NET_DIR) \
	  | tee $@.tmp && mv $@.tmp $@
study-net: $(STUDY_NET_DIR)/table.txt
	@echo "default study: table in $(STUDY_NET_DIR)/table.txt, plots in $(STUDY_NET_DIR)/ (rm $(STUDY_NET_DIR)/table.txt to rerun)"

# The default study on the 3 456-node RLFT (24-port switches, 720 switches; a few
# minutes on 2 cores): the second table of docs/results.md's default study.
.PHONY: study-net-3456
study-net-3456: $(BUILD)/asw
	@$(PYTHON) sw/study_net.py --asw $(BUILD)/asw --out $(BUILD)/results/study_net_3456 --extra ports=24

# ARN/AFI study of docs/results.md (seed 001 §4.3, 432-node RLFT; about 40 CPU-minutes).
# ARN_SCHEMES="1q vftree" and ARN_PARTS="grid uniform" run a part of it
# (sw/study_arn.sh; ARN_RESUME=1 keeps finished sweeps).
ARN_PARTS ?= grid uniform leaf long
# PFC vs credit links under an end-node hot spot (docs/results.md "Lossless Ethernet").
.PHONY: study-pfc
study-pfc: $(BUILD)/asw
	@$(PYTHON) sw/study_pfc.py $(BUILD)/asw $(BUILD)/results/pfc
.PHONY: study-arn
study-arn: $(BUILD)/asw
	@sw/study_arn.sh $(BUILD)/asw $(BUILD)/results/arn 2 "$(ARN_PARTS)"
	@$(PYTHON) sw/plot_arn.py $(BUILD)/results/arn docs/figures
# Seed 001 Fig. 6 at the paper's time scale (issue 27; sw/study_arn_paper.py): 432-node
# RLFT, 5 traffics x 4 schemes x 6 routings, 3 seeds for HS10/HS25, each run the hot-spot
# start (3 paper-ms) + ARN_PAPER_AFTER_MS paper-ms (1 ms = 24 414 cycles of 8-flit
# packets; 20 ms: 40-100 CPU-s a run (1Q), 216 runs). Resumable: finished runs
# (build/results/arn_paper/runs/*.json) are kept and skipped; ARN_PAPER_ONLY="traffic=hs10-1
# scheme=1q routing=dmodk,arn-afi" runs a part; ARN_PAPER_JOBS processes at a time.
ARN_PAPER_AFTER_MS ?= 20
ARN_PAPER_ONLY ?=
ARN_PAPER_JOBS ?= 1
# ARN_PAPER_COLD_AVOID=1: hs_cold_avoid=1 in the hot-spot runs (kept apart by name).
ARN_PAPER_COLD_AVOID ?=
# Where the plot step writes its PNGs (ARN_PAPER_FIGS=docs/figures: the report's figures).
ARN_PAPER_FIGS ?= $(BUILD)/results/arn_paper/figures
ARN_PAPER_ARGS = --out $(BUILD)/results/arn_paper --after-ms $(ARN_PAPER_AFTER_MS) \
  $(foreach o,$(ARN_PAPER_ONLY),--only $(o)) $(if $(ARN_PAPER_COLD_AVOID),--cold-avoid)
.PHONY: study-arn-paper
study-arn-paper: $(BUILD)/asw
	@$(PYTHON) sw/study_arn_paper.py --asw $(BUILD)/asw $(ARN_PAPER_ARGS) -j $(ARN_PAPER_JOBS) run
	@$(PYTHON) sw/study_arn_paper.py $(ARN_PAPER_ARGS) plot --fig-dir $(ARN_PAPER_FIGS)
# Seed 001 Fig. 7 (configuration #2: 3 456-node RLFT, 24-port switches, 720 switches):
# HS10-1 and HS25-1 x 1Q and vFtree x D-mod-K and ARN + AFI, seed 1, same time scale
# (sw/study_arn_paper.py --config 2), each run on ARN_FIG7_THREADS threads (asw net
# threads=; the same results for any count; 20 ms: 1Q D-mod-K 525 CPU-s,
# ARN + AFI 775 CPU-s, 9 and 19 min wall on 2 shared cores). Resumable like study-arn-paper
# (build/results/arn_fig7/runs/); ARN_FIG7_ONLY="scheme=1q" replaces that key of the
# default filter (runs a part, or more: routing=dmodk,arn,arn-afi); ARN_FIG7_AFTER_MS
# a shorter or longer span (a separate set of runs: the span is part of a run's name).
ARN_FIG7_AFTER_MS ?= 20
ARN_FIG7_ONLY ?=
ARN_FIG7_SEEDS ?= 1
ARN_FIG7_THREADS ?= 2
ARN_FIG7_FIGS ?= $(BUILD)/results/arn_fig7/figures
# ARN_FIG7_COLD_AVOID=1: hs_cold_avoid=1 (as ARN_PAPER_COLD_AVOID; names end in _coldavoid).
ARN_FIG7_COLD_AVOID ?=
ARN_FIG7_ARGS = --config 2 --out $(BUILD)/results/arn_fig7 --after-ms $(ARN_FIG7_AFTER_MS) \
  --seeds $(ARN_FIG7_SEEDS) --only traffic=hs10-1,hs25-1 --only scheme=1q,vftree \
  --only routing=dmodk,arn-afi $(foreach o,$(ARN_FIG7_ONLY),--only $(o)) \
  $(if $(ARN_FIG7_COLD_AVOID),--cold-avoid)
.PHONY: study-arn-fig7
study-arn-fig7: $(BUILD)/asw
	@$(PYTHON) sw/study_arn_paper.py --asw $(BUILD)/asw $(ARN_FIG7_ARGS) --threads $(ARN_FIG7_THREADS) run
	@$(PYTHON) sw/study_arn_paper.py $(ARN_FIG7_ARGS) plot --fig-dir $(ARN_FIG7_FIGS)
# Seed 001 Fig. 8 (sw/study_arn_fig8.py): PTRANS-like and Inception-like traces (asw trace)
# on the 432-node RLFT, alone and with an HS10-1 tree beside them (asw net trace_hs=0.1),
# D-mod-K and ARN + AFI, 1Q; the paper's times / 20. 8 runs, 300 CPU-s (9.5 min wall on the
# shared 2-core machine).
# Resumable (build/results/arn_fig8/runs/); ARN_FIG8_ONLY="app=ptrans" runs a part,
# ARN_FIG8_ONLY="routing=oblivious,adaptive-th,adaptive-th-afi,arn" the figure's other
# routings (16 runs; the table shows every finished run).
ARN_FIG8_ONLY ?=
ARN_FIG8_SEED ?= 1
.PHONY: study-arn-fig8
study-arn-fig8: $(BUILD)/asw
	@$(PYTHON) sw/study_arn_fig8.py --asw $(BUILD)/asw --out $(BUILD)/results/arn_fig8 \
	  --seed $(ARN_FIG8_SEED) $(foreach o,$(ARN_FIG8_ONLY),--only $(o))

# Studies of docs/results.md (long: tens of minutes on 2 cores).
NET_T2_ROUTING := adaptive,adap-th-s-k,adap-th-s-k/3,adap-th-1s-k,adap-th-1s-k/3,adap-th-2s-k,adap-th-2s-k/3,dmodk,oblivious,adap-2th-s-k,adap-2th-s-k/3
.PHONY: study-tables study-obqa
study-tables: $(BUILD)/asw
	@for voq in 0 1; do \
	  $(PYTHON) sw/study_net.py --asw $(BUILD)/asw --out $(BUILD)/results/table_voq$$voq \
	    --traffic hs10-1,hs25-1,hs10-4,hs25-4,ihs --routing $(NET_T2_ROUTING) \
	    --schemes 1q,dbbm,vftree,flow2sl --voq $$voq --cycles 30000 --warmup 10000 || exit 1; \
	  $(PYTHON) sw/net_report.py table $(BUILD)/results/table_voq$$voq/results.json \
	    --rows routing_name --cols scheme_name,traffic_name --markdown --summary; \
	done
# Uniform reference of Tables 2 and 3: D-mod-K, 1Q and vFtree, without and with VOQs.
.PHONY: study-uniform
study-uniform: $(BUILD)/asw
	@for voq in 0 1; do \
	  $(PYTHON) sw/study_net.py --asw $(BUILD)/asw --out $(BUILD)/results/uniform_voq$$voq \
	    --traffic uniform --routing dmodk --schemes 1q,vftree --voq $$voq --cycles 30000 --warmup 10000 || exit 1; \
	  $(PYTHON) sw/net_report.py table $(BUILD)/results/uniform_voq$$voq/results.json \
	    --rows routing_name --cols scheme_name,traffic_name --markdown; \
	done
study-obqa: $(BUILD)/asw
	@$(PYTHON) sw/study_obqa.py --asw $(BUILD)/asw --out $(BUILD)/results/obqa

# Distributed runs over MPI (Open MPI from Debian, mk/deps.mk): build/asw-mpi
# is asw built with mpicc and the MPI transport (cmodel/net/net_mpi.c); the
# plain build/asw has no MPI dependency. `mpirun -np N build/asw-mpi net ...
# ranks=N` gives the bytes of the one-process run (sw/test_net_mpi.py).
MPICC ?= mpicc
MPIRUN ?= mpirun --allow-run-as-root --oversubscribe --mca btl self,vader
.PHONY: build-mpi test-mpi bench-mpi
$(BUILD)/asw-mpi: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) cmodel/net/net_mpi.c $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(MPICC) $(ASW_CFLAGS) -DASW_MPI -o $@ $(CMODEL_SRCS) $(ASW_APP_SRCS) $(ASW_EXTRA_SRCS) cmodel/net/net_mpi.c $(ASW_LDLIBS)
build-mpi: $(BUILD)/asw-mpi
test-mpi: $(BUILD)/asw-mpi $(BUILD)/net/asw
	@$(PYTHON) sw/test_net_mpi.py --asw $(BUILD)/net/asw --asw-mpi $(BUILD)/asw-mpi --mpirun "$(MPIRUN)"
TEST_TARGETS += test-mpi
# The 512-node bench (0.9 load) on 1 and 2 ranks (not a test; on 2 cores the
# ranks busy-wait for each other at every exchange, see docs/results.md).
bench-mpi: $(BUILD)/asw-mpi
	@mkdir -p $(BUILD)/bench
	@for r in 1 2; do \
	  $(MPIRUN) -np $$r $(BUILD)/asw-mpi net $(NET_BENCH_512) load=0.9 ranks=$$r \
	    --json $(BUILD)/bench/mpi512_$$r.json || exit 1; \
	  $(PYTHON) sw/net_report.py bench $(BUILD)/bench/mpi512_$$r.json; \
	done

# Seed 003 on tori (contract §16.4, docs/results.md "Tori"): sw/study_torus.py, about
# 250 runs of `asw net`, 2 processes.
.PHONY: study-torus
study-torus: $(BUILD)/asw
	@$(PYTHON) sw/study_torus.py --asw $(BUILD)/asw --out $(BUILD)/results/torus
