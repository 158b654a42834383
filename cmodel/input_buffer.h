/* input_buffer.h — buffer of one input port (contract §4, §6, §8).
 *
 * B = V*BUF slots shared by the port's VCs, a free list (a stack of slot
 * numbers), flits of a packet chained slot to slot (flit_next), packets
 * chained into V*NQ queues by their head slots (pkt_next), vc_last per VC,
 * occupancy counters, and the link-protocol state of each input VC (flits
 * still due in the current packet, flits held or due against the BUF
 * credits of the upstream).
 *
 * Internal to the C model: the struct is visible so the switch can embed it
 * and the hot helpers can be inlined; callers outside cmodel/ use
 * asw_switch.h. Slots are handed out from a LIFO free list and, before that,
 * from never-used slots in order, so memory that is never needed is never
 * touched (large calloc'ed buffers stay virtual).
 */
#ifndef ASW_INPUT_BUFFER_H
#define ASW_INPUT_BUFFER_H

#include <stddef.h>
#include <stdint.h>

enum { ASW_SLOT_HEAD = 1, ASW_SLOT_TAIL = 2 };

typedef struct {
  uint64_t payload;
  uint64_t hdr;       /* head slots only */
  uint16_t flit_next; /* next flit of the packet (valid once written) */
  uint16_t pkt_next;  /* next packet of the queue (head slots) */
  uint8_t oport;      /* route (head slots, set by RC) */
  uint8_t ovc;        /* [2:0] route VC, [5:3] fallback VC, [6] fallback on (§16.3) */
  uint8_t len;        /* packet length (head slots) */
  uint8_t flags;      /* [1:0] ASW_SLOT_HEAD | ASW_SLOT_TAIL, [7:2] fallback port (§16.3) */
} asw_slot;

/* One queue: everything SA, RC and ST touch in one cache line access. */
typedef struct {
  uint16_t head, tail; /* slots, valid if the queue is non-empty */
  uint32_t info;       /* head packet's fport << 24 | oport << 16 | ovc byte << 8 |
                          len (ASW_QINFO_*), so SA need not touch the slot memory */
  uint32_t occ;        /* occupancy (§4) */
} asw_queue;

/* Queue descriptors kept inside the buffer record when V*NQ is at most this
 * (one VC without VOQs, two VCs): no separate line to fetch. */
enum { ASW_IBUF_QINLINE = 2 };

typedef struct {
  /* Line 0: what every write, release and flit check touches. Line 1: the
   * rest of the per-VC state of VC 0 and, for V*NQ <= 2, the queues. Line 2
   * (nonempty[]) is read with VOQs and written only when a queue empties or
   * fills. So one VC without VOQs (the big runs) touches two lines per input,
   * and nothing outside the record but the slots. */
  _Alignas(64) asw_slot *slot; /* [slots] */
  asw_queue *q;        /* [V*NQ] queue (v, q) at index v*NQ + q (q_in for
                          V*NQ <= ASW_IBUF_QINLINE) */
  uint32_t free_count; /* slots on the free list */
  uint32_t free_top;   /* the next slot handed out if free_count != 0; the
                          free list is LIFO, linked through the free slots'
                          flit_next (the slot a release frees is the one its
                          flit was just read from, and the slot a write
                          takes is written anyway: no other memory) */
  uint32_t fresh;      /* slots [fresh, slots) never used since reset */
  uint32_t used;       /* slots holding a flit */
  unsigned vcs, nq, buf;
  unsigned nonempty_vcs; /* bit v: some queue of VC v is non-empty */
  uint16_t vc_due[8];  /* flits still expected of the current packet */
  unsigned slots;
  uint16_t vc_held[8]; /* flits held plus due: never above BUF */
  uint16_t vc_last[8]; /* slot of the last flit written on each VC */
  asw_queue q_in[ASW_IBUF_QINLINE];
  int own_slots;       /* slot storage allocated by asw_ibuf_init */
  uint64_t nonempty[8]; /* bit q: queue (v, q) is non-empty */
} asw_ibuf;
_Static_assert(sizeof(asw_ibuf) == 192, "asw_ibuf: three cache lines");

