/* net_mpi.h — MPI transport for a network split over ranks (net_comm of
 * network.h). Only in build/asw-mpi (compiled with mpicc, -DASW_MPI). */
#ifndef NET_NET_MPI_H
#define NET_NET_MPI_H

#include <stddef.h>

#include "network.h"

typedef struct net_mpi net_mpi;

/* MPI_Init unless done; 0 or -1. */
int net_mpi_init(int *argc, char ***argv);
/* MPI_Finalize unless done or never initialised. */
void net_mpi_finalize(void);
/* Ends every rank (after a failure that leaves the ranks out of step). */
void net_mpi_abort(int code);
/* Fills c (rank, ranks, callbacks) for MPI_COMM_WORLD. NULL with a message. */
net_mpi *net_mpi_new(net_comm *c, char *err, size_t errlen);
void net_mpi_free(net_mpi *m);
/* Collective helpers for the command: the largest exit status, the largest
 * value, the sum over the ranks. */
int net_mpi_max_rc(int rc);
double net_mpi_max_double(double v);
long net_mpi_sum_long(long v);

#endif
