# Fuzzing with libFuzzer (cmodel/fuzz/, README there): the net config parser,
# the register-table parser and the switch step.
#   make fuzz [FUZZ_TIME=600] [FUZZ_RUNS=10000000] [FUZZ_TARGETS="netcfg table switch trace"]
#        long runs, one target at a time (nice 10), FUZZ_TIME seconds each or, with
#        FUZZ_RUNS, that many executions each; then the corpus it grew
#        replayed under ASan+UBSan; prints executions, exec/s, coverage and
#        findings per target; fails on a finding (kept in build/fuzz/findings)
#   make test-fuzz   replays the committed corpus and reproducers of every
#        target and fuzzes each for a fixed number of executions with a fixed
#        seed (cmodel/fuzz/fuzz.py SHORT_RUNS, or FUZZ_SHORT_RUNS), each capped
#        at FUZZ_SHORT_TIME (120) s, ASan+UBSan
# clang-14 and libclang-rt-14-dev come from mk/deps.mk; without them both
# targets fail and say so.
FUZZ_CC ?= clang-14
FUZZ_TARGETS ?= netcfg table switch trace
FUZZ_TIME ?= 600
FUZZ_RUNS ?= 0
FUZZ_SEED ?= 0
FUZZ_SHORT_TIME ?= 120
FUZZ_SHORT_RUNS ?= 0
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_COMMON := -std=c11 -g -Wall -Wextra -Werror -Icmodel -Icmodel/net -D_DEFAULT_SOURCE= \
  -fsanitize-coverage-ignorelist=cmodel/fuzz/coverage_ignore.txt
# ASan + UBSan (test-fuzz, replays); UBSan only, 3x faster (make fuzz's long runs).
FUZZ_SAN := -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_FAST := -O2 -fsanitize=fuzzer,undefined -fno-sanitize-recover=all
FUZZ_SRCS_netcfg := cmodel/textfile.c cmodel/net/netcfg.c cmodel/net/tables.c cmodel/net/topo.c cmodel/net/cube.c
FUZZ_SRCS_table := $(CMODEL_SRCS)
FUZZ_SRCS_switch := $(CMODEL_SRCS)
FUZZ_SRCS_trace := cmodel/net/trace.c
FUZZ_HDRS := $(wildcard cmodel/*.h cmodel/net/*.h) cmodel/fuzz/coverage_ignore.txt

# clang with libFuzzer: checked once, with a message naming what is missing.
$(FUZZ_DIR)/.clang-ok-$(FUZZ_CC): mk/fuzz.mk mk/deps.mk
	@mkdir -p $(FUZZ_DIR)
	@printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > $(FUZZ_DIR)/probe.c
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	  echo "FAIL fuzz: $(FUZZ_CC) is not installed (make deps installs clang-14 and libclang-rt-14-dev, mk/deps.mk)"; exit 1; fi
	@if ! $(FUZZ_CC) $(FUZZ_SAN) -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c > $(FUZZ_DIR)/probe.log 2>&1; then \
	  echo "FAIL fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer,address,undefined (libFuzzer runtime missing: make deps installs libclang-rt-14-dev, mk/deps.mk):"; \
	  head -3 $(FUZZ_DIR)/probe.log; exit 1; fi
	@touch $@

$(FUZZ_DIR)/fuzz_%: cmodel/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HDRS) | $(FUZZ_DIR)/.clang-ok-$(FUZZ_CC)
	$(FUZZ_CC) $(FUZZ_COMMON) $(FUZZ_SAN) -o $@ $< $(FUZZ_SRCS_$*) -lm
$(FUZZ_DIR)/fast/fuzz_%: cmodel/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HDRS) | $(FUZZ_DIR)/.clang-ok-$(FUZZ_CC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_COMMON) $(FUZZ_FAST) -o $@ $< $(FUZZ_SRCS_$*) -lm

.PHONY: fuzz test-fuzz
fuzz: $(FUZZ_DIR)/.clang-ok-$(FUZZ_CC) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fast/fuzz_%)
	@$(PYTHON) cmodel/fuzz/fuzz.py long --build $(FUZZ_DIR) --time $(FUZZ_TIME) --runs $(FUZZ_RUNS) --seed $(FUZZ_SEED) $(FUZZ_TARGETS)
test-fuzz: $(FUZZ_DIR)/.clang-ok-$(FUZZ_CC) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
	@$(PYTHON) cmodel/fuzz/fuzz.py test --build $(FUZZ_DIR) --time $(FUZZ_SHORT_TIME) --runs $(FUZZ_SHORT_RUNS) $(FUZZ_TARGETS)
TEST_TARGETS += test-fuzz