/* Sets up a buffer of vcs*buf slots and vcs*nq queues, in reset state.
 * slots: zeroed storage for vcs*buf slots owned by the caller (a switch
 * gives each port a slice of one large calloc, which the OS maps lazily),
 * or NULL to allocate it here. Returns 0, or -1 if allocation failed
 * (nothing left allocated). */
int asw_ibuf_init(asw_ibuf *b, unsigned vcs, unsigned buf, unsigned nq,
                  asw_slot *slots);
void asw_ibuf_destroy(asw_ibuf *b);
void asw_ibuf_reset(asw_ibuf *b);

/* Link-protocol check of a flit about to arrive on VC vc (§2): head only
 * when no packet is in progress on vc, len in 1..lmax, len credits
 * available (flits held or due + len <= BUF), tail exactly on the last flit.
 * len is the header's len (used for head flits only). Returns 0 if legal,
 * else -1 with a message in err. Does not change state. */
int asw_ibuf_check(const asw_ibuf *b, unsigned vc, int head, int tail,
                   unsigned len, unsigned lmax, char *err, size_t errlen);

/* Fast form of asw_ibuf_check without the message: 1 if legal. */
static inline int asw_ibuf_flit_ok(const asw_ibuf *b, unsigned vc, int head,
                                   int tail, unsigned len, unsigned lmax) {
  if (vc >= b->vcs) return 0;
  unsigned due = b->vc_due[vc];
  if (head) {
    if (due || len < 1 || len > lmax || b->vc_held[vc] + len > b->buf) return 0;
    due = len;
  } else if (!due) {
    return 0;
  }
  return !!tail == (due == 1);
}

/* Input write (§6): stores a (checked) flit on VC vc in a free slot, links
 * it to the previous flit of its packet, updates vc_last. Returns the slot. */
static inline unsigned asw_ibuf_write(asw_ibuf *b, unsigned vc, int head,
                                      int tail, uint64_t hdr,
                                      uint64_t payload) {
  unsigned s;
  if (b->free_count) {
    s = b->free_top;
    b->free_count--;
    b->free_top = b->slot[s].flit_next;
  } else {
    s = b->fresh++;
  }
  b->used++;
  asw_slot *sl = &b->slot[s];
  sl->payload = payload;
  sl->flags = (uint8_t)((head ? ASW_SLOT_HEAD : 0) | (tail ? ASW_SLOT_TAIL : 0));
  if (head) {
    unsigned len = (unsigned)((hdr >> 36) & 0xFFu);
    sl->hdr = hdr;
    sl->len = (uint8_t)len;
    b->vc_held[vc] = (uint16_t)(b->vc_held[vc] + len);
    b->vc_due[vc] = (uint16_t)len;
  } else {
    sl->hdr = 0;
    b->slot[b->vc_last[vc]].flit_next = (uint16_t)s;
  }
  b->vc_due[vc]--;
  b->vc_last[vc] = (uint16_t)s;
  return s;
}

/* asw_queue.info value of a head slot. */
static inline uint32_t asw_ibuf_head_info(const asw_slot *h) {
  return (uint32_t)(h->flags >> 2) << 24 | (uint32_t)h->oport << 16 | (uint32_t)h->ovc << 8 |
         h->len;
}

/* Appends the packet whose head is in `slot` (len, oport, ovc already set)
 * to queue (vc, q) and adds len to its occupancy (§7.8). */
static inline void asw_ibuf_append(asw_ibuf *b, unsigned vc, unsigned q,
                                   unsigned slot) {
  asw_queue *qu = &b->q[vc * b->nq + q];
  /* one queue per VC: nonempty_vcs says it (nonempty[] is not read) */
  if ((b->nq == 1 ? b->nonempty_vcs >> vc : b->nonempty[vc] >> q) & 1u) {
    b->slot[qu->tail].pkt_next = (uint16_t)slot;
  } else {
    qu->head = (uint16_t)slot;
    qu->info = asw_ibuf_head_info(&b->slot[slot]);
    b->nonempty[vc] |= 1ull << q;
    b->nonempty_vcs |= 1u << vc;
  }
  qu->tail = (uint16_t)slot;
  qu->occ += b->slot[slot].len;
}

