// asw_axil_regs.sv — AXI4-Lite slave to the switch's register bus (contract §10).
// Byte addresses: register word address a is at byte address 4a (22-bit AWADDR /
// ARADDR; bits [1:0] ignored). One transaction at a time, a write first when both
// a write and a read are presented. Writes take AW and W together; a write with
// WSTRB not 4'b1111 is not performed and answers SLVERR (the registers are whole
// words). Every other access answers OKAY: an illegal value or an RO/unmapped
// address is the switch's business (counted in REG_ERRORS, §11), unmapped reads
// return 0. Read data is the register's value at the start of the read cycle.
module asw_axil_regs (
  input  logic        clk_i,
  input  logic        rst_ni,
  // AXI4-Lite slave
  input  logic        awvalid_i,
  output logic        awready_o,
  input  logic [21:0] awaddr_i,
  input  logic        wvalid_i,
  output logic        wready_o,
  input  logic [31:0] wdata_i,
  input  logic [3:0]  wstrb_i,
  output logic        bvalid_o,
  input  logic        bready_i,
  output logic [1:0]  bresp_o,
  input  logic        arvalid_i,
  output logic        arready_o,
  input  logic [21:0] araddr_i,
  output logic        rvalid_o,
  input  logic        rready_i,
  output logic [31:0] rdata_o,
  output logic [1:0]  rresp_o,
  // switch register bus
  output logic        reg_en_o,
  output logic        reg_we_o,
  output logic [19:0] reg_addr_o,
  output logic [31:0] reg_wdata_o,
  input  logic        reg_rvalid_i,
  input  logic [31:0] reg_rdata_i
);
  localparam logic [1:0] RespOkay = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;

  typedef enum logic [1:0] {Idle, ReadWait, WriteResp, ReadResp} state_e;
  state_e state_q, state_d;
  logic   do_write, do_read;
  logic [1:0]  bresp_q, bresp_d;
  logic [31:0] rdata_q, rdata_d;

  assign do_write = (state_q == Idle) && awvalid_i && wvalid_i;
  assign do_read = (state_q == Idle) && !(awvalid_i && wvalid_i) && arvalid_i;
  assign awready_o = do_write;
  assign wready_o = do_write;
  assign arready_o = do_read;
  assign bvalid_o = (state_q == WriteResp);
  assign bresp_o = bresp_q;
  assign rvalid_o = (state_q == ReadResp);
  assign rdata_o = rdata_q;
  assign rresp_o = RespOkay;

  // The bus access: combinational, in the cycle the address is accepted.
  assign reg_en_o = do_read || (do_write && wstrb_i == 4'hF);
  assign reg_we_o = do_write;
  assign reg_addr_o = do_write ? awaddr_i[21:2] : araddr_i[21:2];
  assign reg_wdata_o = do_write ? wdata_i : 32'h0;
  logic [1:0] unused_byte_addr;  // word registers: byte-address bits [1:0] are ignored
  assign unused_byte_addr = awaddr_i[1:0] ^ araddr_i[1:0];

  always_comb begin
    state_d = state_q;
    bresp_d = bresp_q;
    rdata_d = rdata_q;
    unique case (state_q)
      Idle: begin
        if (do_write) begin
          state_d = WriteResp;
          bresp_d = (wstrb_i == 4'hF) ? RespOkay : RespSlvErr;
        end else if (do_read) begin
          state_d = ReadWait;
        end
      end
      ReadWait: begin
        // reg_rvalid is always set the cycle after a read (§10)
        if (reg_rvalid_i) begin
          state_d = ReadResp;
          rdata_d = reg_rdata_i;
        end
      end
      WriteResp: begin
        if (bready_i) begin
          state_d = Idle;
        end
      end
      ReadResp: begin
        if (rready_i) begin
          state_d = Idle;
        end
      end
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      bresp_q <= RespOkay;
      rdata_q <= '0;
    end else begin
      state_q <= state_d;
      bresp_q <= bresp_d;
      rdata_q <= rdata_d;
    end
  end
endmodule
