/* trace.c — packet traces: formats, patterns, replay (see trace.h, docs/traces.md). */
#define _POSIX_C_SOURCE 200809L
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct {
  uint64_t time, delay;
  uint32_t id, src, dst, bytes, line, dep_off, ndeps;
} msg_rec;

struct trace {
  msg_rec *m;
  uint32_t n, cap;
  uint32_t *deps;
  size_t nd, dcap;
  uint32_t nodes_given, max_node;
  uint32_t cur_line; /* line / record of the message being added (parsers) */
};

trace *trace_new(void) { return calloc(1, sizeof(trace)); }

void trace_free(trace *t) {
  if (!t) return;
  free(t->m);
  free(t->deps);
  free(t);
}

uint32_t trace_count(const trace *t) { return t->n; }

uint32_t trace_nodes(const trace *t) {
  uint32_t used = t->n ? t->max_node + 1 : 0;
  return t->nodes_given > used ? t->nodes_given : used;
}

int trace_set_nodes(trace *t, uint32_t nodes, char *err, size_t errlen) {
  if (nodes < 2 || nodes > TRACE_MAX_NODES) {
    snprintf(err, errlen, "nodes: %u is not in 2..%u", nodes, (unsigned)TRACE_MAX_NODES);
    return -1;
  }
  if (t->n && t->max_node >= nodes) {
    snprintf(err, errlen, "nodes: %u, but a message uses node %u", nodes, t->max_node);
    return -1;
  }
  t->nodes_given = nodes;
  return 0;
}

int trace_get(const trace *t, uint32_t i, trace_msg *out) {
  if (i >= t->n) return 0;
  const msg_rec *r = &t->m[i];
  out->time = r->time;
  out->id = r->id;
  out->src = r->src;
  out->dst = r->dst;
  out->bytes = r->bytes;
  out->line = r->line;
  out->ndeps = r->ndeps;
  out->deps = r->ndeps ? t->deps + r->dep_off : NULL;
  out->delay = r->delay;
  return 1;
}

int trace_set_delay(trace *t, uint32_t i, uint64_t delay, char *err, size_t errlen) {
  if (i >= t->n) return snprintf(err, errlen, "delay: no message %u", i), -1;
  if (delay > TRACE_MAX_DELAY) {
    snprintf(err, errlen, "delay %llu is above 2^40 cycles", (unsigned long long)delay);
    return -1;
  }
  if (delay && !t->m[i].ndeps) {
    snprintf(err, errlen, "delay +%llu: a message without dependencies has none "
             "(give its TIME instead)", (unsigned long long)delay);
    return -1;
  }
  t->m[i].delay = delay;
  return 0;
}

long trace_add(trace *t, uint64_t time, uint32_t id, uint32_t src, uint32_t dst,
               uint32_t bytes, const uint32_t *deps, uint32_t ndeps, char *err,
               size_t errlen) {
  if (t->n >= TRACE_MAX_MSGS) {
    snprintf(err, errlen, "more than %u messages", (unsigned)TRACE_MAX_MSGS);
    return -1;
  }
  if (src >= TRACE_MAX_NODES || dst >= TRACE_MAX_NODES) {
    snprintf(err, errlen, "node %u is not below %u", src >= TRACE_MAX_NODES ? src : dst,
             (unsigned)TRACE_MAX_NODES);
    return -1;
  }
  if (src == dst) {
    snprintf(err, errlen, "source and destination are both node %u", src);
    return -1;
  }
  if (t->nodes_given && (src >= t->nodes_given || dst >= t->nodes_given)) {
    snprintf(err, errlen, "node %u is not below nodes = %u",
             src >= t->nodes_given ? src : dst, t->nodes_given);
    return -1;
  }
  if (bytes < 1 || bytes > TRACE_MAX_BYTES) {
    snprintf(err, errlen, "size %u bytes is not in 1..%u", bytes, TRACE_MAX_BYTES);
    return -1;
  }
  if (time > (1ull << 40)) {
    snprintf(err, errlen, "time %llu is above 2^40 cycles", (unsigned long long)time);
    return -1;
  }
  for (uint32_t k = 0; k < ndeps; k++)
    if (deps[k] >= t->n) {
      snprintf(err, errlen, "dependency on message %u, not an earlier one", deps[k]);
      return -1;
    }
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 256;
    msg_rec *p = realloc(t->m, sizeof *p * nc);
    if (!p) return snprintf(err, errlen, "out of memory"), -1;
    t->m = p;
    t->cap = nc;
  }
  if (t->nd + ndeps > t->dcap) {
    size_t nc = t->dcap ? t->dcap : 256;
    while (nc < t->nd + ndeps) nc *= 2;
    if (nc > (size_t)1 << 32) return snprintf(err, errlen, "too many dependencies"), -1;
    uint32_t *p = realloc(t->deps, sizeof *p * nc);
    if (!p) return snprintf(err, errlen, "out of memory"), -1;
    t->deps = p;
    t->dcap = nc;
  }
  msg_rec *r = &t->m[t->n];
  r->time = time;
  r->delay = 0;
  r->id = id;
  r->src = src;
  r->dst = dst;
  r->bytes = bytes;
  r->line = t->cur_line;
  r->dep_off = (uint32_t)t->nd;
  r->ndeps = ndeps;
  if (ndeps) memcpy(t->deps + t->nd, deps, sizeof *deps * ndeps);
  t->nd += ndeps;
  uint32_t hi = src > dst ? src : dst;
  if (!t->n || hi > t->max_node) t->max_node = hi;
  return (long)t->n++;
}

/* ---- text format ---------------------------------------------------------- */

/* Unsigned decimal up to max; advances *p. */
static int read_uint(const char **p, const char *end, uint64_t max, uint64_t *out) {
  const char *s = *p;
  if (s >= end || !isdigit((unsigned char)*s)) return -1;
  uint64_t v = 0;
  while (s < end && isdigit((unsigned char)*s)) {
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > max) return -1;
    s++;
  }
  *p = s;
  *out = v;
  return 0;
}

static const char *skip_blank(const char *s, const char *end) {
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
  return s;
}

/* Index of the message with this id among the first n (ids increase): binary search. */
static long find_id(const trace *t, uint32_t n, uint32_t id) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->m[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && t->m[lo].id == id ? (long)lo : -1;
}

