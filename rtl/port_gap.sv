// port_gap.sv — output port rate (contract §17.7), the twin of cmodel/port_gap.c: the
// PORT_GAP registers (a 4-bit GAP per output, reset 0) and a 4-bit wait counter per output.
// An output whose counter is not 0 takes no flit this cycle (wait_o: the streaming input
// holds, asw_switch.sv / input_buffer.sv); an output ST hands a flit (sent or discarded,
// §18.2) reloads its counter with GAP as at the start of the cycle, the others count down.
// Present only with the PortRateEn parameter (contract §1).
module port_gap #(
  parameter int unsigned P = 4  // ports (2..64)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // register bus (the same signals regs.sv sees)
  input  logic         reg_en_i,
  input  logic         reg_we_i,
  input  logic [19:0]  reg_addr_i,
  input  logic [31:0]  reg_wdata_i,
  output logic         own_o,     // the address is one of PORT_GAP[0..7]
  output logic         wr_ok_o,   // ... and a write of reg_wdata_i is legal
  output logic [31:0]  rd_o,      // its read value (start of the cycle)
  // outputs ST hands a flit this cycle (sent or discarded)
  input  logic [P-1:0] sent_i,
  // outputs whose counter is not 0: no flit leaves them this cycle
  output logic [P-1:0] wait_o
);
  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegPortGap0;  // PORT_GAP[k] at RegPortGap0 + k, k 0..7

  logic [3:0] gap_q[P];  // GAP of each output
  logic [3:0] cnt_q[P];  // cycles the output still waits
  logic [2:0] k;         // the register addressed
  assign own_o = (reg_addr_i[19:3] == RegPortGap0[19:3]);
  assign k = reg_addr_i[2:0];

  // §17.7 / §11: a non-zero GAP for a port >= P is illegal; the read value has the GAPs
  // of ports 8k .. 8k+7 that exist.
  always_comb begin
    wr_ok_o = 1'b1;
    rd_o = '0;
    for (int unsigned j = 0; j < 8; j++) begin
      if (32'(k) * 8 + j >= P) begin
        if (reg_wdata_i[4*j +: 4] != 4'd0) begin
          wr_ok_o = 1'b0;
        end
      end else begin
        for (int unsigned o = 0; o < P; o++) begin
          if (o == 32'(k) * 8 + j) begin
            rd_o[4*j +: 4] = gap_q[o];
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned o = 0; o < P; o++) begin
        gap_q[o] <= 4'd0;
        cnt_q[o] <= 4'd0;
      end
    end else begin
      for (int unsigned o = 0; o < P; o++) begin
        if (sent_i[o]) begin
          cnt_q[o] <= gap_q[o];
        end else if (cnt_q[o] != 4'd0) begin
          cnt_q[o] <= cnt_q[o] - 4'd1;
        end
        if (reg_en_i && reg_we_i && own_o && wr_ok_o && (32'(k) == o / 8)) begin
          gap_q[o] <= reg_wdata_i[4*(o%8) +: 4];
        end
      end
    end
  end

  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      wait_o[o] = (cnt_q[o] != 4'd0);
    end
  end

  // A flit never leaves an output that waits.
  always_ff @(posedge clk_i) begin
    assert (!rst_ni || (sent_i & wait_o) == '0)
      else $error("port_gap: a flit left an output whose GAP counter runs");
  end
endmodule
