/* tb_traffic.c — co-simulation stimulus, see tb_traffic.h: the senders, receivers and
 * traffic phases, the cycle (tb_inputs, tb_observe, tb_outputs) and the end checks. The
 * register stimulus of each feature is in the table of tb_stim_regs.c, the directed §15
 * scenarios in tb_directed.c (file map: tb/README.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stim.h"

void tb_failf(tb_traffic *t, const char *fmt, ...) {
  if (t->fail[0]) return;
  char m[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  snprintf(t->fail, sizeof t->fail, "cycle %llu (scenario cycle %lld): %s",
           (unsigned long long)t->now, (long long)(t->now - t->s0), m);
}

tb_traffic *tb_new(const asw_config *cfg, const tb_opts *o, char *err, size_t errlen) {
  if (asw_config_check(cfg, err, errlen) != ASW_OK) return NULL;
  if (o->routing >= TB_ROUTE_N || o->vcmap >= TB_VC_N || o->scenario >= TB_SCEN_N) {
    snprintf(err, errlen, "unknown routing/vcmap/scenario option");
    return NULL;
  }
  if ((o->vcmap == TB_VC_AFI || o->vcmap == TB_VC_OBQA_AFI) && cfg->vcs < 2) {
    snprintf(err, errlen, "VCMAP=%s needs V >= 2 (the adapted-flow channel is VC V-1)",
             tb_vcmap_name(o->vcmap));
    return NULL;
  }
  if (o->arn >= TB_ARN_N) {
    snprintf(err, errlen, "unknown ARN option");
    return NULL;
  }
  /* §17.1 headroom for this stimulus: its senders see a frame in the outputs of
   * cycle x and start no packet from x + 1 (a switch upstream is 2 cycles
   * slower), so heads arrive in at most V + 2 cycles after want rises. */
  if (o->pfc && (o->pfc >> (cfg->ports - 1) >> 1)) {
    snprintf(err, errlen, "PFC=0x%llx has bits for ports >= P = %u",
             (unsigned long long)o->pfc, cfg->ports);
    return NULL;
  }
  if (o->pfc && cfg->buf_flits < cfg->max_packet + cfg->vcs + 1) {
    snprintf(err, errlen, "PFC needs BUF >= PKT + V + 1 = %u for the headroom of contract "
             "17.1 (BUF = %u)", cfg->max_packet + cfg->vcs + 1, cfg->buf_flits);
    return NULL;
  }
  if (o->qcn && !cfg->qcn) {
    snprintf(err, errlen, "QCN=1 needs the QCN hardware (qcn is off: no §17.4 "
             "hardware)");
    return NULL;
  }
  if (o->routing == TB_ROUTE_OBL && !cfg->oblivious) {
    snprintf(err, errlen, "ROUTING=obl needs ROUTE_CTRL mode 1 (oblivious is off: no §7.3 "
             "oblivious hardware)");
    return NULL;
  }
  if ((o->routing == TB_ROUTE_ADA || o->routing == TB_ROUTE_TH || o->routing == TB_ROUTE_2TH) &&
      !cfg->adaptive) {
    snprintf(err, errlen, "ROUTING=%s needs ROUTE_CTRL mode 2 (adaptive is off: no §7.3 "
             "adaptive hardware)", o->routing == TB_ROUTE_ADA ? "ada" : o->routing == TB_ROUTE_TH ? "th" : "2th");
    return NULL;
  }
  if ((o->bubble || o->qcn || o->sar || o->linkfault > 0 || o->vcadapt || o->arn != TB_ARN_OFF) &&
      !cfg->counters) {
    snprintf(err, errlen, "BUBBLE, QCN, SAR, LINKFAULT, VCADAPT and ARN runs check counters "
             "(counters is off: every counter reads 0)");
    return NULL;
  }
  if (o->arn != TB_ARN_OFF && !cfg->readback) {
    snprintf(err, errlen, "ARN runs check OCC and CRED (readback is off: they read 0)");
    return NULL;
  }
  if (o->gap && !cfg->port_rate) {
    snprintf(err, errlen, "GAP=1 needs the PORT_GAP registers (port_rate is off: no "
             "§17.7 hardware)");
    return NULL;
  }
  if (o->hash && !cfg->route_hash) {
    snprintf(err, errlen, "HASH=1 needs the ROUTE_HASH register (route_hash is off: no "
             "§17.6 hardware)");
    return NULL;
  }
  if (o->linkfault > 0 && !cfg->link_faults) {
    snprintf(err, errlen, "LINKFAULT=%g needs the link-fault hardware (link_faults is off: no "
             "§18 hardware)", o->linkfault);
    return NULL;
  }
  if (o->pfc && !cfg->pfc) {
    snprintf(err, errlen, "PFC=0x%llx needs the PFC hardware (pfc is off: no §17.1 "
             "hardware)", (unsigned long long)o->pfc);
    return NULL;
  }
  if (o->bubble && !cfg->bubble) {
    snprintf(err, errlen, "BUBBLE=1 needs the bubble-rule hardware (bubble is off: no "
             "§16.1 hardware)");
    return NULL;
  }
  if (o->sar && (cfg->sar_entries == 0 || !cfg->qcn ||
                 o->scenario >= TB_FIRST_ARN_SCEN || o->scenario == TB_SCEN_PROTO)) {
    snprintf(err, errlen, "SAR=1 (contract 17.8) needs SE >= 1, qcn on and a traffic "
             "scenario");
    return NULL;
  }
  if (o->vcadapt && (cfg->voq || !cfg->vc_adaptive || o->qcn ||
                     o->scenario >= TB_FIRST_ARN_SCEN)) {
    snprintf(err, errlen, "VCADAPT=1 (ROUTE_CTRL mode 3, contract 16.3) needs VOQ=0, "
             "vc_adaptive on, QCN off (they exclude each other) and a traffic scenario");
    return NULL;
  }
  if (o->arn != TB_ARN_OFF && cfg->arn_entries == 0) {
    snprintf(err, errlen, "ARN=%s needs AE >= 1 (ARN-table entries)", tb_arn_name(o->arn));
    return NULL;
  }
  if ((o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI) && !cfg->voq) {
    snprintf(err, errlen, "ARN=%s needs VOQ=1 (contract 15.1)", tb_arn_name(o->arn));
    return NULL;
  }
  if ((o->arn == TB_ARN_AFI || o->arn == TB_ARN_ADTH) && cfg->vcs < 2) {
    snprintf(err, errlen, "ARN=%s needs V >= 2 (contract 15.1)", tb_arn_name(o->arn));
    return NULL;
  }
  if (o->scenario >= TB_FIRST_ARN_SCEN &&
      (!(o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI) || cfg->ports < 4 || cfg->vcs < 2 ||
       cfg->table_entries < D_N || cfg->max_packet < 2)) {
    snprintf(err, errlen,
             "SCEN=%s needs ARN=arn or ARN=afi, AE >= 1, P >= 4, V >= 2, TABLE >= %d, PKT >= 2",
             tb_scenario_name(o->scenario), D_N);
    return NULL;
  }
  if (o->bubble && (o->scenario >= TB_FIRST_ARN_SCEN || o->scenario == TB_SCEN_PROTO)) {
    snprintf(err, errlen, "BUBBLE=1 runs with the traffic scenarios only, not SCEN=%s",
             tb_scenario_name(o->scenario));
    return NULL;
  }
  if (o->linkfault > 0 && (o->pfc || o->scenario >= TB_FIRST_ARN_SCEN ||
                           o->scenario == TB_SCEN_PROTO)) {
    if (o->pfc)
      snprintf(err, errlen, "LINKFAULT runs with credit ports only, not with PFC=0x%llx",
               (unsigned long long)o->pfc);
    else
      snprintf(err, errlen, "LINKFAULT runs with the traffic scenarios only, not SCEN=%s",
               tb_scenario_name(o->scenario));
    return NULL;
  }
  if (o->bubble && 2 * cfg->max_packet > cfg->buf_flits) {
    snprintf(err, errlen, "BUBBLE=1 needs 2*PKT <= BUF (an LMAX-flit packet entering a ring "
             "needs 2*LMAX credits, contract 16.1): PKT=%u BUF=%u", cfg->max_packet,
             cfg->buf_flits);
    return NULL;
  }
  tb_traffic *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->cfg = *cfg;
  t->opt = *o;
  t->P = cfg->ports;
  t->V = cfg->vcs;
  t->NQ = cfg->voq ? t->P : 1;
  t->rng = o->seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
  if (t->rng == 0) t->rng = 1;
  t->payload_mask = cfg->payload_bits >= 64 ? ~0ULL : ((1ULL << cfg->payload_bits) - 1);
  t->flit = calloc(t->P, sizeof *t->flit);
  t->credit_vc = calloc(t->P, 1);
  t->arn = calloc(t->P, sizeof *t->arn);
  t->snd = calloc((size_t)t->P * t->V, sizeof *t->snd);
  t->seq = calloc(t->P, sizeof *t->seq);
  t->was_full = calloc((size_t)t->P * t->V, 1);
  t->rcv = calloc(t->P, sizeof *t->rcv);
  t->sent_adapted = calloc((size_t)t->P * 8192, 1);
  t->h_occ = calloc((size_t)t->P * t->V * t->P, sizeof *t->h_occ);
  t->h_hot = calloc((size_t)t->P * t->V * t->P, 1);
  t->rpaused = calloc(t->P, 1);
  t->lf_until = calloc(2 * (size_t)t->P, sizeof *t->lf_until);
  t->rrem = calloc((size_t)t->P * t->V, 1);
  t->lf_up = t->lf_rx_up = port_mask(t);
  t->lrng = o->seed * 0xD1B54A32D192ED03ULL + 0x5A4ULL;
  if (t->lrng == 0) t->lrng = 1;
  t->lane = calloc(t->P, sizeof *t->lane);
  t->pfc_xoff_max = cfg->buf_flits - cfg->max_packet - cfg->vcs; /* >= 1 when PFC is on */
  t->AE = cfg->arn_entries;
  t->arn_on = o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI;
  t->arn_ctrl_cfg = o->arn == TB_ARN_ARN ? 1u : o->arn == TB_ARN_AFI ? 2u : o->arn == TB_ARN_ADTH ? 4u : 0u;
  t->directed = o->scenario >= TB_FIRST_ARN_SCEN;
  /* ARN_CTRL [4:3] options: drawn from the seed without touching the stimulus stream */
  t->arnx = !t->arn_on ? 0u : o->arnx >= 0 ? (unsigned)o->arnx
          : t->directed ? 0u : (unsigned)((o->seed * 0x9E3779B97F4A7C15ULL) >> 62);
  t->arn_ctrl_cfg |= t->arnx << 3;
  t->stage = o->stage >= 0 ? (unsigned)o->stage : t->AE ? 1 + rnd_below(t, 15) : 1;
  unsigned cap = 2 * (32 + 8 + 8 + t->P * 16 + cfg->table_entries + POOL_MAX);
  t->script = calloc(cap, sizeof *t->script);
  if (!t->flit || !t->credit_vc || !t->arn || !t->snd || !t->seq || !t->rcv || !t->script ||
      !t->was_full || !t->sent_adapted || !t->h_occ || !t->h_hot || !t->rpaused ||
      !t->lf_until || !t->rrem || !t->lane) {
    tb_free(t);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if ((o->gap || o->hash) && !(t->probe = asw_switch_new(cfg, err, errlen))) {
    tb_free(t);
    return NULL;
  }
  for (unsigned p = 0; p < t->P; p++) {
    t->rcv[p].cap = t->V * cfg->buf_flits + 1;
    t->rcv[p].ring = calloc(t->rcv[p].cap, sizeof *t->rcv[p].ring);
    if (!t->rcv[p].ring) {
      tb_free(t);
      snprintf(err, errlen, "out of memory");
      return NULL;
    }
    for (unsigned v = 0; v < t->V; v++) {
      t->snd[p * t->V + v].credits = cfg->buf_flits;
      t->snd[p * t->V + v].next_len = 1;
    }
  }
  /* Programming script: everything through the register bus, each feature's part in
   * turn (tb_stim_regs.c). */
  int bad = tb_program(t, cap);
  if (bad) {
    tb_free(t);
    snprintf(err, errlen, "internal: programming script overflow");
    return NULL;
  }
  uint64_t drain = o->cycles / 5;
  if (drain < 200) drain = 200;
  if (drain > 3000) drain = 3000;
  t->drain_from = o->cycles > drain ? o->cycles - drain : 0;
  t->proto_at = t->script_len / 2 + 500 + rnd_below(t, 1000);
  t->reg_rate = o->scenario == TB_SCEN_REWRITE ? 4 : t->directed ? 2 : 16;
  t->rewrite_rate = o->scenario == TB_SCEN_REWRITE ? 70 : 25;
  return t;
}

