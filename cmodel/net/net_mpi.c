/* net_mpi.c — the MPI transport of a distributed network run (net_comm of
 * network.h). Built only into build/asw-mpi (mpicc, -DASW_MPI); the plain
 * asw has no MPI dependency. */
#include "net_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

struct net_mpi {
  MPI_Comm comm;
  int ranks;
  uint64_t *hout, *hin;  /* [ranks * (nh + 1)]: byte count, then the header */
  int *scnt, *sdsp, *rcnt, *rdsp;
  char *rbuf;
  size_t rcap;
  unsigned nh;
};

/* Element-wise sums of one call, in chunks below INT_MAX elements. */
static int mpi_sum(void *ctx, uint64_t *u, size_t nu, double *f, size_t nf) {
  net_mpi *m = ctx;
  for (size_t at = 0; at < nu;) {
    int k = nu - at > (size_t)(INT_MAX / 2) ? INT_MAX / 2 : (int)(nu - at);
    if (MPI_Allreduce(MPI_IN_PLACE, u + at, k, MPI_UINT64_T, MPI_SUM, m->comm) != MPI_SUCCESS)
      return -1;
    at += (size_t)k;
  }
  for (size_t at = 0; at < nf;) {
    int k = nf - at > (size_t)(INT_MAX / 2) ? INT_MAX / 2 : (int)(nf - at);
    if (MPI_Allreduce(MPI_IN_PLACE, f + at, k, MPI_DOUBLE, MPI_SUM, m->comm) != MPI_SUCCESS)
      return -1;
    at += (size_t)k;
  }
  return 0;
}

/* One all-to-all of the fixed headers (with each rank's byte count), then
 * one all-to-all-v of the records. */
static int mpi_exchange(void *ctx, unsigned nh, const uint64_t *hdr_out, uint64_t *hdr_in,
                        const void *out, const size_t *off_out, const size_t *len_out,
                        const void **in, size_t *in_len) {
  net_mpi *m = ctx;
  const int R = m->ranks;
  if (nh != m->nh) {
    free(m->hout);
    free(m->hin);
    m->hout = calloc((size_t)R * (nh + 1), 8);
    m->hin = calloc((size_t)R * (nh + 1), 8);
    if (!m->hout || !m->hin) return -1;
    m->nh = nh;
  }
  for (int r = 0; r < R; r++) {
    if (len_out[r] > INT_MAX || off_out[r] > INT_MAX) return -1;
    m->hout[(size_t)r * (nh + 1)] = len_out[r];
    memcpy(&m->hout[(size_t)r * (nh + 1) + 1], &hdr_out[(size_t)r * nh], nh * 8);
  }
  if (MPI_Alltoall(m->hout, (int)nh + 1, MPI_UINT64_T, m->hin, (int)nh + 1, MPI_UINT64_T,
                   m->comm) != MPI_SUCCESS)
    return -1;
  size_t total = 0;
  for (int r = 0; r < R; r++) {
    uint64_t len = m->hin[(size_t)r * (nh + 1)];
    memcpy(&hdr_in[(size_t)r * nh], &m->hin[(size_t)r * (nh + 1) + 1], nh * 8);
    if (len > INT_MAX || total > INT_MAX) return -1;
    m->rcnt[r] = (int)len;
    m->rdsp[r] = (int)total;
    m->scnt[r] = (int)len_out[r];
    m->sdsp[r] = (int)off_out[r];
    total += len;
  }
  if (total > m->rcap) {
    char *p = realloc(m->rbuf, total * 2);
    if (!p) return -1;
    m->rbuf = p;
    m->rcap = total * 2;
  }
  if (MPI_Alltoallv(out, m->scnt, m->sdsp, MPI_BYTE, m->rbuf, m->rcnt, m->rdsp, MPI_BYTE,
                    m->comm) != MPI_SUCCESS)
    return -1;
  *in = m->rbuf;
  *in_len = total;
  return 0;
}

int net_mpi_init(int *argc, char ***argv) {
  int have = 0;
  MPI_Initialized(&have);
  if (!have && MPI_Init(argc, argv) != MPI_SUCCESS) return -1;
  return 0;
}

void net_mpi_finalize(void) {
  int have = 0, done = 0;
  MPI_Initialized(&have);
  MPI_Finalized(&done);
  if (have && !done) MPI_Finalize();
}

void net_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

net_mpi *net_mpi_new(net_comm *c, char *err, size_t errlen) {
  net_mpi *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  m->comm = MPI_COMM_WORLD;
  int rank = 0;
  MPI_Comm_rank(m->comm, &rank);
  MPI_Comm_size(m->comm, &m->ranks);
  m->scnt = calloc((size_t)m->ranks, sizeof(int));
  m->sdsp = calloc((size_t)m->ranks, sizeof(int));
  m->rcnt = calloc((size_t)m->ranks, sizeof(int));
  m->rdsp = calloc((size_t)m->ranks, sizeof(int));
  if (!m->scnt || !m->sdsp || !m->rcnt || !m->rdsp) {
    snprintf(err, errlen, "out of memory");
    net_mpi_free(m);
    return NULL;
  }
  c->ctx = m;
  c->rank = (unsigned)rank;
  c->ranks = (unsigned)m->ranks;
  c->exchange = mpi_exchange;
  c->sum = mpi_sum;
  return m;
}

void net_mpi_free(net_mpi *m) {
  if (!m) return;
  free(m->hout); free(m->hin);
  free(m->scnt); free(m->sdsp); free(m->rcnt); free(m->rdsp);
  free(m->rbuf);
  free(m);
}

int net_mpi_max_rc(int rc) {
  int all = rc;
  if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) return rc;
  return all;
}

double net_mpi_max_double(double v) {
  double all = v;
  MPI_Allreduce(&v, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

long net_mpi_sum_long(long v) {
  long all = v;
  MPI_Allreduce(&v, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}
