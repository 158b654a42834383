# rtl/system/: the board system (docs/boards.md); paths relative to the repository root,
# after rtl/files.f (the switch core and its primitives).
rtl/system/uart_rx.sv
rtl/system/uart_tx.sv
rtl/system/host_bridge.sv
rtl/system/cnt_bank.sv
rtl/system/end_node.sv
rtl/system/asw_system.sv
