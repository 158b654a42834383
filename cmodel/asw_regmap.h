/* asw_regmap.h — the switch's definitions below its API (contract §1, §2, §11,
 * §15-§18): error codes, the elaboration parameters (asw_config, feature bits),
 * the flit header's fields, register addresses, counter indices, field encoders
 * and message formats (ARN, CNM). The blocks (one .c per block in cmodel/) include it,
 * never the public asw_switch.h, which includes it for its users. The register
 * addresses are generated from rtl/regs.rdl (sw/rdl_regs.py --write, make regmap;
 * make test-rdl fails if they differ). */
#ifndef ASW_REGMAP_H
#define ASW_REGMAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif


/* Error codes (explicit returns; 0 is success). */
enum {
  ASW_OK = 0,
  ASW_EINVAL = -1, /* illegal parameter / register value */
  ASW_ENOMEM = -2, /* allocation failed */
  ASW_EPROTO = -3, /* link-protocol violation on an input (contract §2, §9) */
};

/* Elaboration parameters (contract §1). */
typedef struct {
  unsigned ports;         /* P: 2..64 */
  unsigned vcs;           /* V: 1..8 */
  unsigned buf_flits;     /* BUF: LMAX..16384, V*BUF <= 65536 */
  unsigned max_packet;    /* LMAX: 1..255, <= BUF */
  unsigned payload_bits;  /* PW: 0..64 */
  unsigned dest_bits;     /* DW: 1..16 */
  unsigned table_entries; /* TABLE: 1..2^DW */
  unsigned voq;           /* 0 or 1 */
  unsigned iters;         /* ITERS: 1..4 */
  unsigned arn_entries;   /* AE: ARN-table entries 0..32 (0: no ARN, §15) */
  unsigned sar_entries;   /* SE: Switch AR table entries 0..32 (0: no Switch AR, §17.8;
                           * none either without qcn); 0 in a zero-initialised config */
  /* Optional hardware (§1), one setting per feature: 1 built, 0 left out (no logic, its
   * registers unmapped: read 0, writes illegal, as §15's with AE = 0). All 0 (off) in
   * asw_config_default and in a zero-initialised config. */
  unsigned bubble;        /* §16.1 bubble flow control, §16.2 registers */
  unsigned pfc;           /* §17.1 PFC link mode, §17.2 registers */
  unsigned qcn;           /* §17.4 QCN congestion point (also needed by Switch AR, §17.8) */
  unsigned route_hash;    /* §17.6 ROUTE_HASH (off: oblivious routes from the LFSR only) */
  unsigned link_faults;   /* §18 link faults (off: links always up, asw_switch_set_link_up
                           * refuses a link down) */
  unsigned port_rate;     /* §17.7 output port rate, PORT_GAP registers */
  unsigned vc_adaptive;   /* §16.3 VC-adaptive routing (off: ROUTE_CTRL mode 3 illegal) */
  unsigned oblivious;     /* §7.3 oblivious routing, ROUTE_CTRL mode 1, the input LFSRs and
                           * LFSR_SEED (off: mode 1 illegal, LFSR_SEED unmapped) */
  unsigned adaptive;      /* §7.3 adaptive routing, ROUTE_CTRL mode 2: the credit search,
                           * triggers, THRESH, the 2TH flags (off: mode 2 illegal, THRESH
                           * unmapped) */
  unsigned counters;      /* §12 every event counter (the per-port, ARN, bubble, PFC, QCN,
                           * Switch AR and link counters) and CNT_CLEAR (off: they read 0,
                           * CNT_CLEAR unmapped) */
  unsigned readback;      /* §11 OCC and CRED read-back (off: unmapped, read 0) */
  unsigned sa_pipe;       /* SAPIPE: 0 iSLIP (§8), 1 pipelined allocation (§8.1; needs
                           * iters = 1 and vc_adaptive off); 0 in a zero-initialised config */
} asw_config;

/* The features as bits (contract §11: PARAM2 bit 23 + k reads feature k as built for
 * k = 0..8, PARAM3 bit 6 + (k - 9) for k = 9..10). */
