/* tb_stim_link.c — §18 link faults (opt.linkfault): links going down and coming back,
 * the link pins, the §18.4 reads, the counters and the conservation the run must keep. */
#include <stdio.h>

#include "tb_stim.h"

/* §18: links go down at random and come back after V*LMAX .. 5*V*LMAX cycles (the
 * network's minimum, contract §18.3, so padding ends first). A down input cuts its
 * sender's packets in progress: the switch pads their remaining flits and returns their
 * credits (reserved with the head). No new fault while programming or draining. */
void tb_link_update(tb_traffic *t, uint64_t cycle, int quiet) {
  const unsigned span = t->V * t->cfg.max_packet;
  for (unsigned d = 0; d < 2; d++)
    for (unsigned p = 0; p < t->P; p++) {
      uint64_t *pins = d ? &t->lf_rx_up : &t->lf_up, bit = 1ULL << p;
      uint64_t *until = &t->lf_until[d * t->P + p];
      if (!(*pins & bit)) {
        if (cycle >= *until) *pins |= bit;
        continue;
      }
      if (quiet || (double)(rnd(t) >> 11) / 9007199254740992.0 >= t->opt.linkfault) continue;
      *pins &= ~bit;
      *until = cycle + span + rnd_below(t, 4 * span + 1);
      t->lf_downs++;
      if (d)
        for (unsigned v = 0; v < t->V; v++) {
          sender_vc *s = &t->snd[p * t->V + v];
          t->lf_in_pad += s->remaining;
          s->remaining = 0;
        }
    }
}

void tb_link_pins(const tb_traffic *t, uint64_t *up, uint64_t *rx_up) {
  *up = t->lf_up;
  *rx_up = t->lf_rx_up;
}

static uint64_t link_total(const tb_traffic *t, unsigned k) {
  return rd(t, ASW_REG_LINK_COUNTER(k));
}

void tb_link_report(const tb_traffic *t, char *buf, size_t len) {
  uint64_t c[ASW_LCNT_NUM];
  for (unsigned k = 0; k < ASW_LCNT_NUM; k++) c[k] = link_total(t, k);
  snprintf(buf, len,
           "link downs %llu flits_discarded %llu packets_discarded %llu packets_cut %llu "
           "flits_padded %llu self_credits %llu receiver_padded %llu",
           (unsigned long long)t->lf_downs, (unsigned long long)c[ASW_LCNT_FLITS_DISCARDED],
           (unsigned long long)c[ASW_LCNT_PACKETS_DISCARDED],
           (unsigned long long)c[ASW_LCNT_PACKETS_CUT], (unsigned long long)c[ASW_LCNT_FLITS_PADDED],
           (unsigned long long)(c[ASW_LCNT_FLITS_DISCARDED] - t->lf_out_pad),
           (unsigned long long)t->lf_out_pad);
}

/* After the drain, with link faults: every flit that entered the switch (sent, or padded
 * on a down input) left it or was discarded, the switch padded what the senders' cuts
 * left due, and the receivers padded only discarded flits (exact: CNT_CLEAR is not
 * written once a link has gone down). */
static int link_check(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->opt.linkfault <= 0) return 0;
  uint64_t disc = link_total(t, ASW_LCNT_FLITS_DISCARDED);
  uint64_t pad = link_total(t, ASW_LCNT_FLITS_PADDED);
  if (t->st.flits_sent + t->lf_in_pad != t->st.flits_recv + disc || pad != t->lf_in_pad ||
      t->lf_out_pad > disc) {
    snprintf(msg, msglen, "link conservation: %llu flits sent + %llu cut on inputs != %llu "
             "received + %llu discarded, or FLITS_PADDED %llu != %llu, or receivers padded "
             "%llu > discarded",
             (unsigned long long)t->st.flits_sent, (unsigned long long)t->lf_in_pad,
             (unsigned long long)t->st.flits_recv, (unsigned long long)disc,
             (unsigned long long)pad, (unsigned long long)t->lf_in_pad,
             (unsigned long long)t->lf_out_pad);
    return -1;
  }
  if (t->opt.cycles >= 20000 && (!t->lf_downs || !disc || !pad)) {
    snprintf(msg, msglen, "LINKFAULT=%g: %llu links down, %llu flits discarded, %llu padded "
             "(a run this long must see all three)", t->opt.linkfault,
             (unsigned long long)t->lf_downs, (unsigned long long)disc, (unsigned long long)pad);
    return -1;
  }
  return 0;
}

static unsigned link_read_pct(const tb_traffic *t) { return t->opt.linkfault > 0 ? 20 : 0; }
/* §18.4 LINK_DOWN, LINK_RX_DOWN, counters */
static uint32_t link_read(tb_traffic *t) { return ASW_REG_LINK_DOWN(0) + rnd_below(t, 8); }
const tb_feature tb_feat_link = {.name = "link", .read_pct = link_read_pct, .read = link_read,
                                 .check = link_check};
