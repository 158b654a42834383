// asw_dpi_checker.sv — lockstep checker: steps the arnswitch golden model (C, through
// DPI-C, asw_dpi_pkg) with the inputs of a DUT asw_switch every clock cycle and
// compares every output bit of the DUT with the model's. Connect it beside the DUT,
// each DUT port to the checker port of the same name (outputs to dut_*_i); a
// mismatch is reported with cycle, port, field, expected and actual values ($error,
// the first MaxReports of them) and counted in mismatches_o. Reset (rst_ni low)
// resets the model too. Not synthesizable (DPI).
// Testbench code: blocking assignments in the clocked process are intended.
/* verilator lint_off BLKSEQ */
module asw_dpi_checker #(
  // switch parameters: those of the DUT (contract §1)
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned LMAX = 16,
  parameter int unsigned PW = 32,
  parameter int unsigned DW = 16,
  parameter int unsigned TABLE = 256,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  parameter int unsigned AE = 0,
  parameter int unsigned SAPIPE = 0,  // pipelined switch allocation (contract §8.1)
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  // mismatches reported in full before the checker only counts them
  parameter int unsigned MaxReports = 10,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // the DUT's inputs
  input  logic [P-1:0]     in_valid_i,
  input  logic [P-1:0]     in_head_i,
  input  logic [P-1:0]     in_tail_i,
  input  logic [P*3-1:0]   in_vc_i,
  input  logic [P*64-1:0]  in_hdr_i,
  input  logic [P*PWE-1:0] in_payload_i,
  input  logic [P-1:0]     cr_in_valid_i,
  input  logic [P*3-1:0]   cr_in_vc_i,
  input  logic [P-1:0]     arn_in_valid_i,
  input  logic [P*32-1:0]  arn_in_data_i,
  input  logic             reg_en_i,
  input  logic             reg_we_i,
  input  logic [19:0]      reg_addr_i,
  input  logic [31:0]      reg_wdata_i,
  // the DUT's outputs
  input  logic [P-1:0]     dut_out_valid_i,
  input  logic [P-1:0]     dut_out_head_i,
  input  logic [P-1:0]     dut_out_tail_i,
  input  logic [P*3-1:0]   dut_out_vc_i,
  input  logic [P*64-1:0]  dut_out_hdr_i,
  input  logic [P*PWE-1:0] dut_out_payload_i,
  input  logic [P-1:0]     dut_cr_out_valid_i,
  input  logic [P*3-1:0]   dut_cr_out_vc_i,
  input  logic [P-1:0]     dut_arn_out_valid_i,
  input  logic [P*32-1:0]  dut_arn_out_data_i,
  input  logic             dut_reg_rvalid_i,
  input  logic [31:0]      dut_reg_rdata_i,
  // results
  output int unsigned      mismatches_o,
  output int unsigned      cycles_o
);
  import asw_dpi_pkg::*;

  chandle model;
  int unsigned mismatches_q, cycles_q;
  assign mismatches_o = mismatches_q;
  assign cycles_o = cycles_q;

  initial begin
    mismatches_q = 0;
    cycles_q = 0;
    model = asw_dpi_new(P, V, BUF, LMAX, PW, DW, TABLE, VOQ, ITERS, AE, SAPIPE,
                        int'({ReadbackEn, CountersEn, RouteAdaptEn, RouteOblivEn, PortRateEn, RouteHashEn,
                             VcAdaptEn, LinkFaultEn, QcnEn, PfcEn, BubbleEn}));
    if (asw_dpi_ok(model) == 0) begin
      $fatal(1, "asw_dpi_checker: the golden model refuses the parameters: %s",
             asw_dpi_error(model));
    end
  end
  final asw_dpi_free(model);

  // One field of one port: report and count a difference.
  function automatic void check(string field, int unsigned port, logic [63:0] exp,
                                logic [63:0] act);
    if (exp !== act) begin
      if (mismatches_q < MaxReports) begin
        $error("asw_dpi_checker: cycle %0d port %0d field %s expected 0x%0h actual 0x%0h",
               cycles_q, port, field, exp, act);
      end
      mismatches_q++;
    end
  endfunction

  always @(posedge clk_i or negedge rst_ni) begin : step
    bit [MaxP-1:0] e_valid, e_head, e_tail, e_cr_valid, e_arn_valid;
    bit [MaxP*3-1:0] e_vc, e_cr_vc;
    bit [MaxP*64-1:0] e_hdr;
    bit [MaxP*MaxPW-1:0] e_payload;
    bit [MaxP*32-1:0] e_arn;
    bit e_rvalid;
    bit [31:0] e_rdata;
    int rc;
    if (!rst_ni) begin
      asw_dpi_reset(model);
      cycles_q = 0;
    end else begin
      rc = asw_dpi_step(model, MaxP'(in_valid_i), MaxP'(in_head_i), MaxP'(in_tail_i),
                        (MaxP*3)'(in_vc_i), (MaxP*64)'(in_hdr_i), (MaxP*MaxPW)'(in_payload_i),
                        MaxP'(cr_in_valid_i), (MaxP*3)'(cr_in_vc_i), MaxP'(arn_in_valid_i),
                        (MaxP*32)'(arn_in_data_i), reg_en_i, reg_we_i, reg_addr_i,
                        reg_wdata_i, e_valid, e_head, e_tail, e_vc, e_hdr, e_payload,
                        e_cr_valid, e_cr_vc, e_arn_valid, e_arn, e_rvalid, e_rdata);
      if (rc != 0) begin
        $error("asw_dpi_checker: cycle %0d: the golden model refuses the inputs: %s",
               cycles_q, asw_dpi_error(model));
        mismatches_q++;
      end else begin
        for (int unsigned p = 0; p < P; p++) begin
          check("out_valid", p, 64'(e_valid[p]), 64'(dut_out_valid_i[p]));
          check("out_head", p, 64'(e_head[p]), 64'(dut_out_head_i[p]));
          check("out_tail", p, 64'(e_tail[p]), 64'(dut_out_tail_i[p]));
          check("out_vc", p, 64'(e_vc[p*3 +: 3]), 64'(dut_out_vc_i[p*3 +: 3]));
          check("out_hdr", p, e_hdr[p*64 +: 64], dut_out_hdr_i[p*64 +: 64]);
          check("out_payload", p, PW == 0 ? 64'h0 : 64'(e_payload[p*PWE +: PWE]),
                PW == 0 ? 64'h0 : 64'(dut_out_payload_i[p*PWE +: PWE]));
          check("cr_out_valid", p, 64'(e_cr_valid[p]), 64'(dut_cr_out_valid_i[p]));
          check("cr_out_vc", p, 64'(e_cr_vc[p*3 +: 3]), 64'(dut_cr_out_vc_i[p*3 +: 3]));
          check("arn_out_valid", p, 64'(e_arn_valid[p]), 64'(dut_arn_out_valid_i[p]));
          check("arn_out_data", p, 64'(e_arn[p*32 +: 32]), 64'(dut_arn_out_data_i[p*32 +: 32]));
        end
        check("reg_rvalid", 0, 64'(e_rvalid), 64'(dut_reg_rvalid_i));
        check("reg_rdata", 0, 64'(e_rdata), 64'(dut_reg_rdata_i));
      end
      cycles_q++;
    end
  end
endmodule
