/* asw_dpi.c — SystemVerilog DPI-C wrapper of the arnswitch golden model
 * (libarnswitch): lets a UVM or plain SV testbench, in any simulator with
 * DPI-C, step the C model beside its DUT. The SV side is dpi/asw_dpi_pkg.sv
 * (imports) and dpi/asw_dpi_checker.sv (a drop-in lockstep checker).
 *
 * A model is a handle (chandle): no global state, any number per simulation.
 * The link vectors of asw_dpi_step have the layout of rtl/asw_switch.sv's
 * ports (port p at [p*W +: W]; payload stride max(PW,1)) zero-extended to
 * the largest switch (P = 64, PW = 64), so one import serves every
 * parameter set. Builds as C11 or C++ (simulators compile it either way).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  asw_switch *sw; /* NULL if the configuration was refused */
  unsigned ports, pwe;
  char err[256];
  asw_flit fin[64], fout[64];
  uint8_t cin[64], cout[64];
  uint32_t ain[64], aout[64];
} asw_dpi;

/* w <= 64 bits of an svBitVecVal vector (32-bit words, LSB first) at lsb. */
static uint64_t get_bits(const svBitVecVal *v, unsigned lsb, unsigned w) {
  uint64_t r = 0;
  for (unsigned b = 0; b < w; b++) {
    const unsigned i = lsb + b;
    r |= (uint64_t)((v[i / 32] >> (i % 32)) & 1u) << b;
  }
  return r;
}
static void put_bits(svBitVecVal *v, unsigned lsb, unsigned w, uint64_t x) {
  for (unsigned b = 0; b < w; b++) {
    const unsigned i = lsb + b;
    const uint32_t m = 1u << (i % 32);
    if ((x >> b) & 1u)
      v[i / 32] |= m;
    else
      v[i / 32] &= ~m;
  }
}

/* Creates a model in its reset state. Returns a handle even for an illegal
 * configuration (asw_dpi_ok() = 0, asw_dpi_error() says why); NULL only if
 * memory runs out. */
void *asw_dpi_new(int p, int v, int buf, int lmax, int pw, int dw, int table, int voq,
                  int iters, int ae, int sapipe, int features) {
  asw_dpi *h = (asw_dpi *)calloc(1, sizeof *h);
  if (!h) return NULL;
  const int vals[12] = {p, v, buf, lmax, pw, dw, table, voq, iters, ae, sapipe, features};
  for (int i = 0; i < 12; i++)
    if (vals[i] < 0) {
      snprintf(h->err, sizeof h->err, "asw_dpi_new: parameter %d is negative (%d)", i + 1,
               vals[i]);
      return h;
    }
  asw_config c;
  asw_config_default(&c);
  c.ports = (unsigned)p;
  c.vcs = (unsigned)v;
  c.buf_flits = (unsigned)buf;
  c.max_packet = (unsigned)lmax;
  c.payload_bits = (unsigned)pw;
  c.dest_bits = (unsigned)dw;
  c.table_entries = (unsigned)table;
  c.voq = (unsigned)voq;
  c.iters = (unsigned)iters;
  c.arn_entries = (unsigned)ae;
  c.sa_pipe = (unsigned)sapipe; /* contract §8.1 (the RTL's SAPIPE) */
  asw_config_set_features(&c, (unsigned)features); /* §1: ASW_FEAT_* bits of the features built */
  h->sw = asw_switch_new(&c, h->err, sizeof h->err);
  h->ports = c.ports;
  h->pwe = c.payload_bits == 0 ? 1 : c.payload_bits;
  return h;
}

int asw_dpi_ok(void *handle) { return handle && ((asw_dpi *)handle)->sw != NULL; }

const char *asw_dpi_error(void *handle) {
  if (!handle) return "asw_dpi: null handle (out of memory)";
  asw_dpi *h = (asw_dpi *)handle;
  return h->sw ? asw_switch_error(h->sw) : h->err;
}

void asw_dpi_free(void *handle) {
  asw_dpi *h = (asw_dpi *)handle;
  if (!h) return;
  asw_switch_free(h->sw);
  free(h);
}

void asw_dpi_reset(void *handle) {
  if (asw_dpi_ok(handle)) asw_switch_reset(((asw_dpi *)handle)->sw);
}

/* Register access outside the cycle loop (asw_reg_write / asw_reg_read):
 * 0 or a negative ASW_E* code. */
int asw_dpi_reg_write(void *handle, int addr, int data) {
  if (!asw_dpi_ok(handle)) return ASW_EINVAL;
  return asw_reg_write(((asw_dpi *)handle)->sw, (uint32_t)addr, (uint32_t)data);
}
int asw_dpi_reg_read(void *handle, int addr, int *data) {
  if (!asw_dpi_ok(handle)) return ASW_EINVAL;
  uint32_t d = 0;
  const int rc = asw_reg_read(((asw_dpi *)handle)->sw, (uint32_t)addr, &d);
  *data = (int)d;
  return rc;
}

