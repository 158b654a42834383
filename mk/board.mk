# Board system (docs/boards.md): rtl/system/ + synth/boards/ + sw/asw_board.py + tb/board/.
#   make bitstream BOARD=ulx3s     Yosys -> nextpnr -> ecppack/icepack, utilisation and Fmax
#   make boards                    every board's bitstream (synth/board.py list)
#   make board-list                boards, parts, clocks, switch configurations
#   make board-sim                 the simulated board on 127.0.0.1:4321 for sw/asw_board.py
#   make test-board                whole-board simulation vs the C model (make test)
.PHONY: bitstream boards board-list board-sim test-board
bitstream: deps
	@$(PYTHON) synth/board.py build $(BOARD)
boards: deps
	@$(PYTHON) synth/board.py build --all
board-list:
	@$(PYTHON) synth/board.py list
board-sim: deps
	@$(PYTHON) tb/board/test_board.py sim $(if $(BOARD_PORT),--port $(BOARD_PORT))
test-board: deps
	@$(PYTHON) tb/board/test_board.py test
TEST_TARGETS += test-board
