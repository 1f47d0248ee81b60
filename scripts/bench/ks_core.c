/* ks_core.c: times Krylov-Schur's own work (Gram-Schmidt, Schur, basis) on an operator
   that costs next to nothing: a diagonal with the spectrum of a shift-invert operator,
   mu_i = 1 / (lambda_i - sigma), lambda_i = (i + 1)^2. Same sizes as the beam-grid
   benchmark by default (n = 60024, nev = 110, ncv = 0 = 220). Prints wall and CPU time of
   the solve on rank 0; built against any version of krylov_schur.c with the block operator
   (ks_apply_real of nb columns) to compare them.

   usage: mpirun -np NP ks_core [N [NEV [NCV [REPEATS [BLOCK]]]]]
   (BLOCK: Krylov-Schur's block size, 0 = its default; its counts and times go to stderr) */
#include "eigen/krylov_schur.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct diag { const ks_dist *d; double *mu; } diag;

/* Y = diag (mu) X on this rank's rows, nb columns (Krylov-Schur's block operator) */
static int apply (void *ctx, int nb, const double *X, int ldx, double *Y, int ldy)
{
  diag *g = ctx;
  for (int j = 0; j < nb; j++)
    for (int i = 0; i < g->d->nloc; i++)
      Y[i + (size_t) j * ldy] = g->mu[i] * X[i + (size_t) j * ldx];
  return 0;
}

static double cpu_seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  int n = argc > 1 ? atoi (argv[1]) : 60024, nev = argc > 2 ? atoi (argv[2]) : 110;
  int ncv = argc > 3 ? atoi (argv[3]) : 0, reps = argc > 4 ? atoi (argv[4]) : 1;
  int block = argc > 5 ? atoi (argv[5]) : 0;
  ks_dist d;
  ks_dist_init (&d, MPI_COMM_WORLD, n);
  diag g = { &d, malloc ((size_t) (d.nloc > 0 ? d.nloc : 1) * sizeof (double)) };
  for (int i = 0; i < d.nloc; i++) {
    double lambda = (double) (d.row0 + i + 1) * (d.row0 + i + 1);
    g.mu[i] = 1.0 / (lambda + 1e-3);
  }
  for (int rep = 0; rep < reps; rep++) {
    ks_opts o = { .nev = nev, .ncv = ncv, .tol = 1e-10, .max_restarts = 100, .seed = 1,
                  .block = block, .stats = stderr };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    MPI_Barrier (MPI_COMM_WORLD);
    double w0 = MPI_Wtime (), c0 = cpu_seconds ();
    int rc = ks_solve_real (&d, apply, &g, &o, &r, &err);
    double wall = MPI_Wtime () - w0, cpu = cpu_seconds () - c0;
    double worst = 0.0;  /* against the exact mu_i, largest first */
    for (int i = 0; rc == 0 && i < r.nconv && i < nev; i++)
      worst = fmax (worst, fabs (creal (r.mu[i]) - 1.0 / ((i + 1.0) * (i + 1.0) + 1e-3)) * ((i + 1.0) * (i + 1.0)));
    if (rank == 0)
      printf ("ks_core: n %d nev %d ncv %d: rc %d, %d converged, %d restarts, %d applies, "
              "wall %.3f s, cpu %.3f s (rank 0), max rel error %.1e\n", n, nev, r.ncv, rc,
              r.nconv, r.restarts, r.applies, wall, cpu, worst);
    ks_result_clear (&r);
  }
  free (g.mu);
  MPI_Finalize ();
  return 0;
}
