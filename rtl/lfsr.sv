// lfsr.sv — per-input 16-bit Fibonacci LFSR for oblivious routing (contract §7.7).
// Polynomial x^16+x^14+x^13+x^11+1; the value used is the state after one step.
module lfsr #(
  parameter int unsigned INDEX = 0  // input port number, decorrelates the inputs
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        seed_we_i,  // LFSR_SEED written this cycle (wins over a step)
  input  logic [15:0] seed_i,
  input  logic        step_i,     // an oblivious choice with n >= 1 uses next_o
  output logic [15:0] next_o
);
  localparam logic [31:0] IndexMix = 32'(INDEX) * 32'h9E37;

  function automatic logic [15:0] seeded(input logic [15:0] seed);
    logic [15:0] s;
    s = seed ^ IndexMix[15:0];
    return (s == 16'h0) ? 16'hACE1 : s;
  endfunction

  logic [15:0] state_q, state_d;

  assign next_o = {state_q[14:0], state_q[15] ^ state_q[13] ^ state_q[12] ^ state_q[10]};

  always_comb begin
    state_d = state_q;
    if (seed_we_i) begin
      state_d = seeded(seed_i);
    end else if (step_i) begin
      state_d = next_o;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= seeded(16'h0001);  // reset LFSR_SEED = 1
    end else begin
      state_q <= state_d;
    end
  end
endmodule
