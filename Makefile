# arnswitch — the entry point for everything. See README.md.
#   make        installs what is missing, builds everything, runs the default study
#   make test   runs every test suite; closes with "N passed, N failed"
.DEFAULT_GOAL := all
SHELL := /bin/bash
BUILD ?= build
PYTHON ?= python3
CC ?= gcc
export PYTHONDONTWRITEBYTECODE := 1

# Each area adds its own targets and appends test targets to TEST_TARGETS.
TEST_TARGETS :=
# Test targets that touch only their own build directory run in a second lane beside the
# others (sw/run_tests.py; TEST_LANES=1 runs one lane). A fragment may append to it.
TEST_SIDE :=
# The default study run by `make`; a later fragment may replace it.
STUDY :=
include mk/deps.mk
include $(wildcard mk/cmodel.mk)
include $(wildcard mk/rtl.mk)
include $(wildcard mk/tb.mk)
include $(wildcard mk/net.mk)
include $(wildcard mk/synth.mk)
include $(wildcard mk/arn.mk)
include $(wildcard mk/tbnet.mk)
include $(wildcard mk/docs.mk)
include $(wildcard mk/fuzz.mk)
include $(wildcard mk/board.mk)
include $(wildcard mk/formal.mk)
include $(wildcard mk/soak.mk)
include $(wildcard mk/eco.mk)
include $(wildcard mk/compare.mk)
include $(wildcard mk/faults.mk)
include $(wildcard mk/qcn.mk)
include $(wildcard mk/layers.mk)

.PHONY: all test clean study build
all: deps build study

study: $(STUDY)

test: deps
	@$(PYTHON) sw/run_tests.py --side "$(TEST_SIDE)" $(TEST_TARGETS)

clean:
	rm -rf $(BUILD)
