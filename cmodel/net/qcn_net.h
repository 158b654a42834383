/* qcn_net.h — QCN in the network simulator (contract §17.5): the transport
 * of the switches' congestion notification messages (CNM, §17.4) to the
 * culprit sources, and the reaction points (per-flow rate limiters of
 * QCN 2.2) at the sources.
 *
 * Time is in cycles; a flit is 64 bytes and a link carries one flit per
 * cycle, so the line rate is 512 bits per cycle (10 Gb/s at cycle_ns 51.2).
 * Rates are kept as fractions of the line rate.
 */
#ifndef NET_QCN_NET_H
#define NET_QCN_NET_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  unsigned nodes;
  int rl;              /* reaction points on (rl=on); off: CNMs only counted */
  double gd;           /* decrease: CR *= 1 - gd * q / 63 (q: 6-bit |Fb|) */
  double min_rate;     /* fraction of the line rate */
  double ai, hai;      /* active / hyper-active increase, fractions */
  unsigned fr;         /* fast-recovery threshold (stages) */
  uint64_t bc_flits;   /* byte-counter limit, flits */
  uint64_t timer;      /* RL timer, cycles */
} qcn_rp_params;

typedef struct qcn_net qcn_net;

qcn_net *qcn_net_new(const qcn_rp_params *p, char *err, size_t errlen);
void qcn_net_free(qcn_net *q);

/* A CNM word (ASW_CNM_*) leaves a switch; it reaches its culprit source at
 * cycle `at`. */
int qcn_net_send(qcn_net *q, uint64_t at, uint64_t cnm);
/* Applies the CNMs due at or before `now` to the reaction points, in the
 * order they were sent. */
void qcn_net_deliver(qcn_net *q, uint64_t now);
/* 1 if flow (src, dest) may start a packet at cycle now (no rate limiter,
 * or its next start time has come). */
int qcn_net_ready(qcn_net *q, unsigned src, unsigned dest, uint64_t now);
/* The head of a len-flit packet of flow (src, dest) is injected at now. */
void qcn_net_sent(qcn_net *q, unsigned src, unsigned dest, unsigned len, uint64_t now);

typedef struct {
  uint64_t cnm_sent;      /* CNMs handed over by the switches */
  uint64_t cnm_delivered; /* CNMs that reached their source */
  uint64_t rl_created;    /* rate limiters instantiated */
  uint64_t rl_released;   /* rate limiters back at line rate, released */
  uint64_t rl_active;     /* rate limiters active now */
  double rl_min_rate;     /* lowest current rate reached (fraction; 1 if none) */
  uint64_t qlen_max;      /* largest congestion-point queue seen (flits) */
  double qlen_max_mean;   /* mean over the samples of the largest queue */
  uint64_t qlen_samples;
} qcn_net_stats;
/* One sample of the largest congestion-point queue of the network (flits). */
void qcn_net_queue_sample(qcn_net *q, uint64_t max_qlen);
void qcn_net_get_stats(const qcn_net *q, qcn_net_stats *s);

/* Reaction point of one flow, exposed for the unit tests. */
typedef struct {
  uint8_t active, bs, ts; /* byte-counter and timer stages */
  double cr, tr;          /* current and target rate, fractions of line */
  uint64_t bc;            /* flits sent since the last byte-counter event */
  double next_send;       /* earliest start of the next packet (cycle) */
  uint64_t timer_at;      /* next timer event (cycle) */
} qcn_rp;
/* The three events of a reaction point (QCN 2.2): a CNM with 6-bit
 * feedback q; len flits sent at cycle now; time passing to now. Return 1 if
 * the rate limiter was created (cnm) or released (the others). */
int qcn_rp_cnm(const qcn_rp_params *p, qcn_rp *r, unsigned q, uint64_t now);
int qcn_rp_sent(const qcn_rp_params *p, qcn_rp *r, unsigned len, uint64_t now);
int qcn_rp_time(const qcn_rp_params *p, qcn_rp *r, uint64_t now);

#endif