void tb_free(tb_traffic *t) {
  if (!t) return;
  if (t->rcv)
    for (unsigned p = 0; p < t->P; p++) free(t->rcv[p].ring);
  free(t->rcv);
  free(t->flit);
  free(t->credit_vc);
  free(t->arn);
  free(t->snd);
  free(t->seq);
  free(t->was_full);
  free(t->script);
  free(t->sent_adapted);
  free(t->lane);
  free(t->h_occ);
  free(t->h_hot);
  free(t->rpaused);
  free(t->lf_until);
  free(t->rrem);
  asw_switch_free(t->probe);
  free(t);
}

/* ---- phases ------------------------------------------------------------ */
static void new_phase(tb_traffic *t) {
  unsigned kind;
  switch (t->opt.scenario) {
  case TB_SCEN_HOTSPOT: kind = PH_HOTSPOT; break;
  case TB_SCEN_FULL: kind = chance(t, 50) ? PH_HOTSPOT : PH_NORMAL; break;
  case TB_SCEN_ZEROCRED: kind = chance(t, 60) ? PH_WITHHOLD : PH_NORMAL; break;
  case TB_SCEN_LEN1: kind = PH_LEN1; break;
  case TB_SCEN_LENMAX: kind = PH_LENMAX; break;
  case TB_SCEN_REWRITE: kind = PH_NORMAL; break;
  default:
    kind = rnd_below(t, PH_N);
    if (t->arn_on && chance(t, 50)) {
      static const unsigned arn_kinds[3] = {PH_HOTSPOT, PH_ARNBURST, PH_IDLE};
      kind = arn_kinds[rnd_below(t, 3)];
    }
    break;
  }
  t->phase = kind;
  t->phase_left = kind == PH_ARNBURST ? 5 + rnd_below(t, 40) : 300 + rnd_below(t, 2000);
  t->load = (double)(30 + rnd_below(t, 71)) / 100.0;
  t->max_delay = rnd_below(t, 12);
  if (t->opt.scenario == TB_SCEN_FULL) {
    t->load = 1.0;
    t->max_delay = 10 + rnd_below(t, 40);
  }
  if (kind == PH_LEN1 || kind == PH_LENMAX || kind == PH_HOTSPOT) t->load = 1.0;
  if (kind == PH_IDLE) t->load = 0.0;
  t->hot_dest = rnd_below(t, t->cfg.table_entries);
  if (t->npool && chance(t, 70)) t->hot_dest = t->pool[rnd_below(t, t->npool)];
  if (t->arn_on && kind == PH_HOTSPOT && chance(t, 70)) t->max_delay = rnd_below(t, 3);
  for (unsigned p = 0; p < t->P; p++) {
    /* withhold: all outputs in ZEROCRED, a random subset in a random run */
    t->rcv[p].withhold =
        kind == PH_WITHHOLD && (t->opt.scenario == TB_SCEN_ZEROCRED || chance(t, 50));
  }
}