/* One clock cycle: the outputs of this cycle (the RTL's registered outputs
 * before the clock edge), then the state update with these inputs. Returns 0,
 * or ASW_EPROTO (outputs untouched, asw_dpi_error() names the violation) or
 * ASW_EINVAL for a refused handle. */
int asw_dpi_step(void *handle, const svBitVecVal *in_valid, const svBitVecVal *in_head,
                 const svBitVecVal *in_tail, const svBitVecVal *in_vc,
                 const svBitVecVal *in_hdr, const svBitVecVal *in_payload,
                 const svBitVecVal *cr_in_valid, const svBitVecVal *cr_in_vc,
                 const svBitVecVal *arn_in_valid, const svBitVecVal *arn_in_data,
                 svBit reg_en, svBit reg_we, const svBitVecVal *reg_addr,
                 const svBitVecVal *reg_wdata, svBitVecVal *out_valid, svBitVecVal *out_head,
                 svBitVecVal *out_tail, svBitVecVal *out_vc, svBitVecVal *out_hdr,
                 svBitVecVal *out_payload, svBitVecVal *cr_out_valid, svBitVecVal *cr_out_vc,
                 svBitVecVal *arn_out_valid, svBitVecVal *arn_out_data, svBit *reg_rvalid,
                 svBitVecVal *reg_rdata) {
  if (!asw_dpi_ok(handle)) return ASW_EINVAL;
  asw_dpi *h = (asw_dpi *)handle;
  const unsigned P = h->ports, W = h->pwe;
  asw_inputs in;
  memset(&in, 0, sizeof in);
  in.flit = h->fin;
  in.credit_vc = h->cin;
  in.arn = h->ain;
  for (unsigned p = 0; p < P; p++) {
    if (get_bits(in_valid, p, 1)) {
      in.flit_mask |= 1ull << p;
      asw_flit *f = &h->fin[p];
      f->valid = 1;
      f->head = (uint8_t)get_bits(in_head, p, 1);
      f->tail = (uint8_t)get_bits(in_tail, p, 1);
      f->vc = (uint8_t)get_bits(in_vc, 3 * p, 3);
      f->hdr = get_bits(in_hdr, 64 * p, 64);
      f->payload = get_bits(in_payload, W * p, W);
    }
    if (get_bits(cr_in_valid, p, 1)) {
      in.credit_mask |= 1ull << p;
      h->cin[p] = (uint8_t)get_bits(cr_in_vc, 3 * p, 3);
    }
    if (get_bits(arn_in_valid, p, 1)) {
      in.arn_mask |= 1ull << p;
      h->ain[p] = (uint32_t)get_bits(arn_in_data, 32 * p, 32);
    }
  }
  in.reg_en = reg_en;
  in.reg_we = reg_we;
  in.reg_addr = (uint32_t)get_bits(reg_addr, 0, 20);
  in.reg_wdata = (uint32_t)get_bits(reg_wdata, 0, 32);
  asw_outputs out;
  memset(&out, 0, sizeof out);
  out.flit = h->fout;
  out.credit_vc = h->cout;
  out.arn = h->aout;
  const int rc = asw_switch_step(h->sw, &in, &out);
  if (rc != ASW_OK) return rc;
  /* full widths of the SV vectors (asw_dpi_pkg.sv): 64 ports */
  memset(out_valid, 0, 8);
  memset(out_head, 0, 8);
  memset(out_tail, 0, 8);
  memset(out_vc, 0, 24);
  memset(out_hdr, 0, 512);
  memset(out_payload, 0, 512);
  memset(cr_out_valid, 0, 8);
  memset(cr_out_vc, 0, 24);
  memset(arn_out_valid, 0, 8);
  memset(arn_out_data, 0, 256);
  for (unsigned p = 0; p < P; p++) {
    if (out.flit_mask >> p & 1) {
      const asw_flit *f = &h->fout[p];
      put_bits(out_valid, p, 1, 1);
      put_bits(out_head, p, 1, f->head);
      put_bits(out_tail, p, 1, f->tail);
      put_bits(out_vc, 3 * p, 3, f->vc);
      put_bits(out_hdr, 64 * p, 64, f->hdr);
      put_bits(out_payload, W * p, W, f->payload);
    }
    if (out.credit_mask >> p & 1) {
      put_bits(cr_out_valid, p, 1, 1);
      put_bits(cr_out_vc, 3 * p, 3, h->cout[p]);
    }
    if (out.arn_mask >> p & 1) {
      put_bits(arn_out_valid, p, 1, 1);
      put_bits(arn_out_data, 32 * p, 32, h->aout[p]);
    }
  }
  *reg_rvalid = out.reg_rvalid;
  reg_rdata[0] = out.reg_rvalid ? out.reg_rdata : 0;
  return ASW_OK;
}

#ifdef __cplusplus
}
#endif
