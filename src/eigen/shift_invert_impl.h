/* shift_invert_impl.h: GEP (31)'s shift-invert apply by rows written once for both
   arithmetics. Included by shift_invert.c once per arithmetic with SI_SCALAR (double or
   double complex), SI_MPI (its MPI datatype), SI_SHIFT (si->sigma as an SI_SCALAR),
   SI_MATMAT (Y = A X on this rank's rows for a real spm_rows A: rows_matmat_real or
   rows_matmat_complex) and SI_NAME (the function's suffix: remap_rows_real or
   remap_rows_complex) defined. */

/* Collective. For each of the nseg segments g[k]: Y(d0 + i, j) = X(s0 + i, j) for
   0 <= i < len, j < nb (X = g[k].X, Y = g[k].Y, SI_SCALAR), from the block layout of order
   ns (X's: this rank's rows, leading dimension g[k].ldx) to that of order nd (Y's). Each
   rank sends the rows it holds of the source ranges to the ranks that hold their
   destinations, per destination segment after segment and column after column, in
   si->sbuf; one MPI_Alltoallv for all segments; received in the same order into si->rbuf
   and put in place (one rank: a copy through the buffers). Returns 0 or MB_ENOMEM on every
   rank. */
static int SI_NAME (remap_rows) (shift_invert *si, int ns, int nd, int nseg,
                                 const remap_seg *g, int nb)
{
  int P, me;
  MPI_Comm_size (si->comm, &P);
  MPI_Comm_rank (si->comm, &me);
  int *sc = si->cnt, *sd = sc + P, *rc = sd + P, *rd = rc + P;
  int a, ah, b, bh;
  block_rows (ns, P, me, &a, &ah);
  block_rows (nd, P, me, &b, &bh);
  size_t ns_tot = 0, nr_tot = 0;
  for (int r = 0; r < P; r++) {
    int slo, shi, dlo, dhi, l, h;
    block_rows (nd, P, r, &dlo, &dhi);  /* sent to r: my moved rows that land in r's */
    block_rows (ns, P, r, &slo, &shi);  /* received from r: r's rows that land in mine */
    sc[r] = rc[r] = 0;
    for (int k = 0; k < nseg; k++) {
      seg_rows (&g[k], a, ah, dlo, dhi, &l, &h);
      sc[r] += h > l ? (h - l) * nb : 0;
      seg_rows (&g[k], slo, shi, b, bh, &l, &h);
      rc[r] += h > l ? (h - l) * nb : 0;
    }
    sd[r] = (int) ns_tot;
    rd[r] = (int) nr_tot;
    ns_tot += (size_t) sc[r];
    nr_tot += (size_t) rc[r];
  }
  int ok = grow (&si->sbuf, &si->cap_sbuf, ns_tot * sizeof (SI_SCALAR))
           && grow (&si->rbuf, &si->cap_rbuf, nr_tot * sizeof (SI_SCALAR));
  int st = mb_agree (si->comm, ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for the "
                     "shift-invert rows (order %d)", si->dist.n), si->err);
  if (st < 0) return st;
  for (int r = 0; r < P; r++) {  /* pack: per destination, per segment, column after column */
    int dlo, dhi, l, h;
    block_rows (nd, P, r, &dlo, &dhi);
    SI_SCALAR *out = (SI_SCALAR *) si->sbuf + sd[r];
    for (int k = 0; k < nseg; k++) {
      const SI_SCALAR *X = g[k].X;
      seg_rows (&g[k], a, ah, dlo, dhi, &l, &h);
      for (int j = 0; j < nb && h > l; j++)
        for (int q = l; q < h; q++) *out++ = X[(size_t) j * g[k].ldx + (q - a)];
    }
  }
  MPI_Alltoallv (si->sbuf, sc, sd, SI_MPI, si->rbuf, rc, rd, SI_MPI, si->comm);
  for (int r = 0; r < P; r++) {  /* unpack in the same order */
    int slo, shi, l, h;
    block_rows (ns, P, r, &slo, &shi);
    const SI_SCALAR *in = (const SI_SCALAR *) si->rbuf + rd[r];
    for (int k = 0; k < nseg; k++) {
      SI_SCALAR *Y = g[k].Y;
      int shift = g[k].d0 - g[k].s0;
      seg_rows (&g[k], slo, shi, b, bh, &l, &h);
      for (int j = 0; j < nb && h > l; j++)
        for (int q = l; q < h; q++) Y[(size_t) j * g[k].ldy + (q + shift - b)] = *in++;
    }
  }
  return 0;
}

