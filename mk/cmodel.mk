# C model of one switch (cmodel/), the `asw` program (cmodel/app/), its
# tests and benchmark. Owner: C model. mk/net.mk appends to ASW_EXTRA_SRCS.
ASW_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Icmodel -Icmodel/app
ASW_SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
  -fno-sanitize-recover=all
ASW_LDLIBS := -lm -pthread
ASW_EXTRA_SRCS ?=

CMODEL_SRCS := $(wildcard cmodel/*.c)
ASW_APP_SRCS := cmodel/app/asw.c cmodel/app/switch_cmd.c cmodel/app/switch_study.c \
  cmodel/app/cli.c
CMODEL_TEST_SRCS := $(wildcard cmodel/tests/*.c)
CMODEL_OBJS := $(CMODEL_SRCS:%.c=$(BUILD)/obj/%.o)
ASW_APP_OBJS := $(ASW_APP_SRCS:%.c=$(BUILD)/obj/%.o)
# Library objects shared by tests (everything but main).
ASW_LIB_SRCS := $(CMODEL_SRCS) cmodel/app/switch_study.c cmodel/app/cli.c
ASW_TEST_SRCS := $(ASW_LIB_SRCS) $(CMODEL_TEST_SRCS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -MMD -MP -c $< -o $@
-include $(CMODEL_OBJS:.o=.d) $(ASW_APP_OBJS:.o=.d)

.SECONDEXPANSION:
# ASW_EXTRA_SRCS is expanded when the rule runs, after mk/net.mk appended.
$(BUILD)/asw: $(CMODEL_OBJS) $(ASW_APP_OBJS) $$(ASW_EXTRA_SRCS) $$(wildcard cmodel/*.h cmodel/app/*.h cmodel/net/*.h)
	$(CC) $(ASW_CFLAGS) -o $@ $(CMODEL_OBJS) $(ASW_APP_OBJS) $(ASW_EXTRA_SRCS) $(ASW_LDLIBS)

# Unit and system tests, built plain (optimised) and with ASan+UBSan. The named
# configurations of configs/switch_configs.toml reach them as a generated header.
ASW_NAMED_HDR := $(BUILD)/cmodel/gen/switch_configs_gen.h
$(ASW_NAMED_HDR): configs/switch_configs.toml configs/switch_configs.py
	@mkdir -p $(dir $@)
	$(PYTHON) configs/switch_configs.py c-header > $@.tmp && mv $@.tmp $@
$(BUILD)/cmodel/test_cmodel: $(ASW_TEST_SRCS) $(wildcard cmodel/*.h cmodel/app/*.h cmodel/tests/*.h) $(ASW_NAMED_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -Icmodel/tests -I$(dir $(ASW_NAMED_HDR)) -o $@ $(ASW_TEST_SRCS) $(ASW_LDLIBS)
$(BUILD)/cmodel/test_cmodel_san: $(ASW_TEST_SRCS) $(wildcard cmodel/*.h cmodel/app/*.h cmodel/tests/*.h) $(ASW_NAMED_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -Icmodel/tests -I$(dir $(ASW_NAMED_HDR)) -o $@ $(ASW_TEST_SRCS) $(ASW_LDLIBS)
$(BUILD)/cmodel/bench_switch: cmodel/bench/bench_switch.c $(ASW_LIB_SRCS) $(wildcard cmodel/*.h cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -o $@ cmodel/bench/bench_switch.c $(ASW_LIB_SRCS) $(ASW_LDLIBS)

.PHONY: test-cmodel bench-switch study-switch build-cmodel
build: $(BUILD)/asw
build-cmodel: $(BUILD)/asw

# Prints one "name: N passed, N failed" line per run; exits non-zero on any failure.
test-cmodel: $(BUILD)/cmodel/test_cmodel $(BUILD)/cmodel/test_cmodel_san $(BUILD)/asw
	@rc=0; \
	$(BUILD)/cmodel/test_cmodel --label plain --tmpdir $(BUILD)/cmodel || rc=1; \
	$(BUILD)/cmodel/test_cmodel_san --label sanitized --quick --tmpdir $(BUILD)/cmodel || rc=1; \
	bash cmodel/tests/test_cli.sh $(BUILD)/asw || rc=1; \
	exit $$rc
TEST_TARGETS += test-cmodel

bench-switch: $(BUILD)/cmodel/bench_switch
	@$(BUILD)/cmodel/bench_switch

# Default study: P=16, 1-flit packets, uniform traffic at several loads:
# FIFO inputs (VOQ off: head-of-line limit ~0.60) versus VOQs with 1-iteration
# iSLIP, with a small (64) and a large (1024 flits) buffer per input.
STUDY := study-switch
STUDY_SWITCH_LOADS := 0.2 0.4 0.6 0.8 0.9 0.95 0.99
study-switch: $(BUILD)/asw
	@mkdir -p $(BUILD)/results
	@printf '%-7s %-5s %-5s %-4s %-6s %8s %10s %10s %9s\n' sa_pipe VOQ BUF pkt load offered accepted lat_mean lat_p99
	@for sp in off on; do for cfg in off:64:1 on:64:1 on:1024:1 on:1024:8; do voq=$${cfg%%:*}; \
	rest=$${cfg#*:}; buf=$${rest%:*}; pkt=$${rest#*:}; \
	for load in $(STUDY_SWITCH_LOADS); do \
	  f=$(BUILD)/results/switch_p16_sapipe$${sp}_voq$${voq}_buf$${buf}_pkt$${pkt}_load$${load}.json; \
	  $(BUILD)/asw switch --ports 16 --voq $$voq --buffer-flits $$buf --load $$load --sa-pipe $$sp \
	    --packet-flits $$pkt --cycles 25000 --warmup 5000 --seed 1 --quiet --json $$f || exit 1; \
	  $(PYTHON) -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%-7s %-5s %-5s %-4s %-6s %8.4f %10.4f %10.2f %9d" % (*sys.argv[2:7], r["offered_load"], r["accepted_throughput"], r["latency_mean"], r["latency_p99"]))' $$f $$sp $$voq $$buf $$pkt $$load; \
	done; done; done
	@echo "results: $(BUILD)/results/switch_p16_*.json"

# Single-switch hot-spot study of the ARN mechanism (contract §15): P=16,
# V=2, 30% of the traffic to port 3, adaptive routing inside 4 port groups;
# off vs ARN vs ARN+AFI with every port an up port (roots consumed here).
.PHONY: study-switch-arn
study-switch-arn: $(BUILD)/asw
	@mkdir -p $(BUILD)/results
	@printf '%-4s %-6s %9s %9s %6s %9s %9s\n' arn load accepted lat_mean roots consumed adapted
	@for arn in off arn afi; do for load in 0.3 0.5 0.7; do \
	  f=$(BUILD)/results/switch_arn_$${arn}_load$${load}.json; \
	  $(BUILD)/asw switch --ports 16 --vcs 2 --load $$load --dest hotspot:3:0.3 --packet-flits 8 \
	    --routing adaptive --arn $$arn --arn-up on --crt 200 --arn-ttl 2000 --cycles 45000 --warmup 5000 \
	    --seed 1 --quiet --json $$f || exit 1; \
	  $(PYTHON) -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%-4s %-6s %9.4f %9.1f %6d %9d %9d" % (sys.argv[2], sys.argv[3], r["accepted_throughput"], r["latency_mean"], r["roots_declared"], r["arn_consumed"], r["packets_adapted"]))' $$f $$arn $$load; \
	done; done
