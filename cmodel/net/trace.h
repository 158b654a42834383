/* trace.h — packet traces for the network simulator (`asw net traffic=trace:FILE`,
 * `asw trace`): the trace (a list of messages with dependencies), its two file
 * formats, a generator of application patterns, and the replay state the network
 * drives. docs/traces.md describes the formats and the replay semantics.
 *
 * A message is (id, time, source, destination, bytes, dependencies, delay): it may
 * be sent from cycle `time` on, and not before every message it depends on was
 * delivered (whole, to its destination) delay + 1 cycles earlier. Dependencies always point to
 * messages earlier in the trace, so a trace is acyclic by construction.
 *
 * Formats (trace_parse detects which; trace_load also undoes bzip2 and gzip):
 *  - text: `nodes N` (optional, once, before the messages), then one message a
 *    line, `ID TIME SRC DST BYTES [DEP,DEP,... [+DELAY]]`, ids increasing down the
 *    file, dependencies naming ids of earlier lines; `#` starts a comment.
 *  - netrace 1.0 (Hestness et al., UT Austin): the binary format of the netrace
 *    traces, read from its public description: a 72-byte little-endian header
 *    (magic 0x484A5455, version 1.0f, name, nodes, cycles, packets, notes,
 *    regions), then records (cycle u64, id u32, addr u32, type u8, src u8, dst u8,
 *    node_types u8, num_deps u8, num_deps u32 ids of the packets that wait for
 *    this one). A packet's size is given by its type (8 or 72 bytes).
 * No global state; every error names the file and line (text) or record (netrace).
 */
#ifndef NET_TRACE_H
#define NET_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct trace trace;

typedef struct {
  uint64_t time;        /* earliest cycle it may be sent */
  uint32_t id;          /* the file's label */
  uint32_t src, dst;    /* node ids, src != dst */
  uint32_t bytes;       /* size, >= 1 */
  uint32_t line;        /* text: line number; netrace: record number (from 1) */
  uint32_t ndeps;
  const uint32_t *deps; /* indices (from 0) of earlier messages it waits for */
  uint64_t delay;       /* cycles after its last dependency's delivery (compute time) */
} trace_msg;

enum { TRACE_TEXT = 0, TRACE_NETRACE = 1 };
/* Largest trace accepted: messages, dependencies (each), bytes of a message. */
enum { TRACE_MAX_MSGS = 1 << 24, TRACE_MAX_NODES = 65536 };
#define TRACE_MAX_BYTES 0x7FFFFFFFu
#define TRACE_MAX_DELAY (1ull << 40)

trace *trace_new(void);
void trace_free(trace *t);
/* Appends a message; deps are indices of messages already in the trace. Returns
 * its index, or -1 with a message (src == dst, bad dependency, too many). */
long trace_add(trace *t, uint64_t time, uint32_t id, uint32_t src, uint32_t dst,
               uint32_t bytes, const uint32_t *deps, uint32_t ndeps, char *err,
               size_t errlen);
uint32_t trace_count(const trace *t);
/* Message i may be sent no earlier than `delay` cycles after the cycle following
 * its last dependency's delivery (the compute time between a receive and the next
 * send; text format `+DELAY`). -1 with a message if i has no dependencies (its
 * TIME says when it starts) or delay is above TRACE_MAX_DELAY. */
int trace_set_delay(trace *t, uint32_t i, uint64_t delay, char *err, size_t errlen);
/* 1 and *out filled, or 0 if i is out of range. */
int trace_get(const trace *t, uint32_t i, trace_msg *out);
/* Nodes the trace is for: its `nodes` line / netrace header, or above its largest id. */
uint32_t trace_nodes(const trace *t);
/* Sets the node count (>= every id used + 1); -1 if a message uses a larger id. */
int trace_set_nodes(trace *t, uint32_t nodes, char *err, size_t errlen);

/* Parses text or netrace (uncompressed) of len bytes; name is used in messages. */
trace *trace_parse(const void *buf, size_t len, const char *name, char *err,
                   size_t errlen);
/* Reads a file in either format, bzip2- or gzip-compressed or not (by its first
 * bytes; decompressed by the bzip2 / gzip programs). */
trace *trace_load(const char *path, char *err, size_t errlen);
/* Writes the trace in `format`; a path ending in .bz2 or .gz is compressed with
 * the bzip2 / gzip program; "-" is stdout (uncompressed). netrace: each message
 * becomes ceil(bytes/72) 72-byte WriteReq packets (one 8-byte ReadReq if bytes
 * <= 8), each naming the packets of every message that depends on it (at most
 * 255), in time order; at most 255 nodes. */
int trace_write(const trace *t, const char *path, int format, char *err, size_t errlen);
int trace_write_file(const trace *t, FILE *f, int format, char *err, size_t errlen);

