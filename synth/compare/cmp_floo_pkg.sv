// Concrete FlooNoC types for `make fpga-compare` (synth/compare/README.md): ours, built with
// FlooNoC's own typedef macros; used by cmp_floo_router.sv and floo_latency_tb.sv.

`include "floo_noc/typedef.svh"

package cmp_floo_pkg;
  // X and Y coordinates of a 4x4 mesh, one local port bit (FLOO_TYPEDEF_XY_NODE_ID_T).
  typedef logic [1:0] x_bits_t;
  typedef logic [1:0] y_bits_t;
  `FLOO_TYPEDEF_XY_NODE_ID_T(id_t, x_bits_t, y_bits_t, logic)
  // FlooNoC's header (route-by-destination, last-flit bit, no reorder buffer, no collectives).
  `FLOO_TYPEDEF_HDR_T(hdr_t, id_t, id_t, logic, logic)
endpackage
