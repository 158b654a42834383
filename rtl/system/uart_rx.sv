// uart_rx.sv — 8N1 UART receiver (docs/boards.md "Host link"): the line is synchronised
// by two flip-flops, a start bit is confirmed at its middle, the 8 data bits (LSB first)
// and the stop bit are sampled at their middles, DIV clocks apart. No run-time division:
// DIV is an elaboration parameter (clock frequency / baud rate, rounded).
module uart_rx #(
  parameter int unsigned DIV = 104,  // clocks per bit, >= 4
  localparam int unsigned DCW = $clog2(DIV + 1)
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,        // serial line, idle high
  output logic       valid_o,     // one-cycle pulse: data_o holds a received byte
  output logic [7:0] data_o,
  output logic       frame_err_o  // with valid_o: the stop bit was 0
);
  if (DIV < 4) begin : gen_bad_div
    $fatal(1, "uart_rx: DIV=%0d must be >= 4", DIV);
  end
  localparam logic [DCW-1:0] Full = DCW'(DIV - 1);
  localparam logic [DCW-1:0] Half = DCW'(DIV / 2 - 1);

  logic [1:0] sync_q;
  logic       busy_q, busy_d;
  logic [3:0] bit_q, bit_d;        // 0: start bit, 1..8: data, 9: stop
  logic [DCW-1:0] cnt_q, cnt_d;
  logic [7:0] shift_q, shift_d;
  logic       valid_d, ferr_d;
  logic       line;

  assign line = sync_q[1];

  always_comb begin
    busy_d = busy_q;
    bit_d = bit_q;
    cnt_d = cnt_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    ferr_d = 1'b0;
    if (!busy_q) begin
      if (!line) begin
        busy_d = 1'b1;
        bit_d = 4'd0;
        cnt_d = Half;
      end
    end else if (cnt_q != '0) begin
      cnt_d = cnt_q - 1'b1;
    end else begin
      cnt_d = Full;
      bit_d = bit_q + 1'b1;
      unique case (bit_q)
        4'd0: busy_d = !line;            // a glitch shorter than half a bit is ignored
        4'd9: begin
          busy_d = 1'b0;
          valid_d = 1'b1;
          ferr_d = !line;
        end
        default: shift_d = {line, shift_q[7:1]};
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q <= 2'b11;
      busy_q <= 1'b0;
      bit_q <= '0;
      cnt_q <= '0;
      shift_q <= '0;
      valid_o <= 1'b0;
      frame_err_o <= 1'b0;
    end else begin
      sync_q <= {sync_q[0], rx_i};
      busy_q <= busy_d;
      bit_q <= bit_d;
      cnt_q <= cnt_d;
      shift_q <= shift_d;
      valid_o <= valid_d;
      frame_err_o <= ferr_d;
    end
  end
  assign data_o = shift_q;
endmodule