/* Application patterns (docs/traces.md):
 *  alltoall  every node sends `size` bytes to every other node, node i to
 *            i+1, i+2, ... in that order, all at time 0; `iters` rounds, a round's
 *            messages of a node after the node received all of the last round's.
 *  allreduce ring allreduce of a `size`-byte vector: 2(N-1) steps (reduce-scatter,
 *            allgather), node i sends a ceil(size/N)-byte chunk to i+1 in each
 *            step, after it received the chunk of the previous step from i-1;
 *            `iters` allreduces back to back.
 *  halo3d    3D halo exchange on a dims[0] x dims[1] x dims[2] periodic grid (node
 *            id = x + X*(y + Y*z)): each node sends `size` bytes to its 6
 *            neighbours (-x +x -y +y -z +z); iteration k+1 after the node received
 *            its 6 messages of iteration k. dims all 0: the most cubic grid of N.
 *  ptrans    PTRANS-like (HPCC matrix transpose): `iters` rounds of pairwise
 *            exchanges, in round k = 1, 2, ... rank i and rank (k - i) mod N swap
 *            `size` bytes (a rank paired with itself sits out); a rank's message of
 *            a round waits for the message it sent and the one it received in its
 *            last active round. N - (fixed points) messages a round.
 *  inception Inception-like data-parallel training: `iters` steps of `layers`
 *            allreduces of a `size`-byte gradient by recursive doubling (MPICH's,
 *            with the fold / unfold of the N - p2 extra ranks, p2 the largest power
 *            of two <= N): 2(N - p2) + p2 log2(p2) messages an allreduce, each of
 *            `size` bytes; a rank's first message of an allreduce waits `compute`
 *            cycles after its last receipt of the previous one (trace_set_delay;
 *            the very first ones have time = compute).
 * skip (nskip ids): nodes the pattern leaves out: it runs on N - nskip ranks,
 * mapped in order onto the other nodes (e.g. an incast's hot node). Message ids
 * are 0, 1, ... in order. Returns NULL with a message naming the key. */
typedef struct {
  const char *pattern; /* alltoall, allreduce, halo3d, ptrans, inception */
  uint32_t nodes;
  uint64_t size;       /* bytes */
  uint32_t iters;
  uint32_t dims[3];
  uint32_t layers;     /* inception: allreduces per iteration */
  uint64_t compute;    /* inception: cycles of computation before each allreduce */
  const uint32_t *skip; /* nodes left out (nskip of them) */
  uint32_t nskip;
} trace_pattern_cfg;
trace *trace_pattern(const trace_pattern_cfg *c, char *err, size_t errlen);

/* ---- replay (driven by cmodel/net/network.c) ------------------------------- */
typedef struct trace_replay trace_replay;
/* Messages are cut into packets of at most packet_flits flits of flit_bytes bytes;
 * a packet has at least 2 flits (the sink reads the injection time from the
 * second). nodes: the network's end nodes (a message using a larger id is an
 * error naming its line). */
trace_replay *trace_replay_new(const trace *t, unsigned nodes, unsigned packet_flits,
                               unsigned flit_bytes, const char *name, char *err,
                               size_t errlen);
void trace_replay_free(trace_replay *r);
/* The next packet node `node` may queue in `cycle`: 1 with its destination and
 * flits, or 0. trace_replay_take then records that it was queued as packet `pkt`. */
int trace_replay_peek(const trace_replay *r, unsigned node, uint64_t cycle,
                      unsigned *dst, unsigned *flits);
int trace_replay_take(trace_replay *r, unsigned node, uint32_t pkt);
/* Packet pkt's tail reached its destination in `cycle`. -1 if the packet is not
 * one of the trace's or was already delivered. */
int trace_replay_delivered(trace_replay *r, uint32_t pkt, uint64_t cycle);
int trace_replay_done(const trace_replay *r);
/* The earliest ready cycle of a message whose dependencies are delivered and whose
 * packets are not all queued (UINT64_MAX: none): when a node may next queue one. */
uint64_t trace_replay_next_ready(const trace_replay *r);

typedef struct {
  uint64_t messages, packets, flits, bytes, dependencies;
  uint64_t messages_delivered, packets_delivered;
  uint64_t completion;  /* cycle + 1 of the last delivery (0 if none) */
  uint64_t lower_bound; /* see trace_replay_lower_bound */
} trace_stats;
void trace_replay_stats(const trace_replay *r, trace_stats *s);
/* Lower bound of the completion time on a network where a message of F flits
 * needs at least path(ctx, src, dst) + F - 1 cycles from the injection of its
 * first flit to the delivery of its last: the longest dependency chain
 * (time, then delivery + 1 for each dependent) and the flits each node must
 * inject or eject one per cycle. Stored for trace_replay_stats. */
uint64_t trace_replay_lower_bound(trace_replay *r,
                                  uint64_t (*path)(void *ctx, unsigned src, unsigned dst),
                                  void *ctx);

#endif
