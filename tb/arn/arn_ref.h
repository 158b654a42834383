/* arn_ref.h — plain-C facade over the C model's §15 blocks
 * (cmodel/congestion_detector.[ch], cmodel/arn_table.[ch]) for the block-level
 * Verilator harnesses in tb/arn/. The blocks are driven through their own API;
 * the structures they read (input-buffer queue heads, credits, register fields)
 * are set directly, as the switch would have left them at the start of a cycle.
 * C++ cannot include the model's headers (C11 _Alignas), hence this facade.
 */
#ifndef ARN_REF_H
#define ARN_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned dest, port, vc, stage, id, adapted;
} arn_ref_event;

/* ---- congestion detector + root FIFO ---- */
typedef struct cd_ref cd_ref;
cd_ref *cd_ref_new(unsigned P, unsigned V, unsigned BUF);
void cd_ref_free(cd_ref *c);
void cd_ref_regs(cd_ref *c, unsigned hcdth, unsigned lcdth, unsigned fcth,
                 unsigned crt, uint64_t arn_up, unsigned stage);
/* Head of queue (v, o) of input i. */
void cd_ref_queue(cd_ref *c, unsigned i, unsigned v, unsigned o, int nonempty,
                  unsigned ovc, unsigned dest, unsigned adapted,
                  unsigned orig_vc);
void cd_ref_cred(cd_ref *c, unsigned o, unsigned v, unsigned cred);
/* Start-of-cycle part: the detector cycle (if on). Returns 1 if a root event
 * is declared (*ev). */
int cd_ref_detect(cd_ref *c, int on, arn_ref_event *ev);
/* End-of-cycle part: occupancy events (if on), root FIFO pop then push,
 * clear (ARN_CTRL written with mode 0). */
void cd_ref_occ(cd_ref *c, int on, unsigned i, unsigned v, unsigned o,
                unsigned occ);
void cd_ref_end(cd_ref *c, int pop, int declared, const arn_ref_event *ev,
                int clear);
int cd_ref_hot(const cd_ref *c, unsigned i, unsigned v, unsigned o);
unsigned cd_ref_hot_cnt(const cd_ref *c, unsigned o);
unsigned cd_ref_crt(const cd_ref *c, unsigned o);
int cd_ref_root(const cd_ref *c, unsigned o);
unsigned cd_ref_root_id(const cd_ref *c, unsigned o);
unsigned cd_ref_next_id(const cd_ref *c);
uint32_t cd_ref_roots_declared(const cd_ref *c, unsigned o);
/* Root FIFO: count and head. */
unsigned cd_ref_rf_count(const cd_ref *c);
arn_ref_event cd_ref_rf_head(const cd_ref *c);

/* ---- ARN table, event FIFOs, output FIFOs ---- */
typedef struct tb_ref tb_ref;
tb_ref *tb_ref_new(unsigned P, unsigned V, unsigned BUF, unsigned AE,
                   unsigned TABLE);
void tb_ref_free(tb_ref *t);
void tb_ref_regs(tb_ref *t, unsigned mode, unsigned stage, unsigned ttl,
                 unsigned alt_refresh);
void tb_ref_fwd(tb_ref *t, unsigned dest, uint32_t entry); /* FWD register word */
void tb_ref_cset(tb_ref *t, unsigned c, uint64_t mask);
void tb_ref_cred(tb_ref *t, unsigned o, unsigned v, unsigned cred);
/* Root FIFO (source 0) at the start of the cycle. */
unsigned tb_ref_root_count(const tb_ref *t);
arn_ref_event tb_ref_root_head(const tb_ref *t);
/* One cycle (if mode != 0): lookups of the inputs with lk_valid[i] (key vc
 * lk_vc[i], or lk_orig_vc[i] for an adapted packet's lookup, lk_adapted[i];
 * results in kind[i]: 0 none, 1 consumed (alt[i]), 2 notify), processARN (returns the
 * source popped or -1), root push, arn_in pushes, end of cycle. clear: a
 * mode-0 write at the end of the cycle. */
int tb_ref_cycle(tb_ref *t, const int *lk_valid, const unsigned *lk_dest,
                 const unsigned *lk_vc, const int *lk_adapted,
                 const unsigned *lk_orig_vc, int *kind, unsigned *alt,
                 int root_push, const arn_ref_event *root_ev,
                 const int *in_valid, const uint32_t *in_msg, int clear);
int tb_ref_entry(const tb_ref *t, unsigned k, arn_ref_event *e,
                 unsigned *consumed, unsigned *alt, unsigned *ttl);
int tb_ref_out(const tb_ref *t, unsigned i, uint32_t *msg);
uint32_t tb_ref_counter(const tb_ref *t, unsigned port, unsigned k);
/* Coverage of the cases processARN and the queues went through so far. */
typedef struct {
  unsigned long refresh, replace, adapted_ev, stage_match, consumed, no_alt,
      dedup, sources_popped_mask, alt_refresh, adapted_notify;
} tb_ref_cov;
tb_ref_cov tb_ref_coverage(const tb_ref *t);

#ifdef __cplusplus
}
#endif
#endif
