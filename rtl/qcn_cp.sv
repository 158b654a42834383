// qcn_cp.sv — QCN congestion point per output (contract §17.4, 802.1Qau / QCN 2.2), the
// twin of cmodel/qcn_cp.c: the per-output queue count qlen (flits routed to the output and
// not yet sent on it), randomized sampling with a per-output LFSR, the feedback
// Fb = (QEQ - qlen) - ((qlen - qold) << WL) quantized to 6 bits, the next sampling
// interval, the CNM register of each output (valid in the cycle after the sample) and
// the registers QCN_CTRL / QCN_QEQ / QCN_SAMPLE / QCN_SEED, the counters and QCN_QLEN.
// No division: the multiplications are by the constant 58 and by 6-/5-bit fields.
module qcn_cp #(
  parameter int unsigned P = 8,     // ports, 2..64
  parameter int unsigned V = 2,     // VCs per port (bounds qlen: at most P*V*BUF flits)
  parameter int unsigned BUF = 32,  // flits per input VC
  parameter bit CNT = 1'b1,         // the QCN counters exist (CountersEn, §1; 0: they read 0)
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  // qlen counts at most the flits the input buffers hold or are due (P*V*BUF)
  localparam int unsigned QW = asw_pkg::cnt_w(P * V * BUF)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // register bus (the same signals regs.sv sees)
  input  logic            reg_en_i,
  input  logic            reg_we_i,
  input  logic [19:0]     reg_addr_i,
  input  logic [31:0]     reg_wdata_i,
  output logic            own_o,     // the address is a §17.4 register
  output logic            wr_ok_o,   // ... and a write of reg_wdata_i is legal
  output logic [31:0]     rd_o,      // its read value (start of the cycle)
  // §16.3: ROUTE_CTRL mode 3 and QCN_CTRL.en = 1 exclude each other (§11)
  input  logic            vca_mode_i,  // ROUTE_CTRL.mode = 3 (en = 1 is then illegal)
  output logic            en_o,        // QCN_CTRL.en (mode 3 is then illegal)
  // RQ of this cycle: the packet input i appends (§5), its output, length and flow
  input  logic [P-1:0]    rq_valid_i,
  input  logic [P*PIW-1:0] rq_oport_i,
  input  logic [P*8-1:0]  rq_len_i,
  input  logic [P*16-1:0] rq_src_i,
  input  logic [P*16-1:0] rq_dest_i,
  // ST of this cycle: a flit leaves on output o
  input  logic [P-1:0]    sent_i,
  // CNM registers (one per output; data 0 while not valid)
  output logic [P-1:0]    cnm_valid_o,
  output logic [P*64-1:0] cnm_data_o
);
  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegQcnCtrl;
  import asw_pkg::RegQcnQeq;
  import asw_pkg::RegQcnSample;
  import asw_pkg::RegQcnSeed;
  import asw_pkg::RegQcnCounterBase;
  import asw_pkg::RegQcnQlenBase;
  localparam int unsigned CW = 17;            // cnt: at most 65535 + (65535 * 31 >> 7)
  localparam int unsigned FW = ((QW > 16) ? QW : 16) + 6;  // signed Fb
  localparam logic [15:0] QeqReset = 16'd320;
  localparam logic [15:0] SampleReset = 16'd2400;

  function automatic logic [15:0] seeded(input logic [15:0] seed, input int unsigned o);
    logic [15:0] mix;
    logic [15:0] s;
    mix = 16'(32'(o) * 32'h9E37);  // o * 16'h9E37 mod 2^16, as §7.7
    s = seed ^ mix;
    return (s == 16'h0) ? 16'hACE1 : s;
  endfunction

  logic          en_q;
  logic [1:0]    wl_q;
  logic [3:0]    fbsh_q;
  logic [15:0]   cpid_q, qeq_q, sample_q, seed_q;
  logic [QW-1:0] qlen_q[P], qold_q[P];
  logic [CW-1:0] cnt_q[P];
  logic [15:0]   rs_q[P];
  logic [31:0]   sent_cnt_q[P], samp_cnt_q[P];

  // ---- registers -------------------------------------------------------------------
  logic [19:0] a, a_cnt_off, a_qlen_off;
  logic [31:0] wd;
  logic        is_ctrl, is_qeq, is_sample, is_seed, is_cnt, is_qlen;
  logic [PIW-1:0] cnt_p, qlen_p;
  assign a = reg_addr_i;
  assign wd = reg_wdata_i;
  assign a_cnt_off = a - RegQcnCounterBase;
  assign a_qlen_off = a - RegQcnQlenBase;
  assign is_ctrl = (a == RegQcnCtrl);
  assign is_qeq = (a == RegQcnQeq);
  assign is_sample = (a == RegQcnSample);
  assign is_seed = (a == RegQcnSeed);
  assign is_cnt = (a >= RegQcnCounterBase) && (32'(a) < 32'(RegQcnCounterBase) + 2*P);
  assign is_qlen = (a >= RegQcnQlenBase) && (32'(a) < 32'(RegQcnQlenBase) + P);
  assign cnt_p = a_cnt_off[PIW:1];
  assign qlen_p = a_qlen_off[PIW-1:0];
  assign own_o = is_ctrl || is_qeq || is_sample || is_seed || is_cnt || is_qlen;

  always_comb begin
    wr_ok_o = 1'b0;  // the counters and QCN_QLEN are read-only
    if (is_ctrl) begin
      wr_ok_o = ((wd & 32'h0000FF08) == 32'h0) && !(wd[0] && vca_mode_i);
    end else if (is_qeq || is_seed) begin
      wr_ok_o = wd[31:16] == 16'h0;
    end else if (is_sample) begin
      wr_ok_o = (wd[31:16] == 16'h0) && (wd[15:0] >= 16'd64);
    end
  end

  always_comb begin
    rd_o = 32'h0;
    if (is_ctrl) begin
      rd_o = {cpid_q, 8'h0, fbsh_q, 1'b0, wl_q, en_q};
    end else if (is_qeq) begin
      rd_o = {16'h0, qeq_q};
    end else if (is_sample) begin
      rd_o = {16'h0, sample_q};
    end else if (is_seed) begin
      rd_o = {16'h0, seed_q};
    end else if (is_cnt) begin
      rd_o = a[0] ? samp_cnt_q[cnt_p] : sent_cnt_q[cnt_p];
    end else if (is_qlen) begin
      rd_o = 32'(qlen_q[qlen_p]);
    end
  end

  assign en_o = en_q;

  logic wr, cnt_clear, wr_ctrl, enable, disable_w, wr_seed;
  assign wr = reg_en_i && reg_we_i && wr_ok_o;
  assign cnt_clear = reg_en_i && reg_we_i && (a == asw_pkg::RegCntClear);
  assign wr_ctrl = wr && is_ctrl;
  assign enable = wr_ctrl && wd[0] && !en_q;   // 0 -> 1: queues start empty
  assign disable_w = wr_ctrl && !wd[0];        // drops this cycle's CNMs
  assign wr_seed = wr && is_seed;

  // ---- sampling (state at the start of the cycle) --------------------------------------
  // Per output o: the packets RQ appends for o in increasing input order; the first one
  // whose running length reaches cnt[o] is sampled, later ones only add to qlen.
  logic [P-1:0]    hit[P];      // hit[o][i]: input i appends a packet for o
  logic [P-1:0]    smp;         // output o sampled this cycle
  logic [PIW-1:0]  smp_in[P];   // ... the packet of that input
  logic [CW-1:0]   total[P];    // flits appended for o this cycle (< 2^CW: P*255)
  logic [5:0]      q[P];
  logic [15:0]     rnext[P];
  logic [CW-1:0]   interval[P];
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic [CW:0] run;  // running sum, one bit wider than cnt
      run = '0;
      smp[o] = 1'b0;
      smp_in[o] = '0;
      for (int unsigned i = 0; i < P; i++) begin
        hit[o][i] = en_q && rq_valid_i[i] && (32'(rq_oport_i[i*PIW +: PIW]) == o);
        if (hit[o][i]) begin
          run = run + (CW+1)'(rq_len_i[i*8 +: 8]);
          if (!smp[o] && ((CW+1)'(cnt_q[o]) <= run)) begin
            smp[o] = 1'b1;
            smp_in[o] = PIW'(i);
          end
        end
      end
      total[o] = run[CW-1:0];
    end
  end

  // Quantized feedback (§17.4): Fb = (QEQ - qlen) - ((qlen - qold) << WL); 0 if Fb >= 0,
  // else min(63, (-Fb) >> FBSH).
  function automatic logic [5:0] quant_fb(input logic [QW-1:0] qlen, input logic [QW-1:0] qold,
                                          input logic [15:0] qeq, input logic [1:0] wl,
                                          input logic [3:0] fbsh);
    logic signed [FW-1:0] fb;
    logic [FW-1:0]        mag;
    fb = (FW'(qeq) - FW'(qlen)) - ((FW'(qlen) - FW'(qold)) <<< wl);
    mag = FW'(-fb) >> fbsh;
    if (!fb[FW-1]) begin
      return 6'd0;   // Fb >= 0: no congestion
    end else if (mag > FW'(63)) begin
      return 6'd63;  // saturated
    end
    return mag[5:0];
  endfunction

  // q of every output is a register: the quantized feedback of the state at the start of
  // the cycle, computed in the previous cycle from the next-state values (qlen, qold and
  // the registers as written), so that a sample only adds the interval arithmetic.
  logic [5:0] q_q[P], q_d[P];

  // The next interval of every output (used if sampled): I = S - ((S * q * 58) >> 12),
  // randomized to I - (I >> 3) + ((I * r[4:0]) >> 7), r the LFSR after its step.
  for (genvar o = 0; o < P; o++) begin : gen_fb
    logic [11:0] q58;    // q * 58 < 2^12
    logic [27:0] sq;     // S * q * 58 < 2^28
    logic [15:0] ibase;  // I
    logic [20:0] ir;     // I * r[4:0] < 2^21
    logic        unused_low;  // fraction bits the shifts drop
    assign unused_low = ^{sq[11:0], ir[6:0]};
    always_comb begin
      q[o] = q_q[o];
      rnext[o] = {rs_q[o][14:0], rs_q[o][15] ^ rs_q[o][13] ^ rs_q[o][12] ^ rs_q[o][10]};
      q58 = 12'(q[o]) * 12'd58;
      sq = 28'(sample_q) * 28'(q58);
      ibase = sample_q - sq[27:12];
      ir = 21'(ibase) * 21'(rnext[o][4:0]);
      interval[o] = CW'(ibase) - CW'(ibase[15:3]) + CW'(ir[20:7]);
    end
  end

  // ---- next state ---------------------------------------------------------------------
  logic [QW-1:0] qlen_d[P], qold_d[P];
  logic [CW-1:0] cnt_d[P];
  logic [15:0]   rs_d[P];
  logic [P-1:0]  cnm_valid_d;
  logic [63:0]   cnm_data_d[P];
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic [QW-1:0] dec;
      logic [15:0]   src, dest;
      qlen_d[o] = qlen_q[o];
      qold_d[o] = qold_q[o];
      cnt_d[o] = cnt_q[o];
      rs_d[o] = rs_q[o];
      cnm_valid_d[o] = 1'b0;
      cnm_data_d[o] = '0;
      src = '0;
      dest = '0;
      dec = '0;
      for (int unsigned i = 0; i < P; i++) begin
        if (32'(smp_in[o]) == i) begin
          src = rq_src_i[i*16 +: 16];
          dest = rq_dest_i[i*16 +: 16];
        end
      end
      if (en_q) begin
        // departures first, not below 0, then the arrivals of the cycle
        dec = (sent_i[o] && (qlen_q[o] != '0)) ? QW'(1) : QW'(0);
        qlen_d[o] = qlen_q[o] - dec + QW'(total[o]);
        if (smp[o]) begin
          qold_d[o] = qlen_q[o];
          rs_d[o] = rnext[o];
          cnt_d[o] = interval[o];
          cnm_valid_d[o] = q[o] != 6'd0;
        end else begin
          cnt_d[o] = cnt_q[o] - total[o];
        end
      end
      if (cnm_valid_d[o]) begin
        cnm_data_d[o] = {cpid_q, 2'b0, 6'(o), 2'b0, q[o], dest, src};
      end
      // register writes take effect after the cycle's events
      if (enable) begin
        qlen_d[o] = '0;
        qold_d[o] = '0;
        cnt_d[o] = CW'(sample_q);
      end
      if (disable_w) begin
        cnm_valid_d[o] = 1'b0;
        cnm_data_d[o] = '0;
      end
      if (wr_seed) begin
        rs_d[o] = seeded(wd[15:0], o);
      end
    end
  end

  // q of the next cycle, from the next state and the registers as written this cycle
  logic [15:0] qeq_d;
  logic [1:0]  wl_d;
  logic [3:0]  fbsh_d;
  assign qeq_d = (wr && is_qeq) ? wd[15:0] : qeq_q;
  assign wl_d = wr_ctrl ? wd[2:1] : wl_q;
  assign fbsh_d = wr_ctrl ? wd[7:4] : fbsh_q;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      q_d[o] = quant_fb(qlen_d[o], qold_d[o], qeq_d, wl_d, fbsh_d);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= 1'b0;
      wl_q <= 2'd1;
      fbsh_q <= 4'd5;
      cpid_q <= '0;
      qeq_q <= QeqReset;
      sample_q <= SampleReset;
      seed_q <= 16'd1;
      for (int unsigned o = 0; o < P; o++) begin
        qlen_q[o] <= '0;
        qold_q[o] <= '0;
        cnt_q[o] <= CW'(SampleReset);
        rs_q[o] <= seeded(16'd1, o);
        q_q[o] <= quant_fb('0, '0, QeqReset, 2'd1, 4'd5);
        cnm_valid_o[o] <= 1'b0;
        cnm_data_o[o*64 +: 64] <= '0;
      end
    end else begin
      if (wr_ctrl) begin
        en_q <= wd[0];
        wl_q <= wd[2:1];
        fbsh_q <= wd[7:4];
        cpid_q <= wd[31:16];
      end
      if (wr && is_qeq) begin
        qeq_q <= wd[15:0];
      end
      if (wr && is_sample) begin
        sample_q <= wd[15:0];
      end
      if (wr_seed) begin
        seed_q <= wd[15:0];
      end
      for (int unsigned o = 0; o < P; o++) begin
        qlen_q[o] <= qlen_d[o];
        qold_q[o] <= qold_d[o];
        cnt_q[o] <= cnt_d[o];
        rs_q[o] <= rs_d[o];
        q_q[o] <= q_d[o];
        cnm_valid_o[o] <= cnm_valid_d[o];
        cnm_data_o[o*64 +: 64] <= cnm_data_d[o];
      end
    end
  end

  // §17.4 counters: only with CNT
  if (CNT) begin : gen_counters
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned o = 0; o < P; o++) begin
          sent_cnt_q[o] <= '0;
          samp_cnt_q[o] <= '0;
        end
      end else begin
        for (int unsigned o = 0; o < P; o++) begin
          if (cnt_clear) begin
            sent_cnt_q[o] <= '0;
            samp_cnt_q[o] <= '0;
          end else begin
            sent_cnt_q[o] <= sent_cnt_q[o] + 32'(en_q && smp[o] && (q[o] != 6'd0));
            samp_cnt_q[o] <= samp_cnt_q[o] + 32'(en_q && smp[o]);
          end
        end
      end
    end
  end else begin : gen_no_counters  // read 0
    always_comb begin
      for (int unsigned o = 0; o < P; o++) begin
        sent_cnt_q[o] = '0;
        samp_cnt_q[o] = '0;
      end
    end
    logic unused_cnt;
    assign unused_cnt = cnt_clear;
  end

`ifndef SYNTHESIS
  // §17.4 branches: sampling, Fb quantization (0, in range, saturated), CNM generation.
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  logic [P-1:0] smp_q0, smp_qmid, smp_qsat, two_hits;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      smp_q0[o] = smp[o] && (q[o] == 6'd0);
      smp_qmid[o] = smp[o] && (q[o] != 6'd0) && (q[o] != 6'd63);
      smp_qsat[o] = smp[o] && (q[o] == 6'd63);
      two_hits[o] = $countones(hit[o]) >= 2;
    end
  end
  cov_qcn_sample: cover property (@(posedge clk_i) chk_en_q && (smp != '0));
  cov_qcn_sample_q0: cover property (@(posedge clk_i) chk_en_q && (smp_q0 != '0));
  cov_qcn_sample_qmid: cover property (@(posedge clk_i) chk_en_q && (smp_qmid != '0));
  cov_qcn_sample_qsat: cover property (@(posedge clk_i) chk_en_q && (smp_qsat != '0));
  cov_qcn_two_arrivals: cover property (@(posedge clk_i) chk_en_q && ((two_hits & smp) != '0));
  cov_qcn_two_cnms: cover property (@(posedge clk_i) chk_en_q && ($countones(cnm_valid_o) >= 2));
  cov_qcn_disable_drop: cover property (@(posedge clk_i) chk_en_q && disable_w && (smp != '0));
  cov_qcn_enable: cover property (@(posedge clk_i) chk_en_q && enable);
  // The q register is the feedback of the state at the start of the cycle.
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned o = 0; o < P; o++) begin
        assert (q_q[o] == quant_fb(qlen_q[o], qold_q[o], qeq_q, wl_q, fbsh_q))
          else $error("qcn_cp: q register of output %0d is %0d, the state gives %0d", o, q_q[o],
                      quant_fb(qlen_q[o], qold_q[o], qeq_q, wl_q, fbsh_q));
      end
    end
  end
`endif

  logic unused_bits;
  assign unused_bits = ^{a_cnt_off, a_qlen_off};
endmodule
