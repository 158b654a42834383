// fv_mod.svh — modular pointer arithmetic shared by the allocator proofs (fv_islip.sv,
// fv_islip_pipe.sv), included inside a module that has P, V, PIW and VW: narrow 8-bit
// arithmetic, cheap for the solver.
function automatic int unsigned inc(input int unsigned x, input int unsigned n);
  return (x + 1 >= n) ? 0 : x + 1;
endfunction
// p + d modulo P (p < P, d < P)
function automatic logic [7:0] addp(input logic [PIW-1:0] p, input int unsigned d);
  return (8'(p) + 8'(d) >= 8'(P)) ? 8'(p) + 8'(d) - 8'(P) : 8'(p) + 8'(d);
endfunction
// p + d modulo V (p < V, d < V)
function automatic logic [7:0] addv(input logic [VW-1:0] p, input int unsigned d);
  return (8'(p) + 8'(d) >= 8'(V)) ? 8'(p) + 8'(d) - 8'(V) : 8'(p) + 8'(d);
endfunction