#define ASW_FEAT_BUBBLE 1u
#define ASW_FEAT_PFC 2u
#define ASW_FEAT_QCN 4u
#define ASW_FEAT_LINK_FAULTS 8u
#define ASW_FEAT_VC_ADAPTIVE 16u
#define ASW_FEAT_ROUTE_HASH 32u
#define ASW_FEAT_PORT_RATE 64u
#define ASW_FEAT_OBLIVIOUS 128u
#define ASW_FEAT_ADAPTIVE 256u
#define ASW_FEAT_COUNTERS 512u
#define ASW_FEAT_READBACK 1024u
#define ASW_FEAT_ALL 2047u
#define ASW_FEAT_COUNT 11u
/* cfg's features as ASW_FEAT_* bits (a field > 1 counts as on). */
unsigned asw_config_features(const asw_config *cfg);
/* Sets every feature field of cfg from mask (ASW_FEAT_* bits). */
void asw_config_set_features(asw_config *cfg, unsigned mask);
/* The name of feature bit k (0..ASW_FEAT_COUNT-1): "bubble", "pfc", "qcn", "link_faults",
 * "vc_adaptive", "route_hash", "port_rate", "oblivious", "adaptive", "counters",
 * "readback"; NULL for other k. */
const char *asw_feature_name(unsigned k);
/* Sets the feature named name (asw_feature_name) to on (0/1); ASW_EINVAL if no such name. */
int asw_config_set_feature(asw_config *cfg, const char *name, unsigned on);

/* Header fields (contract §2). */
#define ASW_HDR_DEST(h) ((unsigned)((h)&0xFFFFu))
#define ASW_HDR_SRC(h) ((unsigned)(((h) >> 16) & 0xFFFFu))
#define ASW_HDR_SL(h) ((unsigned)(((h) >> 32) & 0xFu))
#define ASW_HDR_LEN(h) ((unsigned)(((h) >> 36) & 0xFFu))
#define ASW_HDR_ADAPTED(h) ((unsigned)(((h) >> 44) & 1u))
#define ASW_HDR_ORIG_VC(h) ((unsigned)(((h) >> 45) & 7u))
#define ASW_HDR_SEQ(h) ((unsigned)(((h) >> 48) & 0xFFFFu))
static inline uint64_t asw_hdr_make(unsigned dest, unsigned src, unsigned sl,
                                    unsigned len, unsigned adapted,
                                    unsigned orig_vc, unsigned seq) {
  return (uint64_t)(dest & 0xFFFFu) | ((uint64_t)(src & 0xFFFFu) << 16) |
         ((uint64_t)(sl & 0xFu) << 32) | ((uint64_t)(len & 0xFFu) << 36) |
         ((uint64_t)(adapted & 1u) << 44) | ((uint64_t)(orig_vc & 7u) << 45) |
         ((uint64_t)(seq & 0xFFFFu) << 48);
}

/* Register addresses. A feature's registers are mapped only with it (§1): the ARN ones
 * (§15.8) if AE >= 1, §16.2 with cfg.bubble, §18.4 (all RO) with cfg.link_faults, §17.2
 * with cfg.pfc, §17.4 with cfg.qcn, ROUTE_HASH (§17.6) with cfg.route_hash, PORT_GAP
 * (§17.7) with cfg.port_rate, §17.8 if cfg.sar_entries >= 1 and cfg.qcn. */
/* BEGIN generated by sw/rdl_regs.py from rtl/regs.rdl: do not edit (make regmap) */
/* Register word addresses (the contract's sections whose tables list them): an
 * array register is a macro of its indices, row-major. */
