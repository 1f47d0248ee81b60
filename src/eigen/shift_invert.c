/* shift_invert.c: OP = (A - sigma B)^-1 B on row-distributed Krylov vectors. */
#include "shift_invert.h"

#include <stdlib.h>
#include <string.h>

#include "pencil.h"

/* Collective. The distribution of order N and rank 0's buffers (vsize bytes an entry), owned
   by si until shift_invert_clear. Returns 0 or MB_ENOMEM on every rank. */
int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                       int N, size_t vsize, mb_err *err)
{
  int rank, size;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  memset (si, 0, sizeof *si);
  si->comm = comm;
  si->f = f;
  si->sys = sys;
  si->err = err;
  ks_dist_init (&si->dist, comm, N);
  int ok = !mb_fault ("krylov");
  if (rank == 0 && ok) {
    si->counts = mb_calloc ((size_t) size, sizeof *si->counts);
    si->displs = mb_calloc ((size_t) size, sizeof *si->displs);
    si->full = mb_calloc ((size_t) N, vsize);
    si->full2 = mb_calloc ((size_t) N, vsize);
    ok = si->counts && si->displs && si->full && si->full2;
  }
  int rc = ok ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the shift-invert vectors "
                             "(order %d)", N);
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  MPI_Gather (&si->dist.nloc, 1, MPI_INT, si->counts, 1, MPI_INT, 0, comm);
  MPI_Gather (&si->dist.row0, 1, MPI_INT, si->displs, 1, MPI_INT, 0, comm);
  return 0;
}

/* Frees rank 0's buffers (the factors stay the caller's) and zeroes si. */
void shift_invert_clear (shift_invert *si)
{
  free (si->counts); free (si->displs); free (si->full); free (si->full2);
  memset (si, 0, sizeof *si);
}

/* Collective. z (rank 0, whole) solved in place, then scattered into y (this rank's rows). */
static int solve_and_scatter (shift_invert *si, void *z, void *y, MPI_Datatype type)
{
  double t = MPI_Wtime ();
  int rc = factor_solve (si->f, z, si->err);
  if (rc == 0)
    MPI_Scatterv (z, si->counts, si->displs, type, y, si->dist.nloc, type, 0, si->comm);
  si->t_solve += MPI_Wtime () - t;
  si->solves++;
  return rc;
}

/* Collective. y = (A - sigma B)^-1 B x for the undamped pencil: z = [M x_q; 0], solve. */
int shift_invert_apply_undamped (void *ctx, const double *x, double *y)
{
  shift_invert *si = ctx;
  int rank;
  MPI_Comm_rank (si->comm, &rank);
  double *xf = si->full, *z = si->full2;
  MPI_Gatherv (x, si->dist.nloc, MPI_DOUBLE, xf, si->counts, si->displs, MPI_DOUBLE, 0, si->comm);
  if (rank == 0) pencil_b_undamped (si->sys, xf, z);
  return solve_and_scatter (si, rank == 0 ? z : NULL, y, MPI_DOUBLE);
}

/* Collective. y = (A - sigma B)^-1 B x for the damped pencil: z = [x_u; M x_v; 0], solve. */
int shift_invert_apply_damped (void *ctx, const double complex *x, double complex *y)
{
  shift_invert *si = ctx;
  int rank;
  MPI_Comm_rank (si->comm, &rank);
  double complex *xf = si->full, *z = si->full2;
  MPI_Gatherv (x, si->dist.nloc, MPI_C_DOUBLE_COMPLEX, xf, si->counts, si->displs,
               MPI_C_DOUBLE_COMPLEX, 0, si->comm);
  if (rank == 0) pencil_b_damped (si->sys, xf, z);
  return solve_and_scatter (si, rank == 0 ? z : NULL, y, MPI_C_DOUBLE_COMPLEX);
}

