# RTL (rtl/): Verilator lint over a spread of legal configurations.
RTL_SRCS := $(addprefix rtl/,$(shell grep -v '^\#' rtl/files.f))
# The parameter sets: [lint] of configs/switch_configs.toml (one line of -G flags each).
RTL_LINT_CMD := $(PYTHON) configs/switch_configs.py lint-gflags

.PHONY: lint test-lint
lint:
	@fail=0; pass=0; n=0; sets=$$($(RTL_LINT_CMD)) || exit 1; \
	while IFS= read -r g; do n=$$((n+1)); \
	  if verilator --lint-only -Wall $$g --top-module asw_switch $(RTL_SRCS); then \
	    echo "lint ok   [$$n] $$g"; pass=$$((pass+1)); else echo "lint FAIL [$$n] $$g"; fail=$$((fail+1)); fi; \
	done <<< "$$sets"; \
	if verilator --lint-only -Wall -GP=65 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal P=65 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal P=65 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GAE=33 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal AE=33 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal AE=33 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GBUF=4 -GLMAX=8 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal BUF=4 LMAX=8 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal BUF=4 LMAX=8 rejected"; pass=$$((pass+1)); fi; \
	if verilator --lint-only -Wall -GSE=33 --top-module asw_switch $(RTL_SRCS) >/dev/null 2>&1; then \
	  echo "lint FAIL illegal SE=33 was accepted"; fail=$$((fail+1)); \
	else echo "lint ok   illegal SE=33 rejected"; pass=$$((pass+1)); fi; \
	echo "lint: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

test-lint: lint
TEST_TARGETS += test-lint
