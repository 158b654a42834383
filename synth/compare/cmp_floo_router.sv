// Out-of-context wrapper of FlooNoC's floo_router for `make fpga-compare` (synth/compare/).
// Ours, not FlooNoC's: it only gives the type parameters of floo_router concrete types (a
// 4x4-mesh XY node id, FlooNoC's own header struct, a PayloadW-bit payload, cmp_floo_pkg.sv) and flattens the
// struct ports into plain vectors so that Yosys and nextpnr see an ordinary top level.
// FlooNoC's sources (hw/, hw/include/) and common_cells' (src/, include/) are read beside it.

module cmp_floo_router #(
  /// Router ports (5: N, E, S, W and one local Eject port, FlooNoC's mesh router).
  parameter int unsigned NumPorts  = 5,
  /// Virtual channels per port (1 or 2), sharing one physical channel. VC flow control is
  /// FlooNoC's VcNaive (a per-VC ready; the default of its synthesis parameters): VcCredit
  /// needs common_cells 2.0.0-beta.3's cc_credit_counter (synth/compare/README.md).
  parameter int unsigned NumVcs    = 1,
  /// Payload bits per flit (the header is added on top, see FLIT_W).
  parameter int unsigned PayloadW  = 16,
  /// Input FIFO depth in flits per port and VC.
  parameter int unsigned InDepth   = 2,
  /// Output FIFO depth in flits per port and VC (0: none).
  parameter int unsigned OutDepth  = 2,
  /// 1: drop the Y->X turns of XY routing from the crossbar (floo_router's default); 0: full
  /// crossbar, as FlooNoC's own synthesis wrapper (hw/synth/floo_synth_nw_router.sv) sets it.
  parameter bit          XYRouteOpt = 1'b0,
  /// 1: drop the input->same-output paths (floo_router's default); 0: keep them, as FlooNoC's
  /// synthesis wrapper does.
  parameter bit          NoLoopback = 1'b0,
  /// Flit width: the header struct plus the payload.
  localparam int unsigned FlitW    = $bits(cmp_floo_pkg::hdr_t) + PayloadW
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  logic [$bits(cmp_floo_pkg::id_t)-1:0]   xy_id_i,
  input  logic [NumPorts-1:0][NumVcs-1:0]        valid_i,
  output logic [NumPorts-1:0][NumVcs-1:0]        ready_o,
  input  logic [NumPorts-1:0][FlitW-1:0]         data_i,
  output logic [NumPorts-1:0][NumVcs-1:0]        credit_o,
  output logic [NumPorts-1:0][NumVcs-1:0]        valid_o,
  input  logic [NumPorts-1:0][NumVcs-1:0]        ready_i,
  output logic [NumPorts-1:0][FlitW-1:0]         data_o,
  input  logic [NumPorts-1:0][NumVcs-1:0]        credit_i
);
  typedef struct packed {
    cmp_floo_pkg::hdr_t  hdr;
    logic [PayloadW-1:0] payload;
  } flit_t;

  flit_t [NumPorts-1:0][0:0] flit_in, flit_out;
  logic offload_req_unused;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    assign flit_in[p][0] = flit_t'(data_i[p]);
    assign data_o[p]     = flit_out[p][0];
  end

  floo_router #(
    .NumRoutes       ( NumPorts                                      ),
    .NumVirtChannels ( NumVcs                                        ),
    .NumPhysChannels ( 1                                             ),
    .InFifoDepth     ( InDepth                                       ),
    .OutFifoDepth    ( OutDepth                                      ),
    .RouteAlgo       ( floo_pkg::XYRouting                           ),
    .IdWidth         ( $bits(cmp_floo_pkg::id_t)                     ),
    .id_t            ( cmp_floo_pkg::id_t                            ),
    .NumAddrRules    ( 1                                             ),
    .XYRouteOpt      ( XYRouteOpt                                    ),
    .NoLoopback      ( NoLoopback                                    ),
    .VcImpl          ( floo_pkg::VcNaive                             ),
    .flit_t          ( flit_t                                        ),
    .hdr_t           ( cmp_floo_pkg::hdr_t                           )
  ) i_router (
    .clk_i,
    .rst_ni,
    .test_enable_i  ( 1'b0                          ),
    .xy_id_i        ( cmp_floo_pkg::id_t'(xy_id_i)  ),
    .id_route_map_i ( '0                            ),
    .valid_i,
    .ready_o,
    .data_i         ( flit_in                       ),
    .credit_o,
    .valid_o,
    .ready_i,
    .data_o         ( flit_out                      ),
    .credit_i,
    .offload_req_o  ( offload_req_unused            ),
    .offload_rsp_i  ( 1'b0                          )
  );
endmodule
