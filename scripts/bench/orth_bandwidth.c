/* orth_bandwidth.c: the memory bandwidth that Gram-Schmidt's two products over the Krylov
   basis reach on this machine, one thread: C = V^T W and W -= V C (OpenBLAS dgemm, the
   shapes of a block step: V n x q, W n x nb), against a plain streaming sum over V.
   usage: orth_bandwidth [n q nb]   (default 235224 160 16: the 80x80 grid's pencil order,
   a basis in the middle of its subspace, a lagged block pair of 8) */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 235224, q = argc > 2 ? atoi (argv[2]) : 160;
  int nb = argc > 3 ? atoi (argv[3]) : 16;
  if (n < 1 || q < 1 || nb < 1) { fprintf (stderr, "usage: orth_bandwidth [n q nb]\n"); return 2; }
  double *V = malloc ((size_t) n * q * sizeof *V), *W = malloc ((size_t) n * nb * sizeof *W);
  double *C = calloc ((size_t) q * nb, sizeof *C);
  if (!V || !W || !C) { fprintf (stderr, "orth_bandwidth: out of memory\n"); return 1; }
  for (size_t i = 0; i < (size_t) n * q; i++) V[i] = (double) (i % 7) * 0.1;
  for (size_t i = 0; i < (size_t) n * nb; i++) W[i] = (double) (i % 5) * 0.1;
  double gb = (double) n * q * sizeof *V / 1e9;  /* V read once per product */
  printf ("n %d, q %d, nb %d: V is %.2f GB; GB/s of V read (best of 5)\n", n, q, nb, gb);
  double best[3] = { 1e30, 1e30, 1e30 }, sum = 0.0;
  for (int rep = 0; rep < 5; rep++) {
    double t = now ();
    for (size_t i = 0; i < (size_t) n * q; i++) sum += V[i];
    double ts = now () - t;
    t = now ();
    cblas_dgemm (CblasColMajor, CblasTrans, CblasNoTrans, q, nb, n, 1.0, V, n, W, n, 0.0, C, q);
    double tp = now () - t;
    t = now ();
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, nb, q, -1e-9, V, n, C, q, 1.0,
                 W, n);
    double tu = now () - t;
    if (ts < best[0]) best[0] = ts;
    if (tp < best[1]) best[1] = tp;
    if (tu < best[2]) best[2] = tu;
  }
  printf ("streaming sum      %6.2f GB/s\nC = V^T W (dgemm) %6.2f GB/s\nW -= V C (dgemm)  %6.2f GB/s\n"
          "(checksum %g)\n", gb / best[0], gb / best[1], gb / best[2], sum);
  free (V); free (W); free (C);
  return 0;
}
