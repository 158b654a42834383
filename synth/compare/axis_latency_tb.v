// Zero-load latency of verilog-axis axis_switch in the fpga-compare configuration
// (synth/compare/README.md): one 3-flit packet from input 1 to output 2 on an idle switch;
// prints the cycles from the head flit's input handshake to its output handshake, and checks
// that the three flits leave in order, in consecutive cycles.
`timescale 1ns/1ps
module axis_latency_tb;
  localparam integer N = 4, W = 16, DW = 3;
  reg clk = 1'b0, rst = 1'b1;
  always #5 clk = ~clk;
  reg  [N*W-1:0]  s_data = 0;
  reg  [N-1:0]    s_valid = 0, s_last = 0;
  reg  [N*DW-1:0] s_dest = 0;
  wire [N-1:0]    s_ready, m_valid, m_last;
  wire [N*W-1:0]  m_data;
  wire [N-1:0]    m_dest;
  axis_switch #(.S_COUNT(N), .M_COUNT(N), .DATA_WIDTH(W), .KEEP_ENABLE(0), .ID_ENABLE(0),
                .M_DEST_WIDTH(1), .USER_ENABLE(0), .S_REG_TYPE(2), .M_REG_TYPE(2)) dut (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_data), .s_axis_tkeep({2*N{1'b1}}), .s_axis_tvalid(s_valid), .s_axis_tready(s_ready),
    .s_axis_tlast(s_last), .s_axis_tid({N*8{1'b0}}), .s_axis_tdest(s_dest), .s_axis_tuser({N{1'b0}}),
    .m_axis_tdata(m_data), .m_axis_tkeep(), .m_axis_tvalid(m_valid), .m_axis_tready({N{1'b1}}),
    .m_axis_tlast(m_last), .m_axis_tid(), .m_axis_tdest(m_dest), .m_axis_tuser());
  integer cyc = 0, sent = 0, got = 0, t_head = 0, t_prev = 0;
  always @(posedge clk) cyc <= cyc + 1;
  always @(posedge clk) begin
    if (!rst && s_valid[1] && s_ready[1]) begin
      if (sent == 0) t_head = cyc;
      sent = sent + 1;
    end
    if (!rst && m_valid[2]) begin
      if (m_data[2*W +: W] != 16'h100 + got) begin
        $display("FAIL axis_switch flit %0d: data %h", got, m_data[2*W +: W]);
        $finish;
      end
      if (got == 0) $display("axis_switch zero-load latency: %0d cycles", cyc - t_head);
      else if (cyc != t_prev + 1) begin
        $display("FAIL axis_switch flit %0d left %0d cycles after the previous one", got, cyc - t_prev);
        $finish;
      end
      t_prev = cyc;
      got = got + 1;
      if (got == 3) begin
        $display("PASS axis_switch: 3 flits in order, back to back");
        $finish;
      end
    end
  end
  initial begin
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    repeat (4) @(posedge clk);
    while (sent < 3) begin
      s_valid[1] <= 1'b1;
      s_data[1*W +: W] <= 16'h100 + sent;
      s_dest[1*DW +: DW] <= 3'b100;           // port 2: tdest MSBs = 2'b10
      s_last[1] <= (sent == 2);
      @(posedge clk);
      #1;
    end
    s_valid <= 0;
    repeat (50) @(posedge clk);
    $display("FAIL axis_switch: %0d of 3 flits out", got);
    $finish;
  end
endmodule
