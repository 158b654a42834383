// route_hash.sv — the ROUTE_HASH register (contract §17.6, seed 004's Hashed and S-mod-k
// routing), the twin of cmodel/route_hash.c: kind [1:0], SHIFT [7:4], BITS [11:8], reset 0
// (§7.3 unchanged), written through the register bus with the §17.6 legality rules. The
// 16-bit value it selects for an oblivious route is computed by each input's
// route_compute.sv from the header (the flow hash's product is taken in the IW cycle).
// Present only with the RouteHashEn parameter (contract §1).
module route_hash (
  input  logic        clk_i,
  input  logic        rst_ni,
  // register bus (the same signals regs.sv sees)
  input  logic        reg_en_i,
  input  logic        reg_we_i,
  input  logic [19:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic        own_o,        // the address is ROUTE_HASH
  output logic        wr_ok_o,      // ... and a write of reg_wdata_i is legal
  output logic [31:0] rd_o,         // its read value (start of the cycle)
  // the register (start of the cycle): [1:0] kind, [7:4] SHIFT, [11:8] BITS
  output logic [11:0] route_hash_o
);
  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegRouteHash;

  logic [11:0] q;
  logic [1:0]  kind;
  logic [3:0]  shift, bits;
  assign kind = reg_wdata_i[1:0];
  assign shift = reg_wdata_i[7:4];
  assign bits = reg_wdata_i[11:8];
  assign own_o = (reg_addr_i == RegRouteHash);

  // §17.6 illegal writes: bits 31:12 or 3:2 set, kind 3, kind 2 with BITS outside 1..8,
  // kind 1 with BITS != 0 or SHIFT > 8, kind 0 with SHIFT or BITS != 0.
  always_comb begin
    wr_ok_o = 1'b0;
    if ((reg_wdata_i & 32'hFFFF_F00C) == 32'h0) begin
      unique case (kind)
        2'd0:    wr_ok_o = (shift == 4'd0) && (bits == 4'd0);
        2'd1:    wr_ok_o = (bits == 4'd0) && (shift <= 4'd8);
        2'd2:    wr_ok_o = (bits >= 4'd1) && (bits <= 4'd8);
        default: wr_ok_o = 1'b0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q <= '0;
    end else if (reg_en_i && reg_we_i && own_o && wr_ok_o) begin
      q <= reg_wdata_i[11:0];
    end
  end

  assign rd_o = {20'h0, q};
  assign route_hash_o = q;
endmodule