/* Collective. Y = OP X for GEP (31) by rows, nb columns of the Krylov layout (order
   2n + m): U = x_u and V = x_v moved to the reduced layout's rows (order n + m; rows >= n
   zero), V = w V + sigma U, Z = -(M V + R U) there (SI_MATMAT: one halo exchange each),
   solved in place (solve_block), V = (U + sigma Z) / w, and [Z_q; V; Z_xi] moved back to
   Y's rows: two row exchanges of the block (one in, one out), nothing gathered, X read
   before Y is written (they may overlap). With b = B x = [x_u; M x_v; 0], the reduced
   system of pencil_damped_reduced (pencil.h) has the right-hand side
   [-w b2 - (R + sigma M) b1; -w^2 b3] = [-(M (w x_v + sigma x_u) + R x_u); 0] and gives
   u = z_q, xi = z_xi, v = (b1 + sigma u) / w. Work blocks U, V, Z, T in si->work (grown
   on demand, fault site "krylov"). Returns 0 or an error on every rank. */
static int SI_NAME (apply_damped) (shift_invert *si, int nb, const SI_SCALAR *X, int ldx,
                                   SI_SCALAR *Y, int ldy)
{
  const gep_system *sys = si->sys;
  int n = sys->n, m = sys->m, nr = n + m, N = si->dist.n, rl = si->rdist.nloc;
  int r0 = si->rdist.row0, ld = rl > 0 ? rl : 1;
  SI_SCALAR sigma = SI_SHIFT (si->sigma);
  double w = si->w;
  size_t blk = (size_t) ld * nb;
  int ok = grow (&si->work, &si->cap_work, 4 * blk * sizeof *X);
  int rc = mb_agree (si->comm, ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for "
                     "the block of shift-invert vectors (order %d)", N), si->err);
  if (rc < 0) return rc;
  SI_SCALAR *U = si->work, *V = U + blk, *Z = V + blk, *T = Z + blk;
  memset (U, 0, 2 * blk * sizeof *U);
  const remap_seg in[2] = { { 0, 0, n, X, ldx, U, ld }, { n, 0, n, X, ldx, V, ld } };
  if ((rc = SI_NAME (remap_rows) (si, N, nr, 2, in, nb)) < 0) return rc;
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < rl && r0 + k < n; k++) {
      size_t q = (size_t) j * ld + k;
      V[q] = w * V[q] + sigma * U[q];
    }
  if ((rc = SI_MATMAT (si, si->mrows, nb, V, ld, Z)) < 0) return rc;
  if (si->rrows && (rc = SI_MATMAT (si, si->rrows, nb, U, ld, T)) < 0) return rc;
  for (size_t q = 0; q < blk; q++) Z[q] = -(Z[q] + (si->rrows ? T[q] : 0.0));
  if ((rc = solve_block (si, r0, rl, Z, ld, nb)) < 0) return rc;
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < rl && r0 + k < n; k++) {
      size_t q = (size_t) j * ld + k;
      V[q] = (U[q] + sigma * Z[q]) / w;
    }
  const remap_seg out[3] = { { 0, 0, n, Z, ld, Y, ldy }, { 0, n, n, V, ld, Y, ldy },
                             { n, 2 * n, m, Z, ld, Y, ldy } };
  return SI_NAME (remap_rows) (si, nr, N, 3, out, nb);
}
