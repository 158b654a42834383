/* input_buffer.c — see input_buffer.h. */
#include "input_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int asw_ibuf_init(asw_ibuf *b, unsigned vcs, unsigned buf, unsigned nq,
                  asw_slot *slots) {
  memset(b, 0, sizeof *b);
  b->vcs = vcs;
  b->nq = nq;
  b->buf = buf;
  b->slots = vcs * buf;
  b->own_slots = slots == NULL;
  b->slot = slots ? slots : calloc(b->slots, sizeof *b->slot);
  b->q = (size_t)vcs * nq <= ASW_IBUF_QINLINE ? b->q_in : calloc((size_t)vcs * nq, sizeof *b->q);
  if (!b->slot || !b->q) {
    asw_ibuf_destroy(b);
    return -1;
  }
  asw_ibuf_reset(b);
  return 0;
}

void asw_ibuf_destroy(asw_ibuf *b) {
  if (b->own_slots) free(b->slot);
  if (b->q != b->q_in) free(b->q);
  b->slot = NULL;
  b->q = NULL;
}

void asw_ibuf_reset(asw_ibuf *b) {
  b->free_count = 0;
  b->free_top = 0;
  b->fresh = 0;
  b->used = 0;
  memset(b->vc_last, 0, sizeof b->vc_last);
  memset(b->vc_due, 0, sizeof b->vc_due);
  memset(b->vc_held, 0, sizeof b->vc_held);
  for (unsigned k = 0; k < b->vcs * b->nq; k++) b->q[k].occ = 0;
  memset(b->nonempty, 0, sizeof b->nonempty);
  b->nonempty_vcs = 0;
}

int asw_ibuf_check(const asw_ibuf *b, unsigned vc, int head, int tail,
                   unsigned len, unsigned lmax, char *err, size_t errlen) {
  if (vc >= b->vcs) {
    snprintf(err, errlen, "flit on vc %u, but the switch has %u VCs", vc,
             b->vcs);
    return -1;
  }
  unsigned due = b->vc_due[vc];
  if (head) {
    if (due) {
      snprintf(err, errlen,
               "head flit on vc %u while %u flits of the previous packet "
               "are still due",
               vc, due);
      return -1;
    }
    if (len < 1 || len > lmax) {
      snprintf(err, errlen, "head flit on vc %u with len %u (legal 1..%u)",
               vc, len, lmax);
      return -1;
    }
    if (b->vc_held[vc] + len > b->buf) {
      snprintf(err, errlen,
               "head flit on vc %u with len %u but only %u credits can be "
               "held by the sender (buffer overflow)",
               vc, len, b->buf - b->vc_held[vc]);
      return -1;
    }
    due = len;
  } else if (!due) {
    snprintf(err, errlen, "body/tail flit on vc %u with no packet in progress",
             vc);
    return -1;
  }
  if (!!tail != (due == 1)) {
    snprintf(err, errlen,
             tail ? "tail flit on vc %u but %u more flits of the packet are due"
                  : "flit on vc %u is the packet's last (len reached) but has "
                    "no tail (%u due)",
             vc, due - 1);
    return -1;
  }
  return 0;
}

unsigned asw_ibuf_queue_length(const asw_ibuf *b, unsigned vc, unsigned q) {
  if (!(b->nonempty[vc] >> q & 1u)) return 0;
  const asw_queue *qu = &b->q[vc * b->nq + q];
  unsigned n = 1;
  for (unsigned s = qu->head; s != qu->tail; s = b->slot[s].pkt_next) n++;
  return n;
}
