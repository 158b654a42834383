# rtl/axi: AXI4-Stream / AXI4-Lite wrapper of asw_switch; after rtl/files.f
asw_axis_rx.sv
asw_axis_tx.sv
asw_axil_regs.sv
asw_axis_switch.sv