static unsigned draw_len(tb_traffic *t) {
  unsigned lmax = t->cfg.max_packet;
  if (t->directed) return t->dlen_lo + rnd_below(t, t->dlen_hi - t->dlen_lo + 1);
  if (t->phase == PH_LEN1) return 1;
  if (t->phase == PH_LENMAX) return lmax;
  if (chance(t, 20)) return chance(t, 50) ? 1 : lmax;
  return 1 + rnd_below(t, lmax);
}

static uint64_t draw_header(tb_traffic *t, unsigned p, unsigned len) {
  unsigned table = t->cfg.table_entries;
  unsigned dest;
  if (t->directed) {
    unsigned seq = t->seq[p]++;
    t->sent_adapted[p * 8192 + seq / 8] &= (uint8_t)~(1u << seq % 8);
    if (t->dadapted) t->sent_adapted[p * 8192 + seq / 8] |= (uint8_t)(1u << seq % 8);
    return asw_hdr_make(t->ddest[p], p, t->dsl, len, t->dadapted, t->dvc[p], seq);
  }
  if (t->phase == PH_HOTSPOT)
    dest = t->hot_dest;
  else if (chance(t, 2) && table < (1u << t->cfg.dest_bits))
    dest = table + rnd_below(t, (1u << t->cfg.dest_bits) - table); /* beyond the table */
  else if (t->npool && chance(t, 40))
    dest = t->pool[rnd_below(t, t->npool)];
  else
    dest = rnd_below(t, table);
  unsigned adapted = (t->opt.vcmap == TB_VC_AFI || t->opt.vcmap == TB_VC_OBQA_AFI) ? chance(t, 15)
                                                                                  : chance(t, 3);
  unsigned seq = t->seq[p]++;
  t->sent_adapted[p * 8192 + seq / 8] &= (uint8_t)~(1u << seq % 8);
  if (adapted) t->sent_adapted[p * 8192 + seq / 8] |= (uint8_t)(1u << seq % 8);
  return asw_hdr_make(dest, p, rnd_below(t, 16), len, adapted, rnd_below(t, 8), seq);
}
void tb_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in) {
  memset(in, 0, sizeof *in);
  in->flit = t->flit;
  in->credit_vc = t->credit_vc;
  in->arn = t->arn;
  int programming = t->script_pos < t->script_len;
  int draining = cycle >= t->drain_from;
  t->now = cycle;
  if (!programming && !t->s0) t->s0 = cycle;
  if (t->AE && !t->sweep && (draining || t->done)) t->sweep = 1;
  if (!programming && t->phase_left == 0 && !t->directed) new_phase(t);
  if (!programming && t->phase_left) t->phase_left--;
  if (t->opt.linkfault > 0) tb_link_update(t, cycle, programming || draining);

  /* senders */
  for (unsigned p = 0; p < t->P && !programming; p++) {
    if (!(t->lf_rx_up >> p & 1u)) continue; /* §18.3: nothing on a down link */
    sender_vc *s = &t->snd[p * t->V];
    unsigned cand[8], n = 0;
    double load = t->directed ? ((t->dsrc >> p & 1u) ? t->dload : 0.0) : t->load;
    int want_new = !draining && load > 0 && (double)(rnd(t) >> 11) / 9007199254740992.0 < load;
    for (unsigned v = 0; v < t->V; v++) {
      if (t->directed && !s[v].remaining && (s[v].next_len < t->dlen_lo || s[v].next_len > t->dlen_hi))
        s[v].next_len = draw_len(t); /* the flow's lengths from its first packet */
      if (s[v].remaining) {
        /* a packet in progress continues, with random gaps */
        if (want_new || draining || chance(t, 50)) cand[n++] = v;
      } else if (want_new && s[v].credits >= s[v].next_len && (!t->directed || v == t->dvc[p])) {
        cand[n++] = v;
      }
    }
    if (!n) continue;
    unsigned v = cand[rnd_below(t, n)];
    asw_flit *f = &t->flit[p];
    memset(f, 0, sizeof *f);
    f->valid = 1;
    f->vc = (uint8_t)v;
    f->payload = rnd(t) & t->payload_mask;
    if (!s[v].remaining) {
      unsigned len = s[v].next_len;
      f->head = 1;
      f->hdr = draw_header(t, p, len);
      s[v].remaining = len;
      if (!(t->opt.pfc >> p & 1u)) s[v].credits -= len; /* a PFC port reserves nothing */
      s[v].next_len = draw_len(t);
      t->st.packets_sent++;
    } else if (chance(t, 10)) {
      f->hdr = rnd(t); /* junk header on a body flit: the switch must output 0 */
    }
    s[v].remaining--;
    f->tail = s[v].remaining == 0;
    in->flit_mask |= 1ULL << p;
    t->st.flits_sent++;
    t->outstanding++;
  }

  /* negative test: a body flit on a VC with no packet in progress */
  if (t->opt.scenario == TB_SCEN_PROTO && !t->proto_done && !programming && cycle >= t->proto_at) {
    for (unsigned v = 0; v < t->V && !t->proto_done; v++) {
      if (t->snd[v].remaining || ((in->flit_mask & 1) && t->flit[0].vc == v)) continue;
      asw_flit *f = &t->flit[0];
      memset(f, 0, sizeof *f);
      f->valid = 1;
      f->tail = 1;
      f->vc = (uint8_t)v;
      in->flit_mask |= 1;
      t->proto_done = 1;
      t->proto_at = cycle;
    }
  }

  /* receivers return credits */
  for (unsigned o = 0; o < t->P; o++) {
    receiver *r = &t->rcv[o];
    if (t->opt.pfc >> o & 1u) { /* PFC: pause and resume priorities at random (§17.1) */
      if (programming) continue;
      unsigned v = rnd_below(t, t->V), paused = t->rpaused[o] >> v & 1u;
      int flip = draining ? t->rpaused[o] != 0 : r->withhold ? !paused && chance(t, 5)
                                                              : chance(t, 3);
      if (!flip) continue;
      if (draining) v = (unsigned)__builtin_ctz(t->rpaused[o]); /* resume all at the end */
      t->rpaused[o] ^= (uint8_t)(1u << v);
      t->credit_vc[o] = (uint8_t)v;
      in->credit_mask |= 1ULL << o;
      continue;
    }
    if (!r->count || (r->withhold && !draining)) continue;
    pending_credit *c = &r->ring[r->head];
    if (c->due > cycle) continue;
    t->credit_vc[o] = c->vc;
    in->credit_mask |= 1ULL << o;
    r->head = (r->head + 1) % r->cap;
    r->count--;
  }

  /* ARN inputs: real §15.6 messages with ARN on, else junk (ignored in mode 0). */
  if (t->directed) {
    if (!programming) tb_dir_inputs(t, cycle, in);
  } else if (t->arn_on && !programming && !draining) {
    tb_arn_stimulus(t, in);
  } else if (chance(t, 5)) {
    unsigned o = rnd_below(t, t->P);
    in->arn_mask |= 1ULL << o;
    t->arn[o] = (uint32_t)rnd(t);
  }

  /* register bus */
  if (!programming && t->wq_pos < t->wq_n) { /* directed scenarios' writes */
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = t->wq[t->wq_pos];
    in->reg_wdata = t->wq[t->wq_pos + 1];
    t->wq_pos += 2;
    if (t->wq_pos == t->wq_n) t->wq_pos = t->wq_n = 0;
    t->st.reg_writes++;
  } else if (!programming && t->restore_at && cycle >= t->restore_at) {
    in->reg_en = 1; /* restore ARN_CTRL after a random mode-0 clear */
    in->reg_we = 1;
    in->reg_addr = ASW_REG_ARN_CTRL;
    in->reg_wdata = t->arn_ctrl_cfg;
    t->restore_at = 0;
    t->st.reg_writes++;
  } else if (!programming && draining && t->opt.gap && t->gap_clear <= (t->P + 7) / 8) {
    /* §17.7: the drain at full speed (slowed outputs would outlast it): every PORT_GAP 0,
     * one register a cycle; gap_clear - 1 registers done (0: not started) */
    if (!t->gap_clear) t->gap_clear = 1;
    unsigned k = t->gap_clear - 1;
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = ASW_REG_PORT_GAP(k);
    in->reg_wdata = 0;
    t->gap_clear++;
    t->st.reg_writes++;
  } else if (!programming && t->sweep && tb_sweep_addr(t, t->sweep - 1)) {
    in->reg_en = 1;
    in->reg_addr = tb_sweep_addr(t, t->sweep - 1);
    in->reg_wdata = (uint32_t)rnd(t);
    t->sweep++;
    t->st.reg_reads++;
  } else if (programming) {
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = t->script[t->script_pos];
    in->reg_wdata = t->script[t->script_pos + 1];
    t->script_pos += 2;
    t->st.reg_writes++;
  } else if (rnd_below(t, t->reg_rate) == 0) {
    in->reg_en = 1;
    if (!t->directed && chance(t, t->rewrite_rate)) {
      in->reg_we = 1;
      tb_random_write(t, &in->reg_addr, &in->reg_wdata);
      t->st.reg_writes++;
    } else {
      in->reg_addr = tb_random_read_addr(t);
      in->reg_wdata = (uint32_t)rnd(t); /* ignored on reads */
      t->st.reg_reads++;
    }
  }
  tb_lane_inputs(t, in);
}