#define ASW_REG_ID 0x00000u                                            /* §11 */
#define ASW_REG_PARAM0 0x00001u                                        /* §11 */
#define ASW_REG_PARAM1 0x00002u                                        /* §11 */
#define ASW_REG_PARAM2 0x00003u                                        /* §11 */
#define ASW_REG_PARAM3 0x00004u                                        /* §11, §17.8 */
#define ASW_REG_ROUTE_CTRL 0x00010u                                    /* §11 */
#define ASW_REG_VC_CTRL 0x00011u                                       /* §11 */
#define ASW_REG_THRESH 0x00012u                                        /* §11 */
#define ASW_REG_LFSR_SEED 0x00013u                                     /* §11 */
#define ASW_REG_DEFAULT_PORT 0x00014u                                  /* §11 */
#define ASW_REG_CNT_CLEAR 0x00015u                                     /* §11 */
#define ASW_REG_REG_ERRORS 0x00016u                                    /* §11 */
#define ASW_REG_LINK_DOWN(w) (0x00018u + (w))                          /* §11, §18.4 */
#define ASW_REG_LINK_RX_DOWN(w) (0x0001Au + (w))                       /* §11, §18.4 */
#define ASW_REG_LINK_COUNTER(k) (0x0001Cu + (k))                       /* §11, §18.4 */
#define ASW_REG_ARN_CTRL 0x00020u                                      /* §11, §15.8 */
#define ASW_REG_ARN_UP(w) (0x00021u + (w))                             /* §11, §15.8 */
#define ASW_REG_CD_THRESH 0x00023u                                     /* §11, §15.8 */
#define ASW_REG_FCTH 0x00024u                                          /* §11, §15.8 */
#define ASW_REG_CRT 0x00025u                                           /* §11, §15.8 */
#define ASW_REG_ARN_TTL 0x00026u                                       /* §11, §15.8 */
#define ASW_REG_PFC_EN(w) (0x00040u + (w))                             /* §11, §17.2 */
#define ASW_REG_PFC_THRESH 0x00042u                                    /* §11, §17.2 */
#define ASW_REG_QCN_CTRL 0x00043u                                      /* §11, §17.4 */
#define ASW_REG_QCN_QEQ 0x00044u                                       /* §11, §17.4 */
#define ASW_REG_QCN_SAMPLE 0x00045u                                    /* §11, §17.4 */
#define ASW_REG_QCN_SEED 0x00046u                                      /* §11, §17.4 */
#define ASW_REG_ROUTE_HASH 0x00047u                                    /* §11 */
#define ASW_REG_PORT_GAP(k) (0x00048u + (k))                           /* §11 */
#define ASW_REG_SAR_CTRL 0x00050u                                      /* §11, §17.8 */
#define ASW_REG_SAR_TTL 0x00051u                                       /* §11, §17.8 */
#define ASW_REG_SAR_SEED 0x00052u                                      /* §11, §17.8 */
#define ASW_REG_CSET(c, w) (0x00100u + 2u * (c) + (w))                 /* §11 */
#define ASW_REG_SL2VC(o, s) (0x01000u + 16u * (o) + (s))               /* §11 */
#define ASW_REG_COUNTER(p, k) (0x02000u + 8u * (p) + (k))              /* §11 */
#define ASW_REG_ARN_COUNTER(p, k) (0x02800u + 16u * (p) + (k))         /* §11, §15.8 */
#define ASW_REG_ARN_ENTRY(e, w) (0x03000u + 4u * (e) + (w))            /* §11, §15.8 */
#define ASW_REG_ROOT(o, w) (0x03100u + 2u * (o) + (w))                 /* §11, §15.8 */
#define ASW_REG_BUBBLE(o) (0x04000u + (o))                             /* §11, §16.2 */
#define ASW_REG_BUBBLE_COUNTER(p, k) (0x04040u + 2u * (p) + (k))       /* §11, §16.2 */
#define ASW_REG_PFC_COUNTER(p, k) (0x06000u + 4u * (p) + (k))          /* §11, §17.2 */
#define ASW_REG_PFC_STATE(p) (0x06100u + (p))                          /* §11, §17.2 */
#define ASW_REG_QCN_COUNTER(p, k) (0x06200u + 2u * (p) + (k))          /* §11, §17.4 */
#define ASW_REG_QCN_QLEN(p) (0x06280u + (p))                           /* §11, §17.4 */
#define ASW_REG_SAR_COUNTER(p, k) (0x06300u + 8u * (p) + (k))          /* §11, §17.8 */
#define ASW_REG_SAR_ENTRY(e, w) (0x06700u + 2u * (e) + (w))            /* §11, §17.8 */
#define ASW_REG_OCC(i, v, q) (0x40000u + 512u * (i) + 64u * (v) + (q)) /* §11 */
#define ASW_REG_CRED(o, v) (0x50000u + 8u * (o) + (v))                 /* §11 */
#define ASW_REG_FWD(d) (0x80000u + (d))                                /* §11 */
#define ASW_ID_VALUE 0x41535731u /* ID reads it */
/* END generated by sw/rdl_regs.py */
/* Direct networks (§16.2). */
enum { /* counter index k of ASW_REG_BUBBLE_COUNTER */
  ASW_BCNT_RING_ENTER = 0,
  ASW_BCNT_BUBBLE_STALL = 1,
  ASW_BCNT_NUM = 2,
};
/* BUBBLE[o]: the input continuing the ring of o and the VCs under the rule. */
static inline uint32_t asw_bubble_entry(unsigned ring_in, unsigned ring_valid,
                                        unsigned vcs) {
  return (ring_in & 0x3Fu) | (ring_valid & 1u) << 6 | (vcs & 0xFFu) << 8;
}
enum { ASW_ARN_OFF = 0, ASW_ARN_ON = 1, ASW_ARN_AFI = 2 };
enum { /* counter index k of ASW_REG_ARN_COUNTER */
  ASW_ACNT_ROOTS = 0,
  ASW_ACNT_SENT = 1,
  ASW_ACNT_RECEIVED = 2,
  ASW_ACNT_CONSUMED = 3,
  ASW_ACNT_EXPIRED = 4,
  ASW_ACNT_ADAPTED = 5,
  ASW_ACNT_IN_DROPPED = 6,
  ASW_ACNT_OUT_DROPPED = 7,
  ASW_ACNT_EVICTED = 8,
  ASW_ACNT_NUM = 9,
};
static inline uint32_t asw_arn_ctrl(unsigned mode, unsigned mark_adapted) {
  return (mode & 3u) | (mark_adapted & 1u) << 2;
}
/* ARN_CTRL options (§15.3, §15.5; seed 001 §3.4 text): adapted packets send
 * ARNs with their orig_vc; a consumed entry is refreshed by the ARNs that
 * come back on its alt_port. */
