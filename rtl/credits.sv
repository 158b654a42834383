// credits.sv — output credit counters CRED[o][v] and 2TH congestion flags (contract §7.3, §9).
module credits #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter bit CONG = 1'b1,  // the §7.3 2TH flags exist (RouteAdaptEn; 0: cong_next_o 0)
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // matches of this cycle, per output: reserve len credits of VC ovc
  input  logic [P-1:0]      match_valid_i,
  input  logic [P*VW-1:0]   match_ovc_i,
  input  logic [P*8-1:0]    match_len_i,
  // credits returned by downstream, per output
  input  logic [P-1:0]      cr_in_valid_i,
  input  logic [P*3-1:0]    cr_in_vc_i,
  // §18.2: a discarded flit of a dead packet returns its own credit, per output
  input  logic [P-1:0]      self_cr_valid_i,
  input  logic [P*3-1:0]    self_cr_vc_i,
  input  logic [15:0]       ltth_i,
  input  logic [15:0]       htth_i,
  // §17.1: PFC outputs (a frame flips CRED between BUF and 0, a match reserves nothing)
  // and the outputs whose mode changes at the end of this cycle (CRED <- BUF)
  input  logic [P-1:0]      pfc_en_i,
  input  logic [P-1:0]      pfc_chg_i,
  output logic [P*V*CW-1:0] cred_o,       // CRED at the start of the cycle, index o*V+v
  output logic [P*V-1:0]    cong_next_o   // cong' of this cycle (used by RC, 2TH)
);
  logic [CW-1:0] cred_q[P*V];
  logic [CW-1:0] cred_d[P*V];
  logic [P*V-1:0] cong_q;

  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned v = 0; v < V; v++) begin
        // The return (known early in the cycle) is added first, so the reservation (known
        // only after allocation) goes through one adder.
        cred_d[o*V+v] = cred_q[o*V+v];
        if (cr_in_valid_i[o] && (32'(cr_in_vc_i[o*3 +: 3]) == v)) begin
          cred_d[o*V+v] = cred_d[o*V+v] + CW'(1);
        end
        if (self_cr_valid_i[o] && (32'(self_cr_vc_i[o*3 +: 3]) == v)) begin
          cred_d[o*V+v] = CW'(1) + cred_d[o*V+v];  // §18.2 self credit
        end
        if (match_valid_i[o] && (32'(match_ovc_i[o*VW +: VW]) == v)) begin
          cred_d[o*V+v] = cred_d[o*V+v] - CW'(match_len_i[o*8 +: 8]);
        end
        if (pfc_en_i[o]) begin  // §17.1 pause view
          cred_d[o*V+v] = cred_q[o*V+v];
          if (cr_in_valid_i[o] && (32'(cr_in_vc_i[o*3 +: 3]) == v)) begin
            cred_d[o*V+v] = (32'(cred_q[o*V+v]) == BUF) ? '0 : CW'(BUF);
          end
        end
        if (pfc_chg_i[o]) begin
          cred_d[o*V+v] = CW'(BUF);
        end
      end
    end
  end
  // The views of the registers, apart from the next values (which depend on this cycle's
  // matches, which depend on these views through SA: a block of its own keeps Verilator
  // from seeing a combinational loop).
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned v = 0; v < V; v++) begin
        cred_o[(o*V+v)*CW +: CW] = cred_q[o*V+v];
        cong_next_o[o*V+v] = CONG && ((16'(cred_q[o*V+v]) < ltth_i) ||
                                      (cong_q[o*V+v] && (16'(cred_q[o*V+v]) < htth_i)));
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned o = 0; o < P; o++) begin  // nested: Verilator unrolls <= 64 per loop
        for (int unsigned v = 0; v < V; v++) begin
          cred_q[o*V+v] <= CW'(BUF);
        end
      end
    end else begin
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned v = 0; v < V; v++) begin
          cred_q[o*V+v] <= cred_d[o*V+v];
        end
      end
    end
  end
  // The 2TH flags: only with CONG (the adaptive hardware)
  if (CONG) begin : gen_cong
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cong_q <= '0;
      end else begin
        cong_q <= cong_next_o;
      end
    end
  end else begin : gen_no_cong
    assign cong_q = '0;
    logic unused_thr;
    assign unused_thr = ^{ltth_i, htth_i};
  end

`ifndef SYNTHESIS
  // Assertions are checked from the first cycle after reset (chk_en_q keeps
  // rst_ni purely asynchronous).
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  // Credit counters stay within 0..BUF: a match never reserves more than is
  // free, and downstream never returns more than it was sent (contract §9).
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned v = 0; v < V; v++) begin
          assert (32'(cred_q[o*V+v]) <= BUF)
            else $error("credits: CRED[%0d][%0d]=%0d exceeds BUF", o, v, cred_q[o*V+v]);
          // (a PFC output's CRED is the pause view, and SA reads it a cycle late, §17.1)
          if (match_valid_i[o] && (32'(match_ovc_i[o*VW +: VW]) == v) && !pfc_en_i[o]) begin
            assert (32'(match_len_i[o*8 +: 8]) <= 32'(cred_q[o*V+v]))
              else $error("credits: match on output %0d VC %0d without enough credits", o, v);
          end
          if (cr_in_valid_i[o] && (32'(cr_in_vc_i[o*3 +: 3]) == v) && !pfc_en_i[o] &&
              !(self_cr_valid_i[o] && (32'(self_cr_vc_i[o*3 +: 3]) == v)) &&
              !(match_valid_i[o] && (32'(match_ovc_i[o*VW +: VW]) == v))) begin
            assert (32'(cred_q[o*V+v]) < BUF)
              else $error("credits: protocol error, credit on output %0d VC %0d beyond BUF", o, v);
          end
        end
        if (cr_in_valid_i[o]) begin
          assert (32'(cr_in_vc_i[o*3 +: 3]) < V)
            else $error("credits: protocol error, credit for VC %0d >= V on output %0d",
                        cr_in_vc_i[o*3 +: 3], o);
        end
      end
    end
  end

  cov_credits_zero: cover property (@(posedge clk_i) chk_en_q && (cred_q[0] == '0));
  cov_credits_full_return: cover property (@(posedge clk_i)
    chk_en_q && cr_in_valid_i[0] && match_valid_i[0]);
  cov_cong_held: cover property (@(posedge clk_i)
    chk_en_q && cong_q[0] && (16'(cred_q[0]) >= ltth_i) && (16'(cred_q[0]) < htth_i));
`endif
endmodule
