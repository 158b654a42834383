# Published open-source routers on our FPGA flow beside our switch (synth/compare/README.md).
# A benchmark, not part of `make test` (20 to 30 minutes).
#   make fpga-compare                          fetch the pinned sources, synthesize every row, print the table
#   make fpga-compare COMPARE_ONLY=floo-p5v1   some rows only (make fpga-compare-list names them)
#   make fpga-compare COMPARE_MIRROR=DIR       no network: fetch the same commits from local clones
#                                              DIR/<owner>+<name>[/repo] or DIR/<name>.git
#   make fpga-compare-latency                  zero-load latency of the published routers, in simulation
#   make fpga-compare-table                    the table of every row from the stored results
#   make fpga-compare-list                     rows and their configurations
# Sources at pinned commits (NAME=URL@COMMIT), unpacked into build/compare/src/NAME.
# FlooNoC's Bender.lock asks for common_cells 2.0.0-beta.3 (63b7c50d); we pin the later
# commit we could obtain and check (62a689b4); floo_router uses only cells present in both.
COMPARE_SOURCES := \
  floonoc=https://github.com/pulp-platform/FlooNoC.git@2fa02eb23c1babef9a8f714715ea7c78de98c364 \
  common_cells=https://github.com/pulp-platform/common_cells.git@62a689b4789694d14c37c740203f5f518308e3b5 \
  axi=https://github.com/pulp-platform/axi.git@e55ae2a7ee606ee3cfd4257f63982a971b704407 \
  verilog-axis=https://github.com/alexforencich/verilog-axis.git@48ff7a7e2ef782cf778d47910cf85835c64b1bce
COMPARE_MIRROR ?=
COMPARE_ONLY ?=
COMPARE_FREQ ?= 125
COMPARE_ARGS = $(foreach s,$(COMPARE_SOURCES),--source $(s)) \
               $(if $(COMPARE_MIRROR),--mirror $(COMPARE_MIRROR)) \
               $(if $(COMPARE_ONLY),--only $(COMPARE_ONLY)) --freq $(COMPARE_FREQ)
.PHONY: fpga-compare fpga-compare-fetch fpga-compare-latency fpga-compare-table fpga-compare-list
fpga-compare: deps
	@nice -n 15 $(PYTHON) synth/compare/compare.py run $(COMPARE_ARGS)
fpga-compare-fetch:
	@$(PYTHON) synth/compare/compare.py fetch $(COMPARE_ARGS)
fpga-compare-latency: deps
	@nice -n 15 $(PYTHON) synth/compare/compare.py latency $(COMPARE_ARGS)
fpga-compare-table:
	@$(PYTHON) synth/compare/compare.py table
fpga-compare-list:
	@$(PYTHON) synth/compare/compare.py list