/* The receiver on output o returns a credit for VC vc after a random delay. */
static void receiver_credit(tb_traffic *t, unsigned o, unsigned vc, uint64_t cycle) {
  receiver *r = &t->rcv[o];
  uint64_t due = cycle + 1 + rnd_below(t, (t->directed ? r->maxd : t->max_delay) + 1);
  if (r->count) {
    uint64_t last = r->ring[(r->head + r->count - 1) % r->cap].due;
    if (due < last) due = last;
  }
  if (r->count < r->cap) {
    r->ring[(r->head + r->count) % r->cap] = (pending_credit){due, (uint8_t)vc};
    r->count++;
  }
}

void tb_outputs(tb_traffic *t, uint64_t cycle, const asw_outputs *out) {
  for (unsigned o = 0; o < t->P; o++) {
    if (!((out->flit_mask >> o) & 1)) continue;
    if (!(t->opt.pfc >> o & 1u)) /* a PFC receiver returns no credits */
      receiver_credit(t, o, out->flit[o].vc, cycle);
    if (t->opt.linkfault > 0) { /* flits still due of the packet in progress */
      uint8_t *rem = &t->rrem[o * t->V + out->flit[o].vc];
      *rem = out->flit[o].head ? (uint8_t)(ASW_HDR_LEN(out->flit[o].hdr) - 1) : (uint8_t)(*rem - 1);
    }
    t->st.flits_recv++;
    if (--t->outstanding == 0) t->st.drains++;
    if (t->opt.gap) { /* §17.7: at most one flit every GAP + 1 cycles */
      unsigned g = t->gap[o];
      if (g && t->gap_last[o] && t->gap_last[o] >= t->gap_since[o] + 32) {
        uint64_t dt = cycle - t->gap_last[o];
        t->gap_flits++;
        t->gap_spaced += dt == g + 1u;
        if (dt < g + 1u)
          tb_failf(t, "output %u: a flit %llu cycles after the previous one, GAP %u", o,
                   (unsigned long long)dt, g);
      }
      t->gap_last[o] = cycle;
    }
    const asw_flit *f = &out->flit[o];
    if (f->head && ASW_HDR_ADAPTED(f->hdr)) {
      unsigned src = ASW_HDR_SRC(f->hdr), seq = ASW_HDR_SEQ(f->hdr);
      if (src < t->P && !(t->sent_adapted[src * 8192 + seq / 8] >> seq % 8 & 1u)) t->marked++;
    }
    if (t->directed && f->head) tb_dir_output(t, o, f);
    if (t->opt.vcadapt && f->head && (rd(t, ASW_REG_ROUTE_CTRL) & 3u) == ASW_ROUTE_VCADAPT) {
      /* §16.3: on det_port, a VC outside the candidates W: the fallback (entry as now) */
      uint32_t e = rd(t, ASW_REG_FWD(ASW_HDR_DEST(f->hdr)));
      unsigned vlo = e >> 8 & 7u, vn = (e >> 11 & 7u) + 1;
      unsigned wm = (((1u << vn) - 1u) << vlo) & ((1u << t->V) - 1u);
      if (!wm) wm = 1;
      if ((e >> 31) && (e & 0x3Fu) == o && !(wm >> f->vc & 1u)) t->vca_fb_vc++;
    }
  }
  /* §18.3 at the far end of a down output: a packet cut after its head is padded there,
   * and the padding's credits come back like the flits' (the switch discards the rest). */
  for (uint64_t m = port_mask(t) & ~t->lf_up; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    for (unsigned v = 0; v < t->V; v++)
      for (; t->rrem[o * t->V + v]; t->rrem[o * t->V + v]--) {
        receiver_credit(t, o, v, cycle);
        t->lf_out_pad++;
      }
  }
  for (uint64_t m = out->arn_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    t->arn_out_msgs++;
    if (t->directed) tb_dir_arn_out(t, i, out->arn[i]);
  }
  for (unsigned p = 0; p < t->P; p++) {
    if (!((out->credit_mask >> p) & 1)) continue;
    sender_vc *s = &t->snd[p * t->V + out->credit_vc[p]];
    if (t->opt.pfc >> p & 1u) s->credits = s->credits ? 0 : t->cfg.buf_flits; /* a PFC frame */
    else s->credits++;
  }
  for (unsigned k = 0; k < t->P * t->V; k++) {
    int full = t->snd[k].credits == 0;
    if (full && !t->was_full[k]) t->st.fills++;
    t->was_full[k] = (uint8_t)full;
  }
}