static trace *parse_text(const char *buf, size_t len, const char *name, char *err,
                         size_t errlen) {
  trace *t = trace_new();
  uint32_t *deps = NULL;
  size_t dcap = 0;
  if (!t) return snprintf(err, errlen, "%s: out of memory", name), NULL;
  const char *p = buf, *end = buf + len;
  uint32_t line = 0;
  char e2[256];
  while (p < end) {
    line++;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *hash = memchr(p, '#', (size_t)(le - p));
    const char *ce = hash ? hash : le;
    const char *s = skip_blank(p, ce);
    p = nl ? nl + 1 : end;
    if (s == ce) continue;
#define BAD(...)                                                   \
  do {                                                             \
    snprintf(e2, sizeof e2, __VA_ARGS__);                          \
    snprintf(err, errlen, "%s:%u: %s", name, line, e2);            \
    goto fail;                                                     \
  } while (0)
    if ((size_t)(ce - s) >= 5 && !memcmp(s, "nodes", 5) && (ce - s == 5 || !isdigit((unsigned char)s[5]))) {
      uint64_t v;
      s = skip_blank(s + 5, ce);
      if (t->nodes_given) BAD("second 'nodes' line");
      if (t->n) BAD("'nodes' must come before the messages");
      if (read_uint(&s, ce, TRACE_MAX_NODES, &v) || skip_blank(s, ce) != ce)
        BAD("expected 'nodes N' with N in 2..%u", (unsigned)TRACE_MAX_NODES);
      if (trace_set_nodes(t, (uint32_t)v, e2, sizeof e2)) {
        snprintf(err, errlen, "%s:%u: %s", name, line, e2);
        goto fail;
      }
      continue;
    }
    uint64_t f[5];
    static const char *const fname[5] = {"id", "time", "source", "destination", "size"};
    static const uint64_t fmax[5] = {0xFFFFFFFFull, 1ull << 40, TRACE_MAX_NODES - 1,
                                     TRACE_MAX_NODES - 1, TRACE_MAX_BYTES};
    for (int k = 0; k < 5; k++) {
      if (k) {
        const char *b = s;
        s = skip_blank(s, ce);
        if (s == b && s < ce) BAD("%s: expected a blank before it", fname[k]);
      }
      if (s == ce)
        BAD("expected ID TIME SRC DST BYTES [DEP,DEP,...]: %s missing", fname[k]);
      if (read_uint(&s, ce, fmax[k], &f[k]))
        BAD("%s: not a number in 0..%llu", fname[k], (unsigned long long)fmax[k]);
      if (s < ce && *s != ' ' && *s != '\t' && *s != '\r')
        BAD("%s: not a number in 0..%llu", fname[k], (unsigned long long)fmax[k]);
    }
    if (t->n && f[0] <= t->m[t->n - 1].id)
      BAD("id %llu does not follow %u (ids increase down the file)",
          (unsigned long long)f[0], t->m[t->n - 1].id);
    uint32_t nd = 0;
    uint64_t delay = 0;
    s = skip_blank(s, ce);
    /* the end of the dependency list: the blank before an optional +DELAY */
    const char *de = s;
    while (de < ce && *de != ' ' && *de != '\t' && *de != '\r') de++;
    {
      const char *ds = skip_blank(de, ce);
      if (ds < ce && *ds == '+') {
        ds++;
        if (read_uint(&ds, ce, TRACE_MAX_DELAY, &delay) || skip_blank(ds, ce) != ce)
          BAD("delay: expected +CYCLES (0..2^40) after the dependencies");
        if (s == de) BAD("delay: +CYCLES follows the dependencies (or '-')");
      } else if (ds < ce) {
        BAD("dependencies: expected ids separated by commas (or -)");
      }
      if (s < ce && *s == '+') BAD("delay: +CYCLES follows the dependencies (or '-')");
    }
    if (s < de && !(*s == '-' && de - s == 1)) {
      for (;;) {
        uint64_t d;
        if (read_uint(&s, ce, 0xFFFFFFFFull, &d))
          BAD("dependencies: expected ids separated by commas (or -)");
        long ix = find_id(t, t->n, (uint32_t)d);
        if (ix < 0) BAD("dependency %llu is not the id of an earlier message", (unsigned long long)d);
        for (uint32_t k = 0; k < nd; k++)
          if (deps[k] == (uint32_t)ix) BAD("dependency %llu listed twice", (unsigned long long)d);
        if (nd == dcap) {
          size_t nc = dcap ? dcap * 2 : 16;
          uint32_t *q = realloc(deps, sizeof *q * nc);
          if (!q) BAD("out of memory");
          deps = q;
          dcap = nc;
        }
        deps[nd++] = (uint32_t)ix;
        if (s < de && *s == ',') { s++; continue; }
        if (s != de) BAD("dependencies: expected ids separated by commas (or -)");
        break;
      }
    }
    t->cur_line = line;
    long ix = trace_add(t, f[1], (uint32_t)f[0], (uint32_t)f[2], (uint32_t)f[3], (uint32_t)f[4],
                        deps, nd, e2, sizeof e2);
    if (ix < 0 || trace_set_delay(t, (uint32_t)ix, delay, e2, sizeof e2)) {
      snprintf(err, errlen, "%s:%u: %s", name, line, e2);
      goto fail;
    }
#undef BAD
  }
  free(deps);
  if (!t->n) {
    snprintf(err, errlen, "%s: no messages", name);
    trace_free(t);
    return NULL;
  }
  return t;
fail:
  free(deps);
  trace_free(t);
  return NULL;
}

/* ---- netrace ---------------------------------------------------------------- */
#define NT_MAGIC 0x484A5455u
enum { NT_HEADER = 72, NT_RECORD = 21, NT_REGION = 24 };

/* Packet size by type, from the netrace description (-1: not a valid type). */
static int nt_size(unsigned type) {
  switch (type) {
  case 1: case 5: case 13: case 14: case 15: case 25: case 27: case 28: case 29: return 8;
  case 2: case 3: case 4: case 6: case 16: case 30: return 72;
  default: return -1;
  }
}

static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void wr64(unsigned char *p, uint64_t v) {
  wr32(p, (uint32_t)v);
  wr32(p + 4, (uint32_t)(v >> 32));
}

typedef struct { uint32_t key, val; } pair32;
static int cmp_pair(const void *a, const void *b) {
  const pair32 *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->val < y->val ? -1 : x->val > y->val;
}
static long find_pair(const pair32 *v, size_t n, uint32_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && v[lo].key == key ? (long)lo : -1;
}

