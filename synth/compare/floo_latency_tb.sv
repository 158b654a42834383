// Zero-load latency of FlooNoC's floo_router in the fpga-compare configuration (through
// cmp_floo_router.sv, synth/compare/README.md): on an idle router at node (1,1), one 3-flit
// packet from the West input to node (2,1), which XY routing sends out East. Prints the
// cycles from the head flit's input handshake to its output handshake, and checks that the
// three flits leave in order, in consecutive cycles, on East only.
module floo_latency_tb;
  localparam int unsigned N = 5, PW = 16, FW = $bits(cmp_floo_pkg::hdr_t) + PW;
  localparam int unsigned EAST = 1, WEST = 3;      // floo_pkg::route_direction_e
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  logic [N-1:0][0:0] valid_in, ready_out, valid_out, credit_out;
  logic [N-1:0][FW-1:0] data_in, data_out;
  cmp_floo_pkg::id_t here, there;
  cmp_floo_pkg::hdr_t hdr;
  int cyc = 0, sent = 0, got = 0, t_head = 0, t_prev = 0;

  cmp_floo_router #(.NumPorts(N), .NumVcs(1), .PayloadW(PW), .InDepth(2), .OutDepth(2)) dut (
    .clk_i(clk), .rst_ni(rst_n), .xy_id_i(here), .valid_i(valid_in), .ready_o(ready_out),
    .data_i(data_in), .credit_o(credit_out), .valid_o(valid_out), .ready_i('1),
    .data_o(data_out), .credit_i('0));

  assign here = '{x: 2'd1, y: 2'd1, port_id: 1'b0};
  assign there = '{x: 2'd2, y: 2'd1, port_id: 1'b0};

  // Synchronous stimulus: flit `sent` is offered from cycle 8 on and replaced by the next one
  // after each handshake; the checker samples the outputs in the same clock edges.
  always @(posedge clk) begin
    cyc <= cyc + 1;
    if (cyc == 3) rst_n <= 1'b1;
    if (rst_n && valid_in[WEST][0] && ready_out[WEST][0]) begin
      if (sent == 0) t_head = cyc;
      sent = sent + 1;
    end
    if (rst_n && cyc >= 8 && sent < 3) begin
      hdr = '0;
      hdr.dst_id = there;
      hdr.src_id = here;
      hdr.last = (sent == 2);
      valid_in[WEST][0] <= 1'b1;
      data_in[WEST] <= {hdr, PW'(32'h100 + sent)};
    end else begin
      valid_in[WEST][0] <= 1'b0;
    end
    for (int p = 0; p < N; p++) begin
      if (rst_n && valid_out[p][0]) begin
        if (p != EAST || 32'(data_out[p][PW-1:0]) != 32'h100 + got) begin
          $display("FAIL floo_router: cycle %0d output %0d, payload %h, expected output %0d payload %h",
                   cyc, p, data_out[p][PW-1:0], EAST, 32'h100 + got);
          $finish;
        end
        if (got == 0) $display("floo_router zero-load latency: %0d cycles", cyc - t_head);
        else if (cyc != t_prev + 1) begin
          $display("FAIL floo_router flit %0d left %0d cycles after the previous one", got, cyc - t_prev);
          $finish;
        end
        t_prev = cyc;
        got = got + 1;
        if (got == 3) begin
          $display("PASS floo_router: 3 flits in order, back to back");
          $finish;
        end
      end
    end
    if (cyc == 80) begin
      $display("FAIL floo_router: %0d of 3 flits out", got);
      $finish;
    end
  end

  initial begin
    valid_in = '0;
    data_in = '0;
  end
endmodule