void tb_observe(tb_traffic *t, const asw_switch *ref, uint64_t cycle, const asw_inputs *in) {
  t->ref = ref;
  t->now = cycle;
  if (in->reg_en && in->reg_we && getenv("TB_TRACE_REGS"))
    fprintf(stderr, "c%llu W 0x%05x 0x%08x errs %u\n", (unsigned long long)cycle, in->reg_addr,
            in->reg_wdata, rd(t, ASW_REG_REG_ERRORS));
  tb_features_observe(t, cycle, in); /* counter totals, own models (tb_stim.h) */
}

int tb_check_end(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->fail[0]) {
    snprintf(msg, msglen, "%s", t->fail);
    return -1;
  }
  if (t->directed && !t->done) {
    snprintf(msg, msglen, "scenario %s did not reach its end (CYCLES too small?)",
             tb_scenario_name(t->opt.scenario));
    return -1;
  }
  if (tb_features_check(t, msg, msglen)) return -1; /* §15, §16.1, §16.3, §18 */
  if (t->opt.linkfault <= 0 && t->st.flits_sent != t->st.flits_recv) {
    snprintf(msg, msglen, "conservation: %llu flits sent, %llu received after the drain",
             (unsigned long long)t->st.flits_sent, (unsigned long long)t->st.flits_recv);
    return -1;
  }
  for (unsigned p = 0; p < t->P; p++) {
    for (unsigned v = 0; v < t->V; v++) {
      const sender_vc *s = &t->snd[p * t->V + v];
      if (s->remaining || s->credits != t->cfg.buf_flits) {
        snprintf(msg, msglen, "input %u VC %u: %u credits back of %u (%u flits unsent)", p, v,
                 s->credits, t->cfg.buf_flits, s->remaining);
        return -1;
      }
    }
  }
  return 0;
}

uint64_t tb_proto_cycle(const tb_traffic *t) { return t->proto_done ? t->proto_at : UINT64_MAX; }

void tb_get_stats(const tb_traffic *t, tb_stats *s) { *s = t->st; }

