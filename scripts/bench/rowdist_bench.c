/* rowdist_bench.c: times B X = M X on the Krylov basis's rows two ways: the row-distributed product (spm_rows_matmat, a halo exchange) against the gather of each column on rank 0 and spm_matmat_packed there (shift_invert.c's block path), and checks that they give the same bits.

   usage: mpirun -np NP rowdist_bench M.mtx [m [NB [REPEATS]]]
   M.mtx: an n x n Matrix Market file (read on rank 0); the layout has order N = n + m,
   blocks of rows as ks_dist_init makes them. Prints, on rank 0, the slowest rank's wall
   time per call (minimum and median over REPEATS calls, each between barriers), the setup
   time of the plan, the halo sizes, and whether the two results agree bit for bit. */
#include "linalg/mmio.h"
#include "linalg/rowdist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The slowest rank's time of each repeat: sorted, min and median printed. */
static void report (const char *what, double *t, int reps, int rank)
{
  MPI_Allreduce (MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  qsort (t, (size_t) reps, sizeof *t, cmp_double);
  if (rank == 0) printf ("%-44s min %8.3f ms  median %8.3f ms\n", what, 1e3 * t[0], 1e3 * t[reps / 2]);
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf (stderr, "usage: rowdist_bench M.mtx [m [NB [REPEATS]]]\n");
    MPI_Finalize ();
    return 1;
  }
  int m = argc > 2 ? atoi (argv[2]) : 0, nb = argc > 3 ? atoi (argv[3]) : 4;
  int reps = argc > 4 ? atoi (argv[4]) : 50;
  mb_err err;
  mb_err_init (&err);
  spm *M = NULL;
  int rc = 0, n = 0;
  if (rank == 0) {
    rc = mmio_read (argv[1], &M, &err);
    if (rc == 0) rc = spm_compress (M);
    if (rc == 0) n = M->nrows;
  }
  if (mb_agree (MPI_COMM_WORLD, rc, &err) < 0) {
    if (rank == 0) mb_err_print (&err);
    MPI_Finalize ();
    return 1;
  }
  MPI_Bcast (&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int N = n + m, row0 = (int) ((long) N * rank / size);
  int nloc = (int) ((long) N * (rank + 1) / size) - row0, ld = nloc > 0 ? nloc : 1;
  int *counts = malloc ((size_t) size * sizeof *counts), *displs = malloc ((size_t) size * sizeof *displs);
  for (int r = 0; r < size; r++) {
    displs[r] = (int) ((long) N * r / size);
    counts[r] = (int) ((long) N * (r + 1) / size) - displs[r];
  }
  double *X = malloc ((size_t) ld * nb * sizeof *X), *Y = malloc ((size_t) ld * nb * sizeof *Y);
  double *t = malloc ((size_t) reps * sizeof *t);
  unsigned s = 12345u + (unsigned) rank;
  for (size_t k = 0; k < (size_t) ld * nb; k++) {
    s = s * 1103515245u + 12345u;
    X[k] = ((s >> 8) & 0xffffff) / 16777216.0 - 0.5;
  }

  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = MPI_Wtime ();
  spm_part P;  /* this rank's rows of M, then their halo plan (as the stages build them) */
  int own = n - row0 < nloc ? n - row0 : nloc;
  spm_rows *R = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? M : NULL, row0,
                                  own > 0 ? own : 0, &P, &err) == 0
                ? spm_rows_from_part (MPI_COMM_WORLD, &P, n, N, row0, nloc, &err) : NULL;
  double tsetup = MPI_Wtime () - t0;
  MPI_Allreduce (MPI_IN_PLACE, &tsetup, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!R) {
    if (rank == 0) mb_err_print (&err);
    MPI_Finalize ();
    return 1;
  }
  int plan[3], maxplan[3];
  spm_rows_plan (R, &plan[0], &plan[1], &plan[2]);
  MPI_Allreduce (plan, maxplan, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf ("n %d, N %d, nnz %ld, %d ranks, nb %d, %d repeats; setup %.1f ms; "
            "largest halo: %d received, %d sent per column, %d neighbours\n",
            n, N, M->nnz, size, nb, reps, 1e3 * tsetup, maxplan[0], maxplan[1], maxplan[2]);

  /* the row-distributed product */
  spm_rows_matmat (R, nb, X, ld, Y, ld, &err);     /* buffers grown once */
  for (int k = 0; k < reps; k++) {
    MPI_Barrier (MPI_COMM_WORLD);
    t0 = MPI_Wtime ();
    spm_rows_matmat (R, nb, X, ld, Y, ld, &err);
    t[k] = MPI_Wtime () - t0;
  }
  report ("spm_rows_matmat (halo exchange)", t, reps, rank);

  /* shift_invert.c's way: each column gathered on rank 0 (N entries), packed, then
     spm_matmat_packed there, SPM_MM_CHUNK columns at a time; Z (N x nb) on rank 0 */
  double *xf = NULL, *work = NULL, *Z = NULL;
  if (rank == 0) {
    xf = malloc ((size_t) N * sizeof *xf);
    work = malloc (SPM_MM_WORK (n) * sizeof *work);
    Z = calloc ((size_t) N * nb, sizeof *Z);
  }
  for (int k = -1; k < reps; k++) {
    MPI_Barrier (MPI_COMM_WORLD);
    t0 = MPI_Wtime ();
    for (int j0 = 0; j0 < nb; j0 += SPM_MM_CHUNK) {
      int nc = nb - j0 < SPM_MM_CHUNK ? nb - j0 : SPM_MM_CHUNK;
      double *y[SPM_MM_CHUNK];
      for (int j = 0; j < nc; j++) {
        MPI_Gatherv (X + (size_t) (j0 + j) * ld, nloc, MPI_DOUBLE, xf, counts, displs,
                     MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0)
          for (int c = 0; c < n; c++) work[(size_t) c * nc + j] = xf[c];
        y[j] = Z + (size_t) (j0 + j) * N;
      }
      if (rank == 0) {
        spm_matmat_packed (M, nc, work, y);
        for (int j = 0; j < nc; j++) memset (y[j] + n, 0, (size_t) (N - n) * sizeof *y[j]);
      }
    }
    if (k >= 0) t[k] = MPI_Wtime () - t0;
  }
  report ("gather on rank 0 + spm_matmat_packed", t, reps, rank);

  /* the same bits? (the distributed result gathered for the check) */
  int same = 1;
  for (int j = 0; j < nb; j++) {
    MPI_Gatherv (Y + (size_t) j * ld, nloc, MPI_DOUBLE, xf, counts, displs, MPI_DOUBLE, 0,
                 MPI_COMM_WORLD);
    if (rank == 0 && memcmp (xf, Z + (size_t) j * N, (size_t) N * sizeof *xf) != 0) same = 0;
  }
  if (rank == 0) printf ("bit for bit the same: %s\n", same ? "yes" : "NO");
  spm_rows_free (R);
  spm_part_clear (&P);
  spm_free (M);
  free (counts); free (displs); free (X); free (Y); free (t); free (xf); free (work); free (Z);
  MPI_Finalize ();
  return same ? 0 : 1;
}
