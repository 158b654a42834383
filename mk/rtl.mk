# RTL (rtl/): Verilator lint over a spread of legal configurations.
RTL_SRCS := $(addprefix rtl/,$(shell grep -v '^\#' rtl/files.f))
# Each entry is one parameter set (P:V:BUF:LMAX:PW:DW:TABLE:VOQ:ITERS:AE[:OMIT[:SE]]); AE >= 1 with
# VOQ = 1 instantiates the §15 blocks, AE >= 1 with VOQ = 0 only their registers; OMIT
# (default 0) leaves out the §16.1 (bit 0) / §17.1 (bit 1) / §17.4 (bit 2) / §18 (bit 3) /
# §16.3 (bit 4; its hardware exists only with VOQ = 0: the last four sets)
# hardware; SE (default 0) >= 1 with OMIT bit 2 clear instantiates the §17.8 Switch AR (the last
# five sets: SE 1, 3, 8, 32, and SE 4 with OMIT bit 2, which leaves it out).
RTL_LINT_CONFIGS := 8:2:32:16:32:16:256:1:1:0 2:1:4:4:8:1:1:0:1:0 5:3:12:6:0:8:200:0:3:0 \
                    4:2:8:8:32:8:64:1:2:0 8:4:16:8:64:6:64:1:4:0 3:1:1:1:1:4:16:1:1:0 \
                    4:2:8:8:32:8:64:1:2:4 8:4:16:8:64:6:64:1:4:8 5:3:12:6:0:8:200:1:3:1 \
                    5:3:12:6:0:8:200:0:3:1 2:1:4:4:8:1:1:1:1:32 16:2:32:16:32:8:256:1:1:8 \
                    4:8:255:255:64:16:64:1:2:4 \
                    4:2:8:8:32:8:64:1:2:4:3 5:3:12:6:0:8:200:0:3:0:1 2:1:4:4:8:1:1:0:1:0:2 \
                    4:2:8:8:32:8:64:1:2:4:7 5:3:12:6:0:8:200:0:3:0:4 \
                    4:2:8:8:32:8:64:1:2:4:15 2:1:2:2:8:2:4:0:1:0:15 5:3:12:6:0:8:200:1:3:1:8 \
                    5:3:12:6:0:8:200:0:3:0:16 2:1:2:2:8:2:4:0:1:0:31 7:5:8:4:8:8:64:0:2:0:0 \
                    3:8:4:4:0:4:16:0:1:2:0 \
                    2:1:4:4:8:1:1:0:1:0:0:1 4:2:8:8:32:6:64:1:2:4:0:3 8:4:16:8:64:8:256:1:3:6:0:8 \
                    64:1:4:4:8:16:64:1:1:0:0:32 5:3:12:6:0:8:200:0:3:0:4:4

.PHONY: lint test-lint
lint:
	@fail=0; pass=0; for c in $(RTL_LINT_CONFIGS); do \
	  g=$$(echo $$c | awk -F: '{printf "-GP=%s -GV=%s -GBUF=%s -GLMAX=%s -GPW=%s -GDW=%s -GTABLE=%s -GVOQ=%s -GITERS=%s -GAE=%s -GOMIT=%s -GSE=%s",$$1,$$2,$$3,$$4,$$5,$$6,$$7,$$8,$$9,$$10,($$11==""?0:$$11),($$12==""?0:$$12)}'); \
	  if verilator --lint-only -Wall $$g --top-module asw_switch $(RTL_SRCS); then \
	    echo "lint ok   $$c"; pass=$$((pass+1)); else echo "lint FAIL $$c"; fail=$$((fail+1)); fi; \
	done; \
	if verilator --lint-only -Wall -GP=65 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal P=65 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal P=65 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GAE=33 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal AE=33 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal AE=33 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GOMIT=32 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal OMIT=32 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal OMIT=32 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GSE=33 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal SE=33 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal SE=33 rejected"; pass=$$((pass+1)); fi; \
	echo "lint: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

test-lint: lint
TEST_TARGETS += test-lint
