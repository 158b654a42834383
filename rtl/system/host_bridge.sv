// host_bridge.sv — host link of the board system (docs/boards.md "Frame protocol"):
// turns 10-byte request frames received by uart_rx into one register access on the
// switch bus (contract §10) or on the system bus (asw_system), and answers each with a
// 7-byte reply through uart_tx. After reset it first programs FWD[d] = d (valid,
// deterministic port d) for d < P, so that a board routes every generated packet to its
// destination port without a host.
//
// Request: A5 cmd a2 a1 a0 d3 d2 d1 d0 chk; reply: 5A status d3 d2 d1 d0 chk; the bytes
// after the sync byte of a frame sum to 0 mod 256. cmd 'R' (0x52) reads, 'W' (0x57)
// writes; address bit 23 selects the system registers (bits 22..12 must then be 0),
// otherwise bits 19..0 are the switch register address (bits 22..20 must be 0).
// Bytes outside a frame other than A5 are ignored. A frame not complete TIMEOUT bit
// times after its previous byte is answered "truncated".
module host_bridge #(
  parameter int unsigned P = 2,           // switch ports (FWD entries written at reset)
  parameter int unsigned TABLE = 16,      // switch forwarding-table entries
  parameter int unsigned DIV = 104,       // UART clocks per bit
  parameter int unsigned TIMEOUT = 1000   // truncated-frame timeout, bit times
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        rx_i,
  output logic        tx_o,
  output logic        init_done_o,   // the reset-time FWD programming is over
  output logic        activity_o,    // a frame was answered (one-cycle pulse)
  // switch register bus (contract §10)
  output logic        reg_en_o,
  output logic        reg_we_o,
  output logic [19:0] reg_addr_o,
  output logic [31:0] reg_wdata_o,
  input  logic        reg_rvalid_i,
  input  logic [31:0] reg_rdata_i,
  // system register bus: access in cycle c, answer (rvalid with rdata, err) in a later
  // cycle (c + 1 for registers, up to a counter-bank sweep for counters)
  output logic        sys_en_o,
  output logic        sys_we_o,
  output logic [11:0] sys_addr_o,
  output logic [31:0] sys_wdata_o,
  input  logic        sys_rvalid_i,
  input  logic [31:0] sys_rdata_i,
  input  logic        sys_err_i      // with rvalid: the write was illegal (refused)
);
  // Reply status codes (docs/boards.md).
  localparam logic [7:0] StOk = 8'h00;
  localparam logic [7:0] StChecksum = 8'h01;
  localparam logic [7:0] StCommand = 8'h02;
  localparam logic [7:0] StTruncated = 8'h03;
  localparam logic [7:0] StAddress = 8'h04;
  localparam logic [7:0] StIllegal = 8'h05;
  localparam logic [7:0] StFraming = 8'h06;
  localparam logic [7:0] SyncReq = 8'hA5;
  localparam logic [7:0] SyncRep = 8'h5A;
  localparam logic [7:0] CmdRead = 8'h52;
  localparam logic [7:0] CmdWrite = 8'h57;
  localparam int unsigned NINIT = (P < TABLE) ? P : TABLE;
  localparam int unsigned TOW = $clog2(TIMEOUT * DIV + 1);
  localparam int unsigned IIW = $clog2(NINIT + 1);

  logic       rx_valid, rx_ferr;
  logic [7:0] rx_data;
  logic       tx_valid, tx_ready;
  logic [7:0] tx_data;

  uart_rx #(.DIV(DIV)) u_rx (
    .clk_i, .rst_ni, .rx_i, .valid_o(rx_valid), .data_o(rx_data), .frame_err_o(rx_ferr)
  );
  uart_tx #(.DIV(DIV)) u_tx (
    .clk_i, .rst_ni, .valid_i(tx_valid), .data_i(tx_data), .ready_o(tx_ready), .tx_o
  );

  typedef enum logic [2:0] {SInit, SIdle, SAccess, SWait, SReply} state_e;
  state_e state_q, state_d;
  logic [IIW-1:0] init_q, init_d;
  logic [3:0]  nbytes_q, nbytes_d;   // bytes of the current frame received (0: hunting)
  logic [71:0] frame_q, frame_d;     // cmd a2 a1 a0 d3 d2 d1 d0 chk, first byte highest
  logic [7:0]  sum_q, sum_d;
  logic [TOW-1:0] tmo_q, tmo_d;
  logic [7:0]  status_q, status_d;
  logic [31:0] rdata_q, rdata_d;
  logic [2:0]  txi_q, txi_d;         // reply byte being sent, 0..6
  logic        done_q, done_d;       // the received frame waits for execution
  logic        act_d;

  logic [7:0]  f_cmd;
  logic [23:0] f_addr;
  logic [31:0] f_data;
  logic        f_sys;
  assign f_cmd = frame_q[71:64];
  assign f_addr = frame_q[63:40];
  assign f_data = frame_q[39:8];
  assign f_sys = f_addr[23];

  logic [47:0] reply;
  logic [7:0]  reply_sum;
  assign reply_sum = status_q + rdata_q[31:24] + rdata_q[23:16] + rdata_q[15:8] + rdata_q[7:0];
  assign reply = {status_q, rdata_q, 8'(-reply_sum)};

  always_comb begin
    state_d = state_q;
    init_d = init_q;
    nbytes_d = nbytes_q;
    frame_d = frame_q;
    sum_d = sum_q;
    tmo_d = tmo_q;
    status_d = status_q;
    rdata_d = rdata_q;
    txi_d = txi_q;
    done_d = done_q;
    act_d = 1'b0;
    reg_en_o = 1'b0;
    reg_we_o = 1'b0;
    reg_addr_o = f_addr[19:0];
    reg_wdata_o = f_data;
    sys_en_o = 1'b0;
    sys_we_o = 1'b0;
    sys_addr_o = f_addr[11:0];
    sys_wdata_o = f_data;
    tx_valid = 1'b0;
    tx_data = SyncRep;

    // Receiver: collects frames whenever no frame waits for execution.
    if (rx_valid && !done_q) begin
      tmo_d = '0;
      if (nbytes_q == 4'd0) begin
        if (rx_data == SyncReq && !rx_ferr) begin
          nbytes_d = 4'd1;
          sum_d = '0;
        end
      end else if (rx_ferr) begin
        nbytes_d = 4'd0;
        status_d = StFraming;
        rdata_d = '0;
        done_d = 1'b1;
      end else begin
        frame_d = {frame_q[63:0], rx_data};
        sum_d = sum_q + rx_data;
        nbytes_d = nbytes_q + 1'b1;
        if (nbytes_q == 4'd9) begin
          nbytes_d = 4'd0;
          done_d = 1'b1;
          rdata_d = '0;
          status_d = StOk;
          if (sum_q + rx_data != 8'd0) begin
            status_d = StChecksum;
          end else if (frame_q[63:56] != CmdRead && frame_q[63:56] != CmdWrite) begin
            status_d = StCommand;
          end else if (frame_q[55] ? (frame_q[54:44] != '0) : (frame_q[54:52] != '0)) begin
            status_d = StAddress;
          end
        end
      end
    end else if (nbytes_q != 4'd0 && !done_q) begin
      tmo_d = tmo_q + 1'b1;
      if (tmo_q == TOW'(TIMEOUT * DIV)) begin
        nbytes_d = 4'd0;
        status_d = StTruncated;
        rdata_d = '0;
        done_d = 1'b1;
      end
    end

    unique case (state_q)
      SInit: begin
        // FWD[d] = {valid, det_port = d} for d < min(P, TABLE)
        reg_en_o = 1'b1;
        reg_we_o = 1'b1;
        reg_addr_o = 20'h80000 | 20'(init_q);
        reg_wdata_o = 32'h8000_0000 | 32'(init_q);
        init_d = init_q + 1'b1;
        if (init_q == IIW'(NINIT - 1)) begin
          state_d = SIdle;
        end
      end
      SIdle: begin
        if (done_q) begin
          state_d = (status_q == StOk) ? SAccess : SReply;
          txi_d = '0;
        end
      end
      SAccess: begin
        if (f_sys) begin
          sys_en_o = 1'b1;
          sys_we_o = (f_cmd == CmdWrite);
        end else begin
          reg_en_o = 1'b1;
          reg_we_o = (f_cmd == CmdWrite);
        end
        state_d = SWait;
      end
      SWait: begin
        if (f_sys ? sys_rvalid_i : (f_cmd != CmdRead || reg_rvalid_i)) begin
          if (f_cmd == CmdRead) begin
            rdata_d = f_sys ? sys_rdata_i : reg_rdata_i;
          end else if (f_sys && sys_err_i) begin
            status_d = StIllegal;
          end
          state_d = SReply;
        end
      end
      SReply: begin
        tx_valid = 1'b1;
        unique case (txi_q)
          3'd0: tx_data = SyncRep;
          3'd1: tx_data = reply[47:40];
          3'd2: tx_data = reply[39:32];
          3'd3: tx_data = reply[31:24];
          3'd4: tx_data = reply[23:16];
          3'd5: tx_data = reply[15:8];
          default: tx_data = reply[7:0];
        endcase
        if (tx_ready) begin
          txi_d = txi_q + 1'b1;
          if (txi_q == 3'd6) begin
            state_d = SIdle;
            done_d = 1'b0;
            act_d = 1'b1;
          end
        end
      end
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SInit;
      init_q <= '0;
      nbytes_q <= '0;
      frame_q <= '0;
      sum_q <= '0;
      tmo_q <= '0;
      status_q <= '0;
      rdata_q <= '0;
      txi_q <= '0;
      done_q <= 1'b0;
      activity_o <= 1'b0;
    end else begin
      state_q <= state_d;
      init_q <= init_d;
      nbytes_q <= nbytes_d;
      frame_q <= frame_d;
      sum_q <= sum_d;
      tmo_q <= tmo_d;
      status_q <= status_d;
      rdata_q <= rdata_d;
      txi_q <= txi_d;
      done_q <= done_d;
      activity_o <= act_d;
    end
  end
  assign init_done_o = (state_q != SInit);

  logic unused;
  assign unused = ^f_addr[22:20];
endmodule
