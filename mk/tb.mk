# Co-simulation (tb/): RTL vs C model in lockstep under Verilator. See tb/cosim.py.
#   make cosim P=4 V=2 VOQ=1 ITERS=1 ROUTING=det VCMAP=sl BUF=8 PKT=8 SEED=1 CYCLES=20000
#        (also PW DW TABLE, SCEN=random|hotspot|full|zerocred|len1|lenmax|rewrite|proto
#         and the directed §15 scenarios, see tb/README.md)
#   make cosim ARN=afi AE=4 HCDTH=6 LCDTH=3 FCTH=2 CRT=16 TTL=200 ARN_UP=0x3 STAGE=2
#        (ARN=off|arn|afi|adaptive-th-afi; unset §15 values are drawn per seed; REFONLY=1:
#         the C side alone)
#   make cosim P=8 V=4 BUF=16 PKT=8 PFC=0xff   (PFC: port mask of PFC ports, contract §17.1)
#   make cosim P=8 V=4 BUF=16 PKT=8 ROUTING=ada LINKFAULT=0.002   (§18 link faults, see tb/README.md)
#   make cosim P=8 V=4 BUF=16 PKT=8 QCN=1   (§17.4 QCN congestion points on, CNMs compared)
#   make cosim ROUTING=obl HASH=1   (§17.6 ROUTE_HASH programmed and rewritten: oblivious
#        routes from the header's flow hash or source digit)
#   make cosim P=8 GAP=1       (§17.7 PORT_GAP programmed and rewritten: slowed outputs)
#   make cosim P=5 V=3 VOQ=0 VCADAPT=1   (§16.3 ROUTE_CTRL mode 3: FWD amask/vlo/vn, VC_CTRL
#        fb/fb_same/esc_vc programmed and rewritten)
#   make cosim FEATURES="bubble pfc"  (contract §1 optional hardware built: all, none or feature names;
#        every feature off unless given here or needed by a run option: BUBBLE PFC QCN HASH GAP
#        LINKFAULT VCADAPT SAR)
#   make cosim P=8 V=4 BUF=16 PKT=8 SE=4 SAR=1 QCN=1   (§17.8 Switch AR: SAR_CTRL/SAR_TTL/SAR_SEED
#        programmed and rewritten, CNM lane words, steering in mode 0; cnm_out compared)
#   make soak SOAK_CYCLES=1000000 SOAK_SEEDS=10
# Every variable given on the command line must be a knob of the target (tb/cosim.py
# validate(): unknown names, out-of-range or overflowing numbers and CYCLES=0 are refused
# in one line, exit 2, before any build); make test-cosim-input probes that.
COSIM_VARS := P V BUF PKT PW DW TABLE VOQ ITERS AE ROUTING TRIGGER VCMAP SCEN SEED CYCLES \
              ARN ARNX HCDTH LCDTH FCTH CRT TTL ARN_UP STAGE REFONLY BUBBLE PFC QCN HASH GAP VCADAPT FEATURES LINKFAULT SE SAR SAPIPE \
              SOAK_CYCLES SOAK_SEEDS GATE_CYCLES COV_SCALE COV_OPT
# The same knobs under the names `asw switch` / `asw net` give them (one spelling per
# concept): `make cosim ports=8 vcs=4 voq=on routing=adaptive seed=3 cycles=20000`.
# A knob given both ways must agree. `make cosim-help` lists every knob.
COSIM_ALIASES := ports:P vcs:V buffer_flits:BUF max_packet:PKT voq:VOQ iters:ITERS \
                 arn_entries:AE routing:ROUTING seed:SEED cycles:CYCLES arn:ARN \
                 arn_ttl:TTL bubble:BUBBLE features:FEATURES qcn:QCN hcdth:HCDTH lcdth:LCDTH \
                 fcth:FCTH crt:CRT trigger:TRIGGER sa_pipe:SAPIPE
$(foreach a,$(COSIM_ALIASES),$(eval _lo := $(word 1,$(subst :, ,$(a))))$(eval _up := $(word 2,$(subst :, ,$(a))))\
  $(if $($(_lo)),$(if $(and $($(_up)),$(filter-out $($(_lo)),$($(_up)))),\
    $(error cosim: $(_lo)=$($(_lo)) and $(_up)=$($(_up)) name the same knob with different values),\
    $(eval $(_up) := $($(_lo))))))
# The names of the variables given on make's command line: tb/cosim.py refuses any that
# is not a knob of the target (no run of the default configuration for `PROTS=4`).
CMDLINE_VARS = $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))
cosim_args = --cmdline='$(CMDLINE_VARS)' $(foreach v,$(COSIM_VARS),$(if $($(v)),--$(v)='$($(v))'))

.PHONY: cosim cosim-help soak coverage test-cosim test-gate
cosim-help:
	@$(PYTHON) tb/cosim.py --help
cosim:
	@$(PYTHON) tb/cosim.py cosim $(cosim_args)
test-cosim:
	@$(PYTHON) tb/cosim.py test $(cosim_args)
soak:
	@$(PYTHON) tb/cosim.py soak $(cosim_args)
test-gate:
	@$(PYTHON) tb/cosim.py gate $(cosim_args)
coverage:
	@$(PYTHON) tb/cosim.py coverage $(cosim_args)
TEST_TARGETS += test-cosim test-gate
TEST_SIDE += test-cosim test-gate
# Configurations drawn at random from the configuration space (tb/cosim_random.py: every
# §1 feature on or off, run options the drawn hardware supports), each run as make cosim:
#   make cosim-random RANDOM_SEED=7 RANDOM_COUNT=4 [CYCLES=20000]
# make test runs three of seed 26 (the same three on every machine).
RANDOM_SEED ?= 1
RANDOM_COUNT ?= 4
.PHONY: cosim-random test-cosim-random
cosim-random:
	@$(PYTHON) tb/cosim_random.py --seed '$(RANDOM_SEED)' --count '$(RANDOM_COUNT)' $(if $(CYCLES),--cycles '$(CYCLES)')
test-cosim-random:
	@$(PYTHON) tb/cosim_random.py --seed 26 --count 3 --cycles 20000
TEST_TARGETS += test-cosim-random
# Bad input to make cosim / cosim-net / soak / coverage: each refused in one line before
# anything is built (tb/test_cosim_input.py); no Verilator build.
# docs/options.md: the vocabulary (tb/options.py) with each tool's defaults.
.PHONY: test-cosim-input options-doc
test-cosim-input: $(BUILD)/asw lib
	@$(PYTHON) tb/test_cosim_input.py $(BUILD)/asw
options-doc: $(BUILD)/asw lib
	@$(PYTHON) tb/options.py --markdown $(BUILD)/asw > docs/options.md && echo "wrote docs/options.md"
TEST_TARGETS += test-cosim-input
# Co-simulation speed (docs/results.md, Speed): P=8 V=4 VOQ ITERS=2, random traffic.
.PHONY: bench-cosim
bench-cosim:
	@$(PYTHON) tb/cosim.py cosim --P=8 --V=4 --VOQ=1 --ITERS=2 --CYCLES=200000