static trace *parse_netrace(const unsigned char *b, size_t len, const char *name,
                            char *err, size_t errlen) {
  if (len < NT_HEADER) return snprintf(err, errlen, "%s: netrace header: file ends after %zu of 72 bytes", name, len), NULL;
  float version;
  uint32_t vbits = rd32(b + 4);
  memcpy(&version, &vbits, sizeof version);
  if (version != 1.0f) return snprintf(err, errlen, "%s: netrace header: version %g, only 1.0 is read", name, (double)version), NULL;
  unsigned nodes = b[38];
  uint64_t npk = rd64(b + 48);
  uint32_t notes = rd32(b + 56), regions = rd32(b + 60);
  size_t off = NT_HEADER;
  if (notes > len - off) return snprintf(err, errlen, "%s: netrace header: %u bytes of notes, file ends before", name, notes), NULL;
  off += notes;
  if (regions > (len - off) / NT_REGION) return snprintf(err, errlen, "%s: netrace header: %u regions, file ends before", name, regions), NULL;
  off += (size_t)regions * NT_REGION;
  if (nodes < 2) return snprintf(err, errlen, "%s: netrace header: %u nodes (at least 2)", name, nodes), NULL;
  /* pass 1: records, sizes, id index */
  size_t cap = 1024, n = 0;
  pair32 *ids = malloc(sizeof *ids * cap);  /* (id, record index) */
  size_t *at = malloc(sizeof *at * cap);    /* record offsets */
  pair32 *edges = NULL;                     /* (dependent record, dependency record) */
  size_t ne = 0, ecap = 0;
  trace *t = NULL;
  if (!ids || !at) goto oom;
  while (off < len) {
    if (len - off < NT_RECORD) {
      snprintf(err, errlen, "%s: netrace record %zu: file ends inside the record", name, n + 1);
      goto fail;
    }
    const unsigned char *r = b + off;
    unsigned nd = r[20];
    if ((len - off - NT_RECORD) / 4 < nd) {
      snprintf(err, errlen, "%s: netrace record %zu: file ends inside its %u dependencies", name, n + 1, nd);
      goto fail;
    }
    if (n == TRACE_MAX_MSGS) {
      snprintf(err, errlen, "%s: netrace: more than %u packets", name, (unsigned)TRACE_MAX_MSGS);
      goto fail;
    }
    if (n == cap) {
      cap *= 2;
      pair32 *q = realloc(ids, sizeof *ids * cap);
      if (!q) goto oom;
      ids = q;
      size_t *a = realloc(at, sizeof *at * cap);
      if (!a) goto oom;
      at = a;
    }
    ids[n].key = rd32(r + 8);
    ids[n].val = (uint32_t)n;
    at[n] = off;
    n++;
    off += NT_RECORD + 4 * (size_t)nd;
  }
  if (!n) { snprintf(err, errlen, "%s: netrace: no packets", name); goto fail; }
  if (npk != n) {
    snprintf(err, errlen, "%s: netrace header: %llu packets, the file holds %zu", name,
             (unsigned long long)npk, n);
    goto fail;
  }
  qsort(ids, n, sizeof *ids, cmp_pair);
  for (size_t i = 1; i < n; i++)
    if (ids[i].key == ids[i - 1].key) {
      snprintf(err, errlen, "%s: netrace record %u: packet id %u already used by record %u", name,
               ids[i].val + 1, ids[i].key, ids[i - 1].val + 1);
      goto fail;
    }
  /* pass 2: the dependents each packet names become dependencies of those */
  for (size_t i = 0; i < n; i++) {
    const unsigned char *r = b + at[i];
    unsigned nd = r[20];
    for (unsigned k = 0; k < nd; k++) {
      uint32_t did = rd32(r + NT_RECORD + 4 * k);
      long j = find_pair(ids, n, did);
      if (j < 0) {
        snprintf(err, errlen, "%s: netrace record %zu: dependent packet %u is not in the trace", name, i + 1, did);
        goto fail;
      }
      uint32_t dep_rec = ids[j].val;
      if (dep_rec <= i) {
        snprintf(err, errlen, "%s: netrace record %zu: dependent packet %u comes before it (record %u)", name, i + 1, did, dep_rec + 1);
        goto fail;
      }
      if (ne == ecap) {
        ecap = ecap ? ecap * 2 : 1024;
        pair32 *q = realloc(edges, sizeof *q * ecap);
        if (!q) goto oom;
        edges = q;
      }
      edges[ne].key = dep_rec;
      edges[ne].val = (uint32_t)i;
      ne++;
    }
  }
  if (ne) qsort(edges, ne, sizeof *edges, cmp_pair);
  t = trace_new();
  if (!t) goto oom;
  t->nodes_given = nodes;
  size_t e = 0, dcap = 0;
  uint32_t *dl = NULL; /* the packets record i waits for */
  for (size_t i = 0; i < n; i++) {
    const unsigned char *r = b + at[i];
    uint32_t nd = 0;
    size_t e0 = e;
    while (e < ne && edges[e].key == i) e++;
    if (e - e0 > dcap) {
      uint32_t *q = realloc(dl, sizeof *q * (e - e0));
      if (!q) { free(dl); goto oom; }
      dl = q;
      dcap = e - e0;
    }
    for (size_t k = e0; k < e; k++)
      if (!nd || dl[nd - 1] != edges[k].val) dl[nd++] = edges[k].val; /* named twice: once */
    int sz = nt_size(r[16]);
    if (sz < 0) {
      snprintf(err, errlen, "%s: netrace record %zu: packet type %u is not a valid command", name, i + 1, r[16]);
      free(dl);
      goto fail;
    }
    char e2[200];
    t->cur_line = (uint32_t)(i + 1);
    if (trace_add(t, rd64(r), rd32(r + 8), r[17], r[18], (uint32_t)sz, dl, nd, e2, sizeof e2) < 0) {
      snprintf(err, errlen, "%s: netrace record %zu: %s", name, i + 1, e2);
      free(dl);
      goto fail;
    }
  }
  free(dl);
  free(ids);
  free(at);
  free(edges);
  return t;
oom:
  snprintf(err, errlen, "%s: out of memory", name);
fail:
  free(ids);
  free(at);
  free(edges);
  trace_free(t);
  return NULL;
}

trace *trace_parse(const void *buf, size_t len, const char *name, char *err, size_t errlen) {
  if (!name) name = "trace";
  const unsigned char *b = buf;
  if (len >= 4 && rd32(b) == NT_MAGIC) return parse_netrace(b, len, name, err, errlen);
  if (memchr(buf, 0, len)) {
    snprintf(err, errlen, "%s: neither a text trace (NUL byte) nor netrace (magic 0x484A5455)", name);
    return NULL;
  }
  return parse_text(buf, len, name, err, errlen);
}

/* ---- files, compression through the bzip2 / gzip programs -------------------- */

/* Runs prog (argv) with stdin from in_path (or a pipe) and stdout to out_path (or
 * a pipe); returns the pid and the pipe's fd in *fd. */