#define ASW_ARN_CTRL_ADAPTED_ARN (1u << 3)
#define ASW_ARN_CTRL_ALT_REFRESH (1u << 4)
/* ARN message (§15.6). */
static inline uint32_t asw_arn_msg(unsigned dest, unsigned vc, unsigned stage,
                                   unsigned id) {
  return (dest & 0xFFFFu) | (vc & 7u) << 16 | (stage & 0xFu) << 19 |
         (id & 0x1FFu) << 23;
}
#define ASW_ARN_DEST(m) ((unsigned)((m)&0xFFFFu))
#define ASW_ARN_VC(m) ((unsigned)((m) >> 16 & 7u))
#define ASW_ARN_STAGE(m) ((unsigned)((m) >> 19 & 0xFu))
#define ASW_ARN_ID(m) ((unsigned)((m) >> 23 & 0x1FFu))

/* Link faults (§18.4). */
enum { /* counter index k of ASW_REG_LINK_COUNTER (§18.4) */
  ASW_LCNT_FLITS_DISCARDED = 0,
  ASW_LCNT_PACKETS_DISCARDED = 1,
  ASW_LCNT_PACKETS_CUT = 2,
  ASW_LCNT_FLITS_PADDED = 3,
  ASW_LCNT_NUM = 4
};
/* PFC link mode (§17.2). */
enum { /* counter index k of ASW_REG_PFC_COUNTER */
  ASW_PCNT_SENT = 0,     /* frames sent upstream by input p */
  ASW_PCNT_RECEIVED = 1, /* frames received on output p */
  ASW_PCNT_NUM = 2,
};
static inline uint32_t asw_pfc_thresh(unsigned xoff, unsigned xon) {
  return (xoff & 0xFFFFu) | (xon & 0xFFFFu) << 16;
}

/* Switch AR (§17.8). */
enum { /* counter index k of ASW_REG_SAR_COUNTER */
  ASW_SCNT_RX = 0,         /* CNM words received on the port's lane */
  ASW_SCNT_TX = 1,         /* sent on it */
  ASW_SCNT_DROPPED = 2,    /* rx[p] or loc[p] still full: word dropped */
  ASW_SCNT_UNROUTABLE = 3, /* FWD[src] invalid: word forwarded nowhere */
  ASW_SCNT_EVICTED = 4,    /* table full: this port's entry overwritten */
  ASW_SCNT_EXPIRED = 5,    /* this port's entry timed out */
  ASW_SCNT_NUM = 6,
};
static inline uint32_t asw_sar_ctrl(unsigned en, unsigned steer) {
  return (en & 1u) | (steer & 1u) << 1;
}
/* SAR_CTRL.decay [6:2] (§17.8): 0 off; 1..24: levels step down every 2^decay cycles. */
static inline uint32_t asw_sar_ctrl_decay(unsigned en, unsigned steer, unsigned decay) {
  return asw_sar_ctrl(en, steer) | (decay & 0x1Fu) << 2;
}
static inline uint32_t asw_sar_ttl(unsigned ttl, unsigned ts) {
  return (ttl & 0xFFFFFFu) | (ts & 0x1Fu) << 24;
}
/* §17.7 output port rate: PORT_GAP[k], bits 4j+3..4j the GAP of port 8k + j (k 0..7):
 * output o sends at most one flit every GAP + 1 cycles. */
