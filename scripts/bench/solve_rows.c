/* solve_rows.c: times a solve of 4 right-hand sides: centralized factor_solve_many (with
   the gather and scatter of the columns) against factor_solve_rows, on K - sigma M of a
   bench grid. Arguments: DIR (K.mtx, M.mtx; default build/bench/work/80x80), SIGMA (-10),
   REPEATS (8). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "linalg/factor.h"
#include "linalg/mmio.h"
#include "linalg/sparse.h"

/* qsort order of doubles, ascending. */
static int cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Factors K - sigma M (LDL^T, rank 0 reads the files), then REPEATS times the same block
   of 4 columns, block layout by rows: (A) gathered on rank 0 column by column, solved by
   factor_solve_many, scattered back; (B) solved in place by factor_solve_rows. Prints each
   repeat's wall times (max over ranks), the medians and the largest relative difference. */
int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  const char *dir = argc > 1 ? argv[1] : "build/bench/work/80x80";
  double sigma = argc > 2 ? atof (argv[2]) : -10.0;
  int reps = argc > 3 ? atoi (argv[3]) : 8, nrhs = 4;
  mb_err err;
  mb_err_init (&err);
  spm *L = NULL;
  int n = 0;
  if (rank == 0) {
    char p[512];
    spm *K, *M;
    snprintf (p, sizeof p, "%s/K.mtx", dir);
    if (mmio_read (p, &K, &err) < 0) { printf ("%s\n", err.msg); MPI_Abort (MPI_COMM_WORLD, 1); }
    snprintf (p, sizeof p, "%s/M.mtx", dir);
    if (mmio_read (p, &M, &err) < 0) { printf ("%s\n", err.msg); MPI_Abort (MPI_COMM_WORLD, 1); }
    spm *A = spm_sum (1.0, K, -sigma, M);
    L = spm_lower (A);
    n = L->nrows;
    spm_free (K); spm_free (M); spm_free (A);
  }
  MPI_Bcast (&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double t0 = MPI_Wtime ();
  factor *f = factor_create (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, n, L ? L->nnz : 0,
                             L ? L->row : NULL, L ? L->col : NULL, L ? L->val : NULL,
                             "K - sigma M", &err);
  if (!f) { if (rank == 0) printf ("%s\n", err.msg); MPI_Abort (MPI_COMM_WORLD, 1); }
  double tfac = MPI_Wtime () - t0;
  spm_free (L);
  int row0 = (int) ((long long) n * rank / size);
  int nloc = (int) ((long long) n * (rank + 1) / size) - row0;
  int *cnt = malloc (size * sizeof *cnt), *dsp = malloc (size * sizeof *dsp);
  for (int r = 0; r < size; r++) {
    dsp[r] = (int) ((long long) n * r / size);
    cnt[r] = (int) ((long long) n * (r + 1) / size) - dsp[r];
  }
  double *V = malloc ((size_t) nloc * nrhs * sizeof *V);
  double *W = malloc ((size_t) nloc * nrhs * sizeof *W);
  double *full = rank == 0 ? malloc ((size_t) n * nrhs * sizeof *full) : NULL;
  double *ta = malloc (reps * sizeof *ta), *ts = malloc (reps * sizeof *ts),
         *tb = malloc (reps * sizeof *tb);
  double maxdiff = 0;
  for (int it = 0; it < reps; it++) {
    for (int j = 0; j < nrhs; j++)
      for (int i = 0; i < nloc; i++)
        V[(size_t) j * nloc + i] = W[(size_t) j * nloc + i] =
          sin (0.001 * (row0 + i) * (j + 1) + it);
    /* A: gather columns on rank 0, centralized solve, scatter back */
    MPI_Barrier (MPI_COMM_WORLD);
    double a0 = MPI_Wtime ();
    for (int j = 0; j < nrhs; j++)
      MPI_Gatherv (V + (size_t) j * nloc, nloc, MPI_DOUBLE, full ? full + (size_t) j * n : NULL,
                   cnt, dsp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double s0 = MPI_Wtime ();
    if (factor_solve_many (f, full, nrhs, &err) < 0) MPI_Abort (MPI_COMM_WORLD, 2);
    double s1 = MPI_Wtime ();
    for (int j = 0; j < nrhs; j++)
      MPI_Scatterv (full ? full + (size_t) j * n : NULL, cnt, dsp, MPI_DOUBLE,
                    V + (size_t) j * nloc, nloc, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double a1 = MPI_Wtime ();
    /* B: rows solve */
    MPI_Barrier (MPI_COMM_WORLD);
    double b0 = MPI_Wtime ();
    if (factor_solve_rows (f, row0, nloc, W, nloc, nrhs, &err) < 0) {
      if (rank == 0) printf ("%s\n", err.msg);
      MPI_Abort (MPI_COMM_WORLD, 3);
    }
    double b1 = MPI_Wtime ();
    double dA = a1 - a0, dS = s1 - s0, dB = b1 - b0;
    MPI_Allreduce (&dA, &ta[it], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce (&dS, &ts[it], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce (&dB, &tb[it], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double d = 0, s = 0;
    for (size_t k = 0; k < (size_t) nloc * nrhs; k++) {
      d = fmax (d, fabs (V[k] - W[k]));
      s = fmax (s, fabs (V[k]));
    }
    MPI_Allreduce (MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce (MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    maxdiff = fmax (maxdiff, d / s);
  }
  if (rank == 0) {
    printf ("n %d, %d ranks, nrhs %d, factor_create %.2f s, %d reps (first included)\n", n,
            size, nrhs, tfac, reps);
    for (int it = 0; it < reps; it++)
      printf ("  rep %d: centralized %.4f s (solve_many %.4f), rows %.4f s\n", it, ta[it],
              ts[it], tb[it]);
    qsort (ta, reps, sizeof *ta, cmp);
    qsort (ts, reps, sizeof *ts, cmp);
    qsort (tb, reps, sizeof *tb, cmp);
    printf ("median per block of %d: centralized %.4f s (solve_many alone %.4f, gather+scatter "
            "%.4f), rows %.4f s; min %.4f / %.4f; max rel diff %.2e\n", nrhs, ta[reps / 2],
            ts[reps / 2], ta[reps / 2] - ts[reps / 2], tb[reps / 2], ta[0], tb[0], maxdiff);
  }
  factor_free (f);
  free (V); free (W); free (full); free (cnt); free (dsp); free (ta); free (ts); free (tb);
  MPI_Finalize ();
  return 0;
}