static pid_t spawn_filter(char *const argv[], const char *in_path, const char *out_path,
                          int *fd) {
  int pp[2];
  if (pipe(pp)) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (in_path) {
    posix_spawn_file_actions_addopen(&fa, 0, in_path, O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pp[1], 1);
  } else {
    posix_spawn_file_actions_adddup2(&fa, pp[0], 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addclose(&fa, pp[0]);
  posix_spawn_file_actions_addclose(&fa, pp[1]);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    close(pp[0]);
    close(pp[1]);
    errno = rc;
    return -1;
  }
  if (in_path) { close(pp[1]); *fd = pp[0]; }
  else { close(pp[0]); *fd = pp[1]; }
  return pid;
}

static int wait_ok(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

#define TRACE_FILE_MAX ((size_t)1 << 30)

trace *trace_load(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
    return NULL;
  }
  unsigned char head[4] = {0};
  size_t hn = fread(head, 1, sizeof head, f);
  const char *prog = NULL;
  if (hn >= 3 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h') prog = "bzip2";
  else if (hn >= 2 && head[0] == 0x1f && head[1] == 0x8b) prog = "gzip";
  int fd;
  pid_t pid = -1;
  if (prog) {
    fclose(f);
    char *argv[] = {(char *)prog, (char *)"-dc", NULL};
    pid = spawn_filter(argv, path, NULL, &fd);
    if (pid < 0) {
      snprintf(err, errlen, "%s: cannot run %s to decompress it (%s)", path, prog, strerror(errno));
      return NULL;
    }
    f = fdopen(fd, "rb");
    if (!f) {
      close(fd);
      wait_ok(pid);
      return snprintf(err, errlen, "%s: cannot read", path), NULL;
    }
  } else {
    rewind(f);
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  int too_big = 0;
  while (buf) {
    if (n == cap) {
      if (cap >= TRACE_FILE_MAX) { too_big = 1; break; }
      unsigned char *q = realloc(buf, cap * 2);
      if (!q) { free(buf); buf = NULL; break; }
      buf = q;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    n += k;
    if (!k) break;
  }
  int rerr = ferror(f);
  fclose(f);
  int ok = pid < 0 || (wait_ok(pid) || too_big);
  if (!buf) return snprintf(err, errlen, "%s: out of memory", path), NULL;
  if (too_big || rerr || !ok) {
    if (too_big) snprintf(err, errlen, "%s: larger than %zu bytes%s", path, TRACE_FILE_MAX, prog ? " decompressed" : "");
    else if (!ok) snprintf(err, errlen, "%s: %s could not decompress it", path, prog);
    else snprintf(err, errlen, "%s: cannot read", path);
    free(buf);
    return NULL;
  }
  trace *t = trace_parse(buf, n, path, err, errlen);
  free(buf);
  return t;
}

static int write_text(const trace *t, FILE *f) {
  /* ids that do not increase down the trace (netrace allows them) are written
   * as 0, 1, ... in trace order, as the text format wants */
  int keep = 1;
  for (uint32_t i = 1; i < t->n && keep; i++) keep = t->m[i].id > t->m[i - 1].id;
  fprintf(f, "# arnswitch trace (docs/traces.md): ID TIME SRC DST BYTES [DEP,DEP,... [+DELAY]]\n");
  fprintf(f, "nodes %u\n", trace_nodes(t));
  for (uint32_t i = 0; i < t->n; i++) {
    const msg_rec *r = &t->m[i];
    fprintf(f, "%u %llu %u %u %u", keep ? r->id : i, (unsigned long long)r->time, r->src, r->dst, r->bytes);
    for (uint32_t k = 0; k < r->ndeps; k++) {
      uint32_t d = t->deps[r->dep_off + k];
      fprintf(f, "%c%u", k ? ',' : ' ', keep ? t->m[d].id : d);
    }
    if (r->delay) fprintf(f, " +%llu", (unsigned long long)r->delay);
    fputc('\n', f);
  }
  return 0;
}

static int cmp_u64_idx(const void *a, const void *b) {
  const uint64_t *x = a, *y = b; /* [time, index] */
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int write_netrace(const trace *t, FILE *f, char *err, size_t errlen) {
  uint32_t nodes = trace_nodes(t);
  if (nodes > 255) {
    snprintf(err, errlen, "netrace holds at most 255 nodes (the trace has %u)", nodes);
    return -1;
  }
  for (uint32_t i = 0; i < t->n; i++)
    if (t->m[i].delay) {
      snprintf(err, errlen, "netrace has no compute delay (message %u has +%llu); write it as text",
               t->m[i].id, (unsigned long long)t->m[i].delay);
      return -1;
    }
  uint32_t n = t->n;
  uint64_t *first = malloc(sizeof *first * (n + 1)); /* first packet id of each message */
  uint64_t *tm = malloc(sizeof *tm * 2 * (n ? n : 1));  /* [time', index] */
  uint32_t *cnt = calloc(n + 1, sizeof *cnt), *dn = NULL;
  int rc = -1;
  if (!first || !tm || !cnt) goto oom;
  first[0] = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t b = t->m[i].bytes;
    first[i + 1] = first[i] + (b <= 8 ? 1 : (b + 71) / 72);
  }
  if (first[n] > 0xFFFFFFFFull) {
    snprintf(err, errlen, "netrace: more than 2^32 packets");
    goto out;
  }
  /* dependents of each message (reverse edges, CSR) */
  for (size_t k = 0; k < t->nd; k++) cnt[t->deps[k] + 1]++;
  for (uint32_t i = 0; i < n; i++) cnt[i + 1] += cnt[i];
  dn = malloc(sizeof *dn * (t->nd ? t->nd : 1));
  uint32_t *fill = calloc(n + 1, sizeof *fill);
  if (!dn || !fill) { free(fill); goto oom; }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < t->m[i].ndeps; k++) {
      uint32_t d = t->deps[t->m[i].dep_off + k];
      dn[cnt[d] + fill[d]++] = i;
    }
  free(fill);
  /* time' = max(time, time' of its dependencies): the replay is the same (a
   * message never leaves before its dependencies were delivered) and a stable
   * sort by time' keeps every dependency before its dependents */
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = t->m[i].time;
    for (uint32_t k = 0; k < t->m[i].ndeps; k++) {
      uint64_t y = tm[2 * t->deps[t->m[i].dep_off + k]];
      if (y > x) x = y;
    }
    tm[2 * i] = x;
    tm[2 * i + 1] = i;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint64_t np = 0;
    for (uint32_t k = cnt[i]; k < cnt[i + 1]; k++) np += first[dn[k] + 1] - first[dn[k]];
    if (np > 255) {
      snprintf(err, errlen, "netrace: message %u (id %u) has %llu dependent packets, a netrace packet names "
               "at most 255 (smaller messages or fewer dependents)", i, t->m[i].id, (unsigned long long)np);
      goto out;
    }
  }
  qsort(tm, n, sizeof *tm * 2, cmp_u64_idx);
  unsigned char h[NT_HEADER] = {0};
  wr32(h, NT_MAGIC);
  float v = 1.0f;
  uint32_t vb;
  memcpy(&vb, &v, sizeof vb);
  wr32(h + 4, vb);
  memcpy(h + 8, "arnswitch asw trace", 19);
  h[38] = (unsigned char)nodes;
  wr64(h + 40, n ? tm[2 * (n - 1)] + 1 : 0);
  wr64(h + 48, first[n]);
  fwrite(h, 1, sizeof h, f);
  for (uint32_t j = 0; j < n; j++) {
    uint32_t i = (uint32_t)tm[2 * j + 1];
    const msg_rec *r = &t->m[i];
    uint32_t np = (uint32_t)(first[i + 1] - first[i]);
    for (uint32_t p = 0; p < np; p++) {
      unsigned char rec[NT_RECORD];
      wr64(rec, tm[2 * j]);
      wr32(rec + 8, (uint32_t)(first[i] + p));
      wr32(rec + 12, 0);
      rec[16] = r->bytes <= 8 ? 1 : 4; /* ReadReq 8 bytes, WriteReq 72 */
      rec[17] = (unsigned char)r->src;
      rec[18] = (unsigned char)r->dst;
      rec[19] = 0;
      uint32_t nd = 0;
      for (uint32_t k = cnt[i]; k < cnt[i + 1]; k++) nd += (uint32_t)(first[dn[k] + 1] - first[dn[k]]);
      rec[20] = (unsigned char)nd;
      fwrite(rec, 1, sizeof rec, f);
      for (uint32_t k = cnt[i]; k < cnt[i + 1]; k++)
        for (uint64_t q = first[dn[k]]; q < first[dn[k] + 1]; q++) {
          unsigned char w[4];
          wr32(w, (uint32_t)q);
          fwrite(w, 1, 4, f);
        }
    }
  }
  rc = 0;
  goto out;
oom:
  snprintf(err, errlen, "out of memory");
out:
  free(first);
  free(tm);
  free(cnt);
  free(dn);
  return rc;
}

int trace_write_file(const trace *t, FILE *f, int format, char *err, size_t errlen) {
  int rc = format == TRACE_NETRACE ? write_netrace(t, f, err, errlen) : write_text(t, f);
  if (!rc && (fflush(f) || ferror(f))) {
    snprintf(err, errlen, "write failed (%s)", strerror(errno));
    return -1;
  }
  return rc;
}

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

int trace_write(const trace *t, const char *path, int format, char *err, size_t errlen) {
  if (!strcmp(path, "-")) return trace_write_file(t, stdout, format, err, errlen);
  const char *prog = ends_with(path, ".bz2") ? "bzip2" : ends_with(path, ".gz") ? "gzip" : NULL;
  char e2[256] = "";
  if (!prog) {
    FILE *f = fopen(path, "wb");
    if (!f) return snprintf(err, errlen, "%s: cannot write (%s)", path, strerror(errno)), -1;
    int rc = trace_write_file(t, f, format, e2, sizeof e2);
    if (fclose(f) && !rc) { rc = -1; snprintf(e2, sizeof e2, "write failed"); }
    if (rc) snprintf(err, errlen, "%s: %s", path, e2);
    return rc;
  }
  /* the output file is created by this process first: a clear error if it cannot be */
  FILE *probe = fopen(path, "wb");
  if (!probe) return snprintf(err, errlen, "%s: cannot write (%s)", path, strerror(errno)), -1;
  fclose(probe);
  char *argv[] = {(char *)prog, (char *)"-c", NULL};
  int fd;
  pid_t pid = spawn_filter(argv, NULL, path, &fd);
  if (pid < 0) return snprintf(err, errlen, "%s: cannot run %s (%s)", path, prog, strerror(errno)), -1;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    wait_ok(pid);
    return snprintf(err, errlen, "%s: cannot write", path), -1;
  }
  int rc = trace_write_file(t, f, format, e2, sizeof e2);
  fclose(f);
  int ok = wait_ok(pid);
  if (rc) return snprintf(err, errlen, "%s: %s", path, e2), -1;
  if (!ok) return snprintf(err, errlen, "%s: %s failed", path, prog), -1;
  return 0;
}

/* ---- patterns ------------------------------------------------------------------ */

static void cubic_dims(uint32_t n, uint32_t d[3]) {
  /* the factorisation x <= y <= z of n with the smallest z, then the smallest y - x */
  uint32_t best[3] = {1, 1, n};
  for (uint32_t x = 1; (uint64_t)x * x * x <= n; x++) {
    if (n % x) continue;
    uint32_t m = n / x;
    for (uint32_t y = x; (uint64_t)y * y <= m; y++) {
      if (m % y) continue;
      uint32_t z = m / y;
      if (z < best[2] || (z == best[2] && y - x < best[1] - best[0])) {
        best[0] = x; best[1] = y; best[2] = z;
      }
    }
  }
  memcpy(d, best, sizeof best);
}

/* ptrans: rounds of pairwise exchanges; in round k (1, 2, ...) rank i and rank
 * (k - i) mod N swap `size` bytes (a rank paired with itself sits the round out).
 * A rank's messages of a round wait for its exchange of its last active round: the
 * message it sent and the one it received. */
static int pattern_ptrans(trace *t, const trace_pattern_cfg *c, uint32_t N, char *e2, size_t el) {
  uint32_t *last_sent = malloc(sizeof *last_sent * N), *last_recv = malloc(sizeof *last_recv * N);
  uint32_t *sent = malloc(sizeof *sent * N);
  int rc = -1;
  if (!last_sent || !last_recv || !sent) {
    snprintf(e2, el, "out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < N; i++) last_sent[i] = last_recv[i] = UINT32_MAX;
  for (uint32_t k = 1; k <= c->iters; k++) {
    for (uint32_t i = 0; i < N; i++) {
      uint32_t p = (uint32_t)(((uint64_t)k % N + N - i) % N), deps[2], nd = 0;
      sent[i] = UINT32_MAX;
      if (p == i) continue;
      if (last_sent[i] != UINT32_MAX) deps[nd++] = last_sent[i];
      if (last_recv[i] != UINT32_MAX) deps[nd++] = last_recv[i];
      long ix = trace_add(t, 0, trace_count(t), i, p, (uint32_t)c->size, deps, nd, e2, el);
      if (ix < 0) goto out;
      sent[i] = (uint32_t)ix;
    }
    for (uint32_t i = 0; i < N; i++)
      if (sent[i] != UINT32_MAX) {
        last_sent[i] = sent[i];
        last_recv[(uint32_t)(((uint64_t)k % N + N - i) % N)] = sent[i];
      }
  }
  rc = 0;
out:
  free(last_sent);
  free(last_recv);
  free(sent);
  return rc;
}

/* inception: `iters` training steps of `layers` allreduces of a `size`-byte gradient
 * each, by recursive doubling (MPICH's allreduce for N not a power of two: with p2
 * the largest power of two <= N and r = N - p2, even ranks i < 2r first send their
 * vector to i + 1; p2 ranks then swap the vector with the rank 2^j away (in their
 * numbering) for j = 0 .. log2(p2) - 1; odd ranks i < 2r finally send the result
 * to i - 1). Before each allreduce a rank computes for `compute` cycles: its first
 * message waits `compute` cycles after its last receipt of the previous allreduce
 * (time = compute for the first). */
static int pattern_inception(trace *t, const trace_pattern_cfg *c, uint32_t N, char *e2, size_t el) {
  uint32_t p2 = 1, lg = 0;
  while (p2 * 2 <= N) { p2 *= 2; lg++; }
  uint32_t r = N - p2;
  uint32_t *last = malloc(sizeof *last * N), *step = malloc(sizeof *step * N);
  int rc = -1;
  if (!last || !step) {
    snprintf(e2, el, "out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < N; i++) last[i] = UINT32_MAX; /* last message received */
#define RANK_NODE(nr) ((nr) < r ? 2 * (nr) + 1 : (nr) + r)
#define ADD(src, dst, dep, delay_)                                                        do {                                                                                   uint32_t d_ = (dep);                                                                 int hasd_ = d_ != UINT32_MAX;                                                        long ix_ = trace_add(t, hasd_ ? 0 : c->compute, trace_count(t), (src), (dst),                            (uint32_t)c->size, &d_, hasd_, e2, el);                         if (ix_ < 0 || (hasd_ && trace_set_delay(t, (uint32_t)ix_, (delay_), e2, el)))         goto out;                                                                          step[dst] = (uint32_t)ix_;                                                         } while (0)
  for (uint64_t a = 0; a < (uint64_t)c->iters * c->layers; a++) {
    for (uint32_t i = 0; i + 1 < 2 * r; i += 2) ADD(i, i + 1, last[i], c->compute); /* fold */
    for (uint32_t i = 1; i < 2 * r; i += 2) last[i] = step[i];
    for (uint32_t j = 0; j < lg; j++) { /* recursive doubling among p2 ranks */
      for (uint32_t nr = 0; nr < p2; nr++) {
        uint32_t i = RANK_NODE(nr), q = RANK_NODE(nr ^ (1u << j));
        /* the first step of a rank that got no fold message starts after its compute */
        int first = j == 0 && !(i < 2 * r);
        ADD(i, q, last[i], first ? c->compute : 0);
      }
      for (uint32_t nr = 0; nr < p2; nr++) last[RANK_NODE(nr)] = step[RANK_NODE(nr)];
    }
    for (uint32_t i = 1; i < 2 * r; i += 2) ADD(i, i - 1, last[i], 0); /* unfold */
    for (uint32_t i = 0; i + 1 < 2 * r; i += 2) last[i] = step[i];
  }
#undef ADD
#undef RANK_NODE
  rc = 0;
out:
  free(last);
  free(step);
  return rc;
}

/* Ranks 0 .. N-1-nskip onto the nodes that are not in skip (in order). */
static int pattern_skip(trace *t, const trace_pattern_cfg *c, char *e2, size_t el) {
  uint32_t *map = malloc(sizeof *map * c->nodes);
  uint8_t *out = calloc(c->nodes, 1);
  if (!map || !out) {
    free(map);
    free(out);
    return snprintf(e2, el, "out of memory"), -1;
  }
  for (uint32_t k = 0; k < c->nskip; k++) out[c->skip[k]] = 1;
  uint32_t m = 0;
  for (uint32_t v = 0; v < c->nodes; v++)
    if (!out[v]) map[m++] = v;
  for (uint32_t i = 0; i < t->n; i++) {
    t->m[i].src = map[t->m[i].src];
    t->m[i].dst = map[t->m[i].dst];
    uint32_t hi = t->m[i].src > t->m[i].dst ? t->m[i].src : t->m[i].dst;
    if (!i || hi > t->max_node) t->max_node = hi;
  }
  t->nodes_given = c->nodes;
  free(map);
  free(out);
  return 0;
}

trace *trace_pattern(const trace_pattern_cfg *c, char *err, size_t errlen) {
  uint32_t N = c->nodes, it = c->iters;
  if (N < 2 || N > TRACE_MAX_NODES) return snprintf(err, errlen, "nodes: %u is not in 2..%u", N, (unsigned)TRACE_MAX_NODES), NULL;
  for (uint32_t k = 0; k < c->nskip; k++) {
    if (c->skip[k] >= N) return snprintf(err, errlen, "skip: node %u is not below nodes = %u", c->skip[k], N), NULL;
    for (uint32_t j = 0; j < k; j++)
      if (c->skip[j] == c->skip[k]) return snprintf(err, errlen, "skip: node %u listed twice", c->skip[k]), NULL;
  }
  if (c->nskip + 2 > N) return snprintf(err, errlen, "skip: %u of %u nodes leaves fewer than 2", c->nskip, N), NULL;
  N -= c->nskip; /* the pattern's ranks, mapped onto the other nodes at the end */
  if (it < 1 || it > 1000000) return snprintf(err, errlen, "iters: %u is not in 1..1000000", it), NULL;
  if (c->size < 1 || c->size > TRACE_MAX_BYTES) return snprintf(err, errlen, "size: %llu bytes is not in 1..%u", (unsigned long long)c->size, TRACE_MAX_BYTES), NULL;
  int kind = !c->pattern ? -1 : !strcmp(c->pattern, "alltoall") ? 0 : !strcmp(c->pattern, "allreduce") ? 1 :
             !strcmp(c->pattern, "halo3d") ? 2 : !strcmp(c->pattern, "ptrans") ? 3 :
             !strcmp(c->pattern, "inception") ? 4 : -1;
  if (kind < 0) return snprintf(err, errlen, "pattern: '%s' is not one of alltoall allreduce halo3d ptrans inception", c->pattern ? c->pattern : ""), NULL;
  if (kind == 4 && (c->layers < 1 || c->layers > 100000))
    return snprintf(err, errlen, "layers: %u is not in 1..100000", c->layers), NULL;
  if (c->compute > TRACE_MAX_DELAY)
    return snprintf(err, errlen, "compute: %llu cycles is above 2^40", (unsigned long long)c->compute), NULL;
  if (c->compute && kind != 4)
    return snprintf(err, errlen, "compute: only with pattern=inception"), NULL;
  uint32_t p2 = 1, lg = 0;
  while (p2 * 2 <= N) { p2 *= 2; lg++; }
  uint64_t total = kind == 0 ? (uint64_t)N * (N - 1) * it : kind == 1 ? (uint64_t)N * 2 * (N - 1) * it :
                   kind == 2 ? (uint64_t)N * 6 * it : kind == 3 ? (uint64_t)N * it :
                   ((uint64_t)2 * (N - p2) + (uint64_t)p2 * lg) * c->layers * it;
  if (total > TRACE_MAX_MSGS) return snprintf(err, errlen, "pattern: %llu messages, more than %u", (unsigned long long)total, (unsigned)TRACE_MAX_MSGS), NULL;
  uint32_t d[3] = {c->dims[0], c->dims[1], c->dims[2]};
  if (kind == 2) {
    if (!d[0] && !d[1] && !d[2]) cubic_dims(N, d);
    if ((uint64_t)d[0] * d[1] * d[2] != N)
      return snprintf(err, errlen, "dims: %ux%ux%u is not %u nodes", d[0], d[1], d[2], N), NULL;
    if (d[0] < 3 || d[1] < 3 || d[2] < 3)
      return snprintf(err, errlen, "dims: %ux%ux%u: each dimension needs 3 or more nodes (6 distinct neighbours)", d[0], d[1], d[2]), NULL;
  }
  trace *t = trace_new();
  if (!t) return snprintf(err, errlen, "out of memory"), NULL;
  char e2[200];
  if (trace_set_nodes(t, N, e2, sizeof e2)) goto bad;
  uint32_t *deps = malloc(sizeof *deps * (N > 6 ? N : 6));
  if (!deps) goto oom;
  uint32_t id = 0;
  if (kind == 0) {
    /* round r: message of node i to (i+k) mod N is index base + i*(N-1) + k-1 */
    for (uint32_t r = 0; r < it; r++) {
      uint64_t base = (uint64_t)r * N * (N - 1), prev = base - (uint64_t)N * (N - 1);
      for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 1; k < N; k++) {
          uint32_t nd = 0;
          if (r) /* every message node i received in round r-1: from j = i-k' */
            for (uint32_t k2 = 1; k2 < N; k2++) {
              uint32_t j = (i + N - k2) % N;
              deps[nd++] = (uint32_t)(prev + (uint64_t)j * (N - 1) + k2 - 1);
            }
          if (trace_add(t, 0, id++, i, (i + k) % N, (uint32_t)c->size, deps, nd, e2, sizeof e2) < 0) goto bad_d;
        }
    }
  } else if (kind == 1) {
    uint32_t chunk = (uint32_t)((c->size + N - 1) / N);
    uint32_t steps = 2 * (N - 1);
    for (uint32_t s = 0; s < steps * it; s++)
      for (uint32_t i = 0; i < N; i++) {
        uint32_t nd = 0;
        if (s) deps[nd++] = (uint32_t)((uint64_t)(s - 1) * N + (i + N - 1) % N);
        if (trace_add(t, 0, id++, i, (i + 1) % N, chunk, deps, nd, e2, sizeof e2) < 0) goto bad_d;
      }
  } else if (kind == 3) {
    if (pattern_ptrans(t, c, N, e2, sizeof e2)) goto bad_d;
  } else if (kind == 4) {
    if (pattern_inception(t, c, N, e2, sizeof e2)) goto bad_d;
  } else {
    for (uint32_t r = 0; r < it; r++)
      for (uint32_t i = 0; i < N; i++) {
        uint32_t x = i % d[0], y = (i / d[0]) % d[1], z = i / (d[0] * d[1]);
        uint32_t nb[6] = {
            ((x + d[0] - 1) % d[0]) + d[0] * (y + d[1] * z), ((x + 1) % d[0]) + d[0] * (y + d[1] * z),
            x + d[0] * (((y + d[1] - 1) % d[1]) + d[1] * z), x + d[0] * (((y + 1) % d[1]) + d[1] * z),
            x + d[0] * (y + d[1] * ((z + d[2] - 1) % d[2])), x + d[0] * (y + d[1] * ((z + 1) % d[2]))};
        uint32_t nd = 0;
        if (r) /* the 6 messages node i received in round r-1: neighbour j sent to i in direction k^1 */
          for (uint32_t k = 0; k < 6; k++)
            deps[nd++] = (uint32_t)((uint64_t)(r - 1) * N * 6 + (uint64_t)nb[k] * 6 + (k ^ 1));
        for (uint32_t k = 0; k < 6; k++)
          if (trace_add(t, 0, id++, i, nb[k], (uint32_t)c->size, deps, nd, e2, sizeof e2) < 0) goto bad_d;
      }
  }
  free(deps);
  if (c->nskip && pattern_skip(t, c, e2, sizeof e2)) goto bad;
  return t;
bad_d:
  free(deps);
bad:
  snprintf(err, errlen, "pattern: %s", e2);
  trace_free(t);
  return NULL;
oom:
  snprintf(err, errlen, "out of memory");
  trace_free(t);
  return NULL;
}

/* ---- replay ---------------------------------------------------------------------- */

typedef struct {
  uint64_t ready;       /* cycle it may be queued from (dependencies delivered) */
  uint64_t delivered;   /* cycle + 1 of its last packet's delivery, 0 before */
  uint32_t unmet;       /* dependencies not delivered */
  uint32_t npk, taken, left; /* packets: all, queued, not delivered */
  uint32_t flits;       /* all its packets' flits */
} msg_state;

struct trace_replay {
  const trace *t;
  unsigned nodes, pf;
  msg_state *ms;
  uint32_t *dn_off, *dn;   /* dependents (CSR) */
  uint64_t **hp;           /* per node: min-heap of (ready, index), two words each */
  uint32_t *hn, *hcap;     /* per node: entries, capacity */
  uint32_t *pkt_msg; size_t pm_cap; /* packet id -> message + 1 */
  uint8_t *pkt_done;       /* packet id -> delivered */
  uint64_t delivered_msgs, delivered_pkts, completion, lower_bound;
  uint64_t packets, flits, bytes;
};

static int heap_less(const uint64_t *a, const uint64_t *b) {
  return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1];
}

static int heap_push(trace_replay *r, unsigned node, uint64_t ready, uint32_t m) {
  if (r->hn[node] == r->hcap[node]) {
    uint32_t nc = r->hcap[node] ? r->hcap[node] * 2 : 8;
    uint64_t *q = realloc(r->hp[node], sizeof *q * 2 * nc);
    if (!q) return -1;
    r->hp[node] = q;
    r->hcap[node] = nc;
  }
  uint64_t *h = r->hp[node];
  uint32_t i = r->hn[node]++;
  h[2 * i] = ready;
  h[2 * i + 1] = m;
  while (i) {
    uint32_t p = (i - 1) / 2;
    if (!heap_less(&h[2 * i], &h[2 * p])) break;
    uint64_t a = h[2 * i], b = h[2 * i + 1];
    h[2 * i] = h[2 * p]; h[2 * i + 1] = h[2 * p + 1];
    h[2 * p] = a; h[2 * p + 1] = b;
    i = p;
  }
  return 0;
}

static void heap_pop(trace_replay *r, unsigned node) {
  uint64_t *h = r->hp[node];
  uint32_t n = --r->hn[node];
  h[0] = h[2 * n];
  h[1] = h[2 * n + 1];
  uint32_t i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1, s = i;
    if (l < n && heap_less(&h[2 * l], &h[2 * s])) s = l;
    if (l + 1 < n && heap_less(&h[2 * (l + 1)], &h[2 * s])) s = l + 1;
    if (s == i) break;
    uint64_t a = h[2 * i], b = h[2 * i + 1];
    h[2 * i] = h[2 * s]; h[2 * i + 1] = h[2 * s + 1];
    h[2 * s] = a; h[2 * s + 1] = b;
    i = s;
  }
}

void trace_replay_free(trace_replay *r) {
  if (!r) return;
  if (r->hp)
    for (unsigned i = 0; i < r->nodes; i++) free(r->hp[i]);
  free(r->hp);
  free(r->hn);
  free(r->hcap);
  free(r->ms);
  free(r->dn_off);
  free(r->dn);
  free(r->pkt_msg);
  free(r->pkt_done);
  free(r);
}

static uint32_t pkt_flits(const trace_replay *r, const msg_state *s, uint32_t k) {
  /* packets of pf flits, the last one the rest (at least 2) */
  if (k + 1 < s->npk) return r->pf;
  uint32_t rest = s->flits - (s->npk - 1) * r->pf;
  return rest < 2 ? 2 : rest;
}

trace_replay *trace_replay_new(const trace *t, unsigned nodes, unsigned packet_flits,
                               unsigned flit_bytes, const char *name, char *err,
                               size_t errlen) {
  if (!name) name = "trace";
  if (packet_flits < 2 || flit_bytes < 1) {
    snprintf(err, errlen, "%s: packets need at least 2 flits", name);
    return NULL;
  }
  trace_replay *r = calloc(1, sizeof *r);
  if (!r) return snprintf(err, errlen, "out of memory"), NULL;
  uint32_t n = t->n;
  r->t = t;
  r->nodes = nodes;
  r->pf = packet_flits;
  r->ms = calloc(n ? n : 1, sizeof *r->ms);
  r->dn_off = calloc((size_t)n + 1, sizeof *r->dn_off);
  r->dn = malloc(sizeof *r->dn * (t->nd ? t->nd : 1));
  r->hp = calloc(nodes, sizeof *r->hp);
  r->hn = calloc(nodes, sizeof *r->hn);
  r->hcap = calloc(nodes, sizeof *r->hcap);
  if (!r->ms || !r->dn_off || !r->dn || !r->hp || !r->hn || !r->hcap) goto oom;
  for (uint32_t i = 0; i < n; i++) {
    const msg_rec *m = &t->m[i];
    if (m->src >= nodes || m->dst >= nodes) {
      snprintf(err, errlen, "%s:%u: node %u, but the network has %u nodes", name, m->line,
               m->src >= nodes ? m->src : m->dst, nodes);
      trace_replay_free(r);
      return NULL;
    }
    msg_state *s = &r->ms[i];
    uint64_t fl = ((uint64_t)m->bytes + flit_bytes - 1) / flit_bytes;
    s->npk = (uint32_t)((fl + packet_flits - 1) / packet_flits);
    s->flits = (uint32_t)fl;
    uint32_t last = (uint32_t)fl - (s->npk - 1) * packet_flits;
    if (last < 2) s->flits += 2 - last; /* padded to the 2-flit minimum */
    s->left = s->npk;
    s->unmet = m->ndeps;
#ifdef ASW_PLANT_TRACE_NODEPS /* planted bug for make test-trace: dependencies ignored */
    s->unmet = 0;
#endif
    s->ready = m->time;
    r->packets += s->npk;
    r->flits += s->flits;
    r->bytes += m->bytes;
    for (uint32_t k = 0; k < m->ndeps; k++) r->dn_off[t->deps[m->dep_off + k] + 1]++;
  }
  for (uint32_t i = 0; i < n; i++) r->dn_off[i + 1] += r->dn_off[i];
  {
    uint32_t *fill = calloc(n ? n : 1, sizeof *fill);
    if (!fill) goto oom;
    for (uint32_t i = 0; i < n; i++)
      for (uint32_t k = 0; k < t->m[i].ndeps; k++) {
        uint32_t d = t->deps[t->m[i].dep_off + k];
        r->dn[r->dn_off[d] + fill[d]++] = i;
      }
    free(fill);
  }
  for (uint32_t i = 0; i < n; i++)
    if (!r->ms[i].unmet && heap_push(r, t->m[i].src, r->ms[i].ready, i)) goto oom;
  return r;
oom:
  snprintf(err, errlen, "out of memory");
  trace_replay_free(r);
  return NULL;
}

int trace_replay_peek(const trace_replay *r, unsigned node, uint64_t cycle, unsigned *dst,
                      unsigned *flits) {
  if (node >= r->nodes || !r->hn[node]) return 0;
  const uint64_t *h = r->hp[node];
  if (h[0] > cycle) return 0;
  uint32_t m = (uint32_t)h[1];
  const msg_state *s = &r->ms[m];
  *dst = r->t->m[m].dst;
  *flits = pkt_flits(r, s, s->taken);
  return 1;
}

int trace_replay_take(trace_replay *r, unsigned node, uint32_t pkt) {
  if (node >= r->nodes || !r->hn[node]) return -1;
  uint32_t m = (uint32_t)r->hp[node][1];
  msg_state *s = &r->ms[m];
  if (pkt >= r->pm_cap) {
    size_t nc = r->pm_cap ? r->pm_cap : 1024;
    while (nc <= pkt) nc *= 2;
    uint32_t *q = realloc(r->pkt_msg, sizeof *q * nc);
    if (!q) return -1;
    memset(q + r->pm_cap, 0, sizeof *q * (nc - r->pm_cap));
    r->pkt_msg = q;
    uint8_t *d = realloc(r->pkt_done, nc);
    if (!d) return -1;
    memset(d + r->pm_cap, 0, nc - r->pm_cap);
    r->pkt_done = d;
    r->pm_cap = nc;
  }
  if (r->pkt_msg[pkt]) return -1;
  r->pkt_msg[pkt] = m + 1;
  if (++s->taken == s->npk) heap_pop(r, node);
  return 0;
}

int trace_replay_delivered(trace_replay *r, uint32_t pkt, uint64_t cycle) {
  if (pkt >= r->pm_cap || !r->pkt_msg[pkt] || r->pkt_done[pkt]) return -1;
  r->pkt_done[pkt] = 1;
  uint32_t m = r->pkt_msg[pkt] - 1;
  msg_state *s = &r->ms[m];
  r->delivered_pkts++;
  if (--s->left) return 0;
  s->delivered = cycle + 1;
  r->delivered_msgs++;
  if (cycle + 1 > r->completion) r->completion = cycle + 1;
  for (uint32_t k = r->dn_off[m]; k < r->dn_off[m + 1]; k++) {
    uint32_t q = r->dn[k];
    msg_state *qs = &r->ms[q];
    uint64_t rd = cycle + 1 + r->t->m[q].delay; /* compute time after its dependencies */
    if (rd > qs->ready) qs->ready = rd;
    if (!--qs->unmet && heap_push(r, r->t->m[q].src, qs->ready, q)) return -1;
  }
  return 0;
}

int trace_replay_done(const trace_replay *r) { return r->delivered_msgs == r->t->n; }

uint64_t trace_replay_next_ready(const trace_replay *r) {
  uint64_t best = UINT64_MAX;
  for (unsigned v = 0; v < r->nodes; v++)
    if (r->hn[v] && r->hp[v][0] < best) best = r->hp[v][0];
  return best;
}

void trace_replay_stats(const trace_replay *r, trace_stats *s) {
  memset(s, 0, sizeof *s);
  s->messages = r->t->n;
  s->packets = r->packets;
  s->flits = r->flits;
  s->bytes = r->bytes;
  s->dependencies = r->t->nd;
  s->messages_delivered = r->delivered_msgs;
  s->packets_delivered = r->delivered_pkts;
  s->completion = r->completion;
  s->lower_bound = r->lower_bound;
}

uint64_t trace_replay_lower_bound(trace_replay *r,
                                  uint64_t (*path)(void *ctx, unsigned src, unsigned dst),
                                  void *ctx) {
  const trace *t = r->t;
  uint32_t n = t->n;
  uint64_t lb = 0;
  uint64_t *done = malloc(sizeof *done * (n ? n : 1)); /* earliest delivery cycle + 1 */
  uint64_t *in = calloc(r->nodes, sizeof *in), *out = calloc(r->nodes, sizeof *out);
  if (done && in && out) {
    for (uint32_t i = 0; i < n; i++) { /* dependencies come first: one pass */
      const msg_rec *m = &t->m[i];
      uint64_t start = m->time;
      for (uint32_t k = 0; k < m->ndeps; k++) {
        uint64_t d = done[t->deps[m->dep_off + k]] + m->delay;
        if (d > start) start = d;
      }
      done[i] = start + path(ctx, m->src, m->dst) + r->ms[i].flits;
      if (done[i] > lb) lb = done[i];
      out[m->src] += r->ms[i].flits;
      in[m->dst] += r->ms[i].flits;
    }
    for (unsigned v = 0; v < r->nodes; v++) {
      if (out[v] > lb) lb = out[v];
      if (in[v] > lb) lb = in[v];
    }
  }
  free(done);
  free(in);
  free(out);
  r->lower_bound = lb;
  return lb;
}
