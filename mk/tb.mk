# Co-simulation (tb/): RTL vs C model in lockstep under Verilator. See tb/cosim.py.
#   make cosim P=4 V=2 VOQ=1 ITERS=1 ROUTING=det VCMAP=sl BUF=8 PKT=8 SEED=1 CYCLES=20000
#        (also PW DW TABLE, SCEN=random|hotspot|full|zerocred|len1|lenmax|rewrite)
#   make soak SOAK_CYCLES=1000000 SOAK_SEEDS=10
COSIM_VARS := P V BUF PKT PW DW TABLE VOQ ITERS ROUTING VCMAP SCEN SEED CYCLES \
              SOAK_CYCLES SOAK_SEEDS GATE_CYCLES COV_SCALE
cosim_args = $(foreach v,$(COSIM_VARS),$(if $($(v)),--$(v)=$($(v))))

.PHONY: cosim soak coverage test-cosim test-gate
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