/* Pops the head packet of the non-empty queue (vc, q); returns its slot. */
static inline unsigned asw_ibuf_pop(asw_ibuf *b, unsigned vc, unsigned q) {
  asw_queue *qu = &b->q[vc * b->nq + q];
  unsigned s = qu->head;
  if (qu->tail == s) {
    b->nonempty[vc] &= ~(1ull << q);
    if (!b->nonempty[vc]) b->nonempty_vcs &= ~(1u << vc);
  } else {
    unsigned h = b->slot[s].pkt_next;
    qu->head = (uint16_t)h;
    qu->info = asw_ibuf_head_info(&b->slot[h]);
  }
  return s;
}

/* Cut-through rule (§8): the flit in `slot` (on VC vc) may leave now. */
static inline int asw_ibuf_sendable(const asw_ibuf *b, unsigned vc,
                                    unsigned slot) {
  return (b->slot[slot].flags & ASW_SLOT_TAIL) || b->vc_last[vc] != slot;
}

/* Index in q[] of queue (vc, q). */
static inline unsigned asw_ibuf_queue_index(const asw_ibuf *b, unsigned vc,
                                            unsigned q) {
  return vc * b->nq + q;
}

/* The flit in `slot` (VC vc, queue q; qidx = asw_ibuf_queue_index(b, vc,
 * q)) has left: frees the slot, takes one from the queue's occupancy and
 * from the VC's held credits. Returns the slot of the next flit
 * (meaningless for a tail). */
static inline unsigned asw_ibuf_release_at(asw_ibuf *b, unsigned vc,
                                           unsigned qidx, unsigned slot) {
  unsigned next = b->slot[slot].flit_next;
  b->q[qidx].occ--;
  b->vc_held[vc]--;
  b->used--;
  b->slot[slot].flit_next = (uint16_t)b->free_top;
  b->free_top = slot;
  b->free_count++;
  return next;
}
/* The same with the queue's (vc, q). */
static inline unsigned asw_ibuf_release(asw_ibuf *b, unsigned vc,
                                        unsigned q, unsigned slot) {
  return asw_ibuf_release_at(b, vc, asw_ibuf_queue_index(b, vc, q), slot);
}

static inline unsigned asw_ibuf_queue_head(const asw_ibuf *b, unsigned vc,
                                           unsigned q) {
  return b->q[vc * b->nq + q].head;
}
#define ASW_QINFO_OPORT(x) ((x) >> 16 & 0xFFu)
#define ASW_QINFO_OVC(x) ((x) >> 8 & 7u)
#define ASW_QINFO_FVC(x) ((x) >> 11 & 7u)  /* §16.3 fallback VC */
#define ASW_QINFO_FB(x) ((x) >> 14 & 1u)   /* §16.3 fallback on */
#define ASW_QINFO_FPORT(x) ((x) >> 24)      /* §16.3 fallback port */
#define ASW_QINFO_LEN(x) ((x)&0xFFu)
static inline uint32_t asw_ibuf_queue_info(const asw_ibuf *b, unsigned vc,
                                           unsigned q) {
  return b->q[vc * b->nq + q].info;
}
static inline uint32_t asw_ibuf_occ(const asw_ibuf *b, unsigned vc,
                                    unsigned q) {
  return b->q[vc * b->nq + q].occ;
}
/* Number of packets in queue (vc, q) (walks the queue; for tests). */
unsigned asw_ibuf_queue_length(const asw_ibuf *b, unsigned vc, unsigned q);
/* Slots on the free list plus never-used slots. */
static inline unsigned asw_ibuf_free_slots(const asw_ibuf *b) {
  return b->slots - b->used;
}

#endif