static inline uint32_t asw_port_gap_field(unsigned port, unsigned gap) {
  return (gap & 0xFu) << (4u * (port & 7u));
}
/* GAP of port 8k + j in a PORT_GAP[k] value d */
#define ASW_PORT_GAP_OF(d, j) ((unsigned)((d) >> (4u * (j)) & 0xFu))
enum { ASW_RH_OFF = 0, ASW_RH_FLOW = 1, ASW_RH_SRC_DIGIT = 2 };
#define ASW_RH_KIND(r) ((unsigned)(r)&3u)
#define ASW_RH_SHIFT(r) ((unsigned)((r) >> 4 & 0xFu))
#define ASW_RH_BITS(r) ((unsigned)((r) >> 8 & 0xFu))
static inline uint32_t asw_route_hash_reg(unsigned kind, unsigned shift, unsigned bits) {
  return (kind & 3u) | (shift & 0xFu) << 4 | (bits & 0xFu) << 8;
}
enum { /* counter index k of ASW_REG_QCN_COUNTER */
  ASW_QCNT_CNM = 0,     /* CNMs sent by output p's congestion point */
  ASW_QCNT_SAMPLES = 1, /* frames it sampled */
  ASW_QCNT_NUM = 2,
};
static inline uint32_t asw_qcn_ctrl(unsigned en, unsigned wl, unsigned fbsh,
                                    unsigned cpid) {
  return (en & 1u) | (wl & 3u) << 1 | (fbsh & 0xFu) << 4 | (cpid & 0xFFFFu) << 16;
}
/* CNM word (§17.4): culprit source (where it goes), the sampled frame's
 * destination, quantized |Fb| 1..63, output port and congestion-point id. */
#define ASW_CNM_SRC(m) ((unsigned)((m)&0xFFFFu))
#define ASW_CNM_DEST(m) ((unsigned)((m) >> 16 & 0xFFFFu))
#define ASW_CNM_FB(m) ((unsigned)((m) >> 32 & 0x3Fu))
#define ASW_CNM_PORT(m) ((unsigned)((m) >> 40 & 0x3Fu))
#define ASW_CNM_CPID(m) ((unsigned)((m) >> 48 & 0xFFFFu))
static inline uint64_t asw_cnm_make(unsigned src, unsigned dest, unsigned fb,
                                    unsigned port, unsigned cpid) {
  return (uint64_t)(src & 0xFFFFu) | (uint64_t)(dest & 0xFFFFu) << 16 |
         (uint64_t)(fb & 0x3Fu) << 32 | (uint64_t)(port & 0x3Fu) << 40 |
         (uint64_t)(cpid & 0xFFFFu) << 48;
}

enum { /* counter index k of ASW_REG_COUNTER */
  ASW_CNT_FLITS_IN = 0,
  ASW_CNT_FLITS_OUT = 1,
  ASW_CNT_PACKETS_IN = 2,
  ASW_CNT_PACKETS_OUT = 3,
  ASW_CNT_CREDIT_STALL = 4,
  ASW_CNT_SA_LOST = 5,
  ASW_CNT_ROUTE_ERRORS = 6,
  ASW_CNT_ADAPTIVE = 7,
};

enum { ASW_ROUTE_DET = 0, ASW_ROUTE_OBLIVIOUS = 1, ASW_ROUTE_ADAPTIVE = 2,
       ASW_ROUTE_VCADAPT = 3 /* §16.3, VOQ = 0 only */ };
enum { ASW_TRIG_NOTH = 0, ASW_TRIG_TH = 1, ASW_TRIG_2TH = 2 };
static inline uint32_t asw_route_ctrl(unsigned mode, unsigned trigger,
                                      unsigned stage_mask, unsigned stage) {
  return (mode & 3u) | ((trigger & 3u) << 2) | ((stage_mask & 0xFFu) << 4) |
         ((stage & 0xFu) << 12);
}
static inline uint32_t asw_fwd_entry(unsigned det_port, unsigned lookahead,
                                     unsigned cset, unsigned multipath) {
  return (det_port & 0x3Fu) | ((lookahead & 0x3Fu) << 8) |
         ((cset & 3u) << 16) | ((multipath & 1u) << 30) | (1u << 31);
}

#ifdef __cplusplus
}
#endif
#endif
