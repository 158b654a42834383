// uart_tx.sv — 8N1 UART transmitter: start bit, 8 data bits LSB first, one stop bit,
// DIV clocks each (docs/boards.md "Host link").
module uart_tx #(
  parameter int unsigned DIV = 104,  // clocks per bit, >= 4
  localparam int unsigned DCW = $clog2(DIV + 1)
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,  // send data_i (taken when ready_o)
  input  logic [7:0] data_i,
  output logic       ready_o,  // idle: a byte is accepted this cycle
  output logic       tx_o      // serial line, idle high (registered)
);
  localparam logic [DCW-1:0] Full = DCW'(DIV - 1);

  logic       busy_q, busy_d;
  logic [3:0] bit_q, bit_d;     // bits left to send after the current one
  logic [DCW-1:0] cnt_q, cnt_d;
  logic [8:0] shift_q, shift_d; // {data, start}; shifts right, ones enter (stop bit)
  logic       tx_d;

  assign ready_o = !busy_q;

  always_comb begin
    busy_d = busy_q;
    bit_d = bit_q;
    cnt_d = cnt_q;
    shift_d = shift_q;
    if (!busy_q) begin
      if (valid_i) begin
        busy_d = 1'b1;
        bit_d = 4'd9;
        cnt_d = Full;
        shift_d = {data_i, 1'b0};
      end
    end else if (cnt_q != '0) begin
      cnt_d = cnt_q - 1'b1;
    end else if (bit_q == 4'd0) begin
      busy_d = 1'b0;
    end else begin
      cnt_d = Full;
      bit_d = bit_q - 1'b1;
      shift_d = {1'b1, shift_q[8:1]};
    end
    tx_d = busy_d ? shift_d[0] : 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      bit_q <= '0;
      cnt_q <= '0;
      shift_q <= '1;
      tx_o <= 1'b1;
    end else begin
      busy_q <= busy_d;
      bit_q <= bit_d;
      cnt_q <= cnt_d;
      shift_q <= shift_d;
      tx_o <= tx_d;
    end
  end
endmodule
