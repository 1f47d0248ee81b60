/* fim.c: the force imbalance method: Newton-Raphson on F(q, gamma) = 0, C(q) = 0 with the
   Jacobian factored by MUMPS on every rank, a rotation step limit and a backtracking line
   search (seed 002, "The Force Imbalance Method"). */
#include "statics_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"

enum { SLOT_BEST = 0, SLOT_BASE = 3, MAX_HALVINGS = 6 };
#define DIVERGE 1e4

/* Rank 0. At the current q with multipliers gamma: evaluates, F = r + Cq^T gamma, the
   merit ||F||_2 + kmax ||C||_2 and the work of F along the step, dq^T F. */
static int merit (const statics_problem *p, const double *gamma, double kmax, const double *dq,
                  double *F, double *phi, double *work, mb_err *err)
{
  statics_eval e;
  MB_TRY (p->eval (p->ctx, gamma, &e, err));
  statics_residual (&e, p->n, p->m, gamma, F);
  *phi = statics_norm_2 (F, p->n) + kmax * (p->m > 0 ? statics_norm_2 (e.c, p->m) : 0.0);
  double w = 0;
  for (int i = 0; i < p->n; i++) w += dq[i] * F[i];
  *work = w;
  return 0;
}

/* Rank 0. The step: a = min (1, STATICS_MAX_ROTATION / max |dtheta|) (large rotations
   never overshoot by more than that), halved (up to MAX_HALVINGS times) only while the
   residual at the trial is not finite or its merit ||F||_2 + kmax ||C||_2 grows beyond
   DIVERGE times the current one (divergence). Not a merit line search: after a bending
   step of a slender beam the stiff axial residual grows for one iteration and a merit or
   energy test would take tiny steps (a cantilever at P L^2 / EI = 1 then stalls; full
   steps converge in 6 iterations). x = [dq; dgamma]. On return the state and gamma are
   moved by a x. */
static int line_search (const statics_problem *p, const double *x, const double *F0,
                        double phi0, double kmax, double *gamma, double *gtrial, double *F,
                        double *a_out, mb_err *err)
{
  int n = p->n, m = p->m;
  double a = 1.0;
  (void) F0;
  if (p->is_rotation) {
    double rot = 0;
    for (int i = 0; i < n; i++)
      if (p->is_rotation[i] && fabs (x[i]) > rot) rot = fabs (x[i]);
    if (rot > STATICS_MAX_ROTATION) a = STATICS_MAX_ROTATION / rot;
  }
  p->save (p->ctx, SLOT_BASE);
  double best_a = a, best_w = HUGE_VAL;
  for (int h = 0; h <= MAX_HALVINGS; h++, a *= 0.5) {
    for (int i = 0; i < m; i++) gtrial[i] = gamma[i] + a * x[n + i];
    p->step (p->ctx, x, a);
    double phi, work;
    MB_TRY (merit (p, gtrial, kmax, x, F, &phi, &work, err));
    p->load (p->ctx, SLOT_BASE);
    if (!isfinite (phi)) continue;
    if (fabs (work) < best_w) best_w = fabs (work), best_a = a;
    if (phi <= DIVERGE * phi0 || phi0 == 0) {
      best_a = a;
      break;
    }
  }
  p->step (p->ctx, x, best_a);
  for (int i = 0; i < m; i++) gamma[i] += best_a * x[n + i];
  *a_out = best_a;
  return 0;
}

/* Collective. Least-squares multipliers at the current state when gamma is all zero:
   [I Cq^T; Cq 0] [y; gamma] = [-r; 0], i.e. Cq Cq^T gamma = -Cq r, so that the first
   Newton tangent holds the reactions' geometric stiffness Kc (a pendulum started off its
   rest position gets its swing stiffness at the first step, not only stability M). A
   singular Cq Cq^T (redundant rows) leaves gamma at zero. */
static int initial_gamma (MPI_Comm comm, const statics_problem *p, int n, int m,
                          double *gamma, double *x, double *ones, mb_err *err)
{
  int rank, rc = 0, zero = 1;
  MPI_Comm_rank (comm, &rank);
  statics_eval e;
  memset (&e, 0, sizeof e);
  if (rank == 0) {
    for (int i = 0; i < m; i++) zero = zero && gamma[i] == 0;
    if (zero) rc = p->eval (p->ctx, gamma, &e, err);
    if (zero && rc == 0) {
      for (int i = 0; i < n; i++) x[i] = -e.r[i];
      for (int i = 0; i < m; i++) x[n + i] = 0;
    }
  }
  rc = mb_agree (comm, rc, err);
  if (rc == 0) rc = statics_bordered_solve (comm, &e, zero && m > 0, n, m, ones, x, err);
  if (rank == 0) for (int i = 0; i < n; i++) ones[i] = 0.0;  /* the caller's zero springs */
  if (rc == 0 && rank == 0 && statics_norm_inf (x + n, m) < 1e300)
    for (int i = 0; i < m; i++) gamma[i] = x[n + i];
  return rc < 0 ? rc : 0;
}

/* Rank 0. The tolerance on ||F||_inf at this iteration: the deck's max_imbalance when it
   gives one (absolute); else max (max_imbalance, REL scale) with
   REL = STATICS_REL_IMBALANCE and scale = max (||f_ext||_inf, ||gamma||_inf), the largest
   external load or joint reaction component (forces and torques alike: the round-off of
   F follows the forces the joints carry), its source in res->load_scale and
   res->scale_from. */
static double imbalance_tolerance (const statics_opts *par, const statics_eval *e,
                                   const double *gamma, int n, int m, statics_result *res)
{
  res->load_scale = 0, res->scale_from = NULL;
  if (par->imbalance_given) return res->tolerance = par->max_imbalance;
  double ext = e->fext ? statics_norm_inf (e->fext, n) : 0.0;
  double reac = m > 0 ? statics_norm_inf (gamma, m) : 0.0;
  int from_reaction = reac > ext;
  res->load_scale = from_reaction ? reac : ext;
  res->scale_from = from_reaction ? "reaction" : "external load";
  double tol = STATICS_REL_IMBALANCE * res->load_scale;
  if (!(tol > par->max_imbalance)) tol = par->max_imbalance;  /* the floor; NaN scale too */
  return res->tolerance = tol;
}

/* Rank 0. res->reason for a stop other than convergence (k iterations, nF, nC, change:
   the last state's; the best state's in res). */
static void stop_reason (statics_result *res, const statics_opts *par, int stop, int max_iter,
                         int k, int kbest, double nF, double nC, double change)
{
  char best[160];
  if (res->imbalance == res->imbalance && fabs (res->imbalance) < HUGE_VAL)
    snprintf (best, sizeof best, "the best state (|F|inf = %.3e, |C|inf = %.3e, iteration "
              "%d) is kept; it is not an equilibrium", res->imbalance, res->constraint, kbest);
  else snprintf (best, sizeof best, "no state with a finite residual was found");
  if (stop == STATICS_STOP_DIVERGED)
    snprintf (res->reason, sizeof res->reason, "the static residual is not finite at Newton "
              "iteration %d (|F|inf = %g, |C|inf = %g): a load, gravity or stiffness beyond "
              "double precision, or a step into overflow; %s", k, nF, nC, best);
  else if (stop == STATICS_STOP_ROUNDOFF)
    snprintf (res->reason, sizeof res->reason, "the Newton step stagnated at round-off: "
              "|dq|inf = %.3e and |C|inf = %.3e are within max_error %.3g, yet |F|inf = "
              "%.3e has not decreased for %d iterations and stays above the tolerance %.3g "
              "(below what double precision resolves for these forces: loosen "
              "max_imbalance); %s", change, nC, par->max_error, nF, STATICS_ROUNDOFF_WINDOW,
              res->tolerance, best);
  else if (stop == STATICS_STOP_STAGNATED)
    snprintf (res->reason, sizeof res->reason, "|F|inf + |C|inf has not decreased for %d "
              "Newton iterations (last |F|inf = %.3e, tolerance %.3g): no equilibrium may "
              "exist (the loads may exceed what the joints and springs can hold, e.g. a "
              "torque above m g d on a pendulum, or a free body pushed), or Newton cannot "
              "reach one from this start (try method mkeam, or a start nearer it); %s",
              STATICS_STALL_WINDOW, nF, res->tolerance, best);
  else
    snprintf (res->reason, sizeof res->reason, "max_num_iter = %d Newton iterations "
              "reached: %s%s%s; %s", max_iter,
              nF > res->tolerance ? "|F|inf above its tolerance" : "",
              nF > res->tolerance && (change > par->max_error || nC > par->max_error)
                ? ", " : "",
              change > par->max_error || nC > par->max_error
                ? "|dq|inf or |C|inf above max_error" : "", best);
}

/* One FIM run's state: rank 0's work arrays (NULL elsewhere) and the iteration's
   bookkeeping. gamma is res->gamma (rank 0); the best state (lowest ||F||_inf + ||C||_inf)
   is in the problem's slot SLOT_BEST and gbest. Owned by statics_fim. */
typedef struct fim_work {
  int rank, n, m, N;
  double t0;
  double *F, *Ft, *x, *gbest, *gtrial, *ones, *gamma;
  statics_lin lin;
  double change, a, best, nF, nC, sig, bestF, bestC, bestchange;
  int k, kbest, ksig, have_step, stop, nsprings, general;
} fim_work;

/* Collective. Sizes from rank 0's problem, w cleared, rank 0's arrays: F, Ft (n), x (n + m),
   gbest, gtrial (m), ones (n) and res->gamma (m, zeroed) when the caller gave none.
   Returns 0 or MB_ENOMEM on every rank. */
static int fim_alloc (MPI_Comm comm, const statics_problem *p, statics_result *res,
                      fim_work *w, mb_err *err)
{
  memset (w, 0, sizeof *w);
  MPI_Comm_rank (comm, &w->rank);
  int nm[2] = { p ? p->n : 0, p ? p->m : 0 };
  MPI_Bcast (nm, 2, MPI_INT, 0, comm);
  int n = w->n = nm[0], m = w->m = nm[1], rc = 0;
  w->N = n + m;
  w->t0 = MPI_Wtime ();
  if (w->rank == 0) {
    if (!res->gamma) res->gamma = mb_calloc ((size_t) (m > 0 ? m : 1), sizeof *res->gamma);
    w->F = mb_calloc ((size_t) n, sizeof *w->F);
    w->Ft = mb_calloc ((size_t) n, sizeof *w->Ft);
    w->x = mb_calloc ((size_t) w->N, sizeof *w->x);
    w->gbest = mb_calloc ((size_t) (m > 0 ? m : 1), sizeof *w->gbest);
    w->gtrial = mb_calloc ((size_t) (m > 0 ? m : 1), sizeof *w->gtrial);
    w->ones = mb_calloc ((size_t) n, sizeof *w->ones);
    if (!res->gamma || !w->F || !w->Ft || !w->x || !w->gbest || !w->gtrial || !w->ones
        || mb_fault ("statics"))
      rc = mb_fail (err, MB_ENOMEM, "out of memory for the static stage (n = %d)", n);
  }
  rc = mb_agree (comm, rc, err);
  w->gamma = w->rank == 0 ? res->gamma : NULL;
  w->change = w->a = w->nF = w->nC = 0;
  w->best = w->sig = HUGE_VAL;
  return rc;
}

/* Rank 0. Step 1 of iteration k: evaluates at the current state (into *e), F = r + Cq^T
   gamma, the history line (and the log line), the best state kept, and the stop:
   flags[0] = diverged (not finite), converged (||F||_inf <= tolerance with the last
   ||a dq||_inf and ||C||_inf <= max_error), max_iter, round-off (small step, no progress
   for STATICS_ROUNDOFF_WINDOW iterations) or stagnated (no 1% progress for
   STATICS_STALL_WINDOW), else 0; flags[1] = e's non-symmetry. Returns 0 or an error. */
static int fim_residual (const statics_problem *p, const statics_opts *par, int max_iter,
                         int phase, FILE *log, statics_result *res, fim_work *w,
                         statics_eval *e, int flags[2], mb_err *err)
{
  int n = w->n, m = w->m;
  MB_TRY (p->eval (p->ctx, w->gamma, e, err));
  statics_residual (e, n, m, w->gamma, w->F);
  double nF = w->nF = statics_norm_inf (w->F, n);
  double nC = w->nC = m > 0 ? statics_norm_inf (e->c, m) : 0.0;
  double tol = imbalance_tolerance (par, e, w->gamma, n, m, res);
  statics_iter it = { nF, nC, w->have_step ? w->change : 0.0, w->have_step ? w->a : 0.0, 0.0,
                      MPI_Wtime () - w->t0, phase };
  int rc = statics_push (res, &it, err);
  if (log)
    fprintf (log, "statics: %s %3d  |F|inf %.3e  |C|inf %.3e  |dq|inf %.3e  step %.3g"
             "  %.2f s\n", phase == 2 ? "polish" : "newton", w->k, nF, nC,
             w->have_step ? w->change : 0.0, w->have_step ? w->a : 0.0, it.time);
  if (rc != 0) return rc;
  int finite = isfinite (nF) && isfinite (nC), k = w->k;
  if (finite && nF + nC < w->best) {  /* keep the best state */
    w->best = nF + nC, w->bestF = nF, w->bestC = nC, w->bestchange = w->change, w->kbest = k;
    p->save (p->ctx, SLOT_BEST);
    if (m > 0) memcpy (w->gbest, w->gamma, (size_t) m * sizeof *w->gbest);
  }
  if (finite && nF + nC < 0.99 * w->sig) w->sig = nF + nC, w->ksig = k;  /* progress */
  int small = w->have_step && w->change <= par->max_error && nC <= par->max_error;
  if (!finite) flags[0] = STATICS_STOP_DIVERGED;
  else if (small && nF <= tol) flags[0] = STATICS_STOP_CONVERGED;
  else if (k >= max_iter) flags[0] = STATICS_STOP_MAX_ITER;
  else if (small && k - w->ksig >= STATICS_ROUNDOFF_WINDOW) flags[0] = STATICS_STOP_ROUNDOFF;
  else if (k - w->ksig >= STATICS_STALL_WINDOW) flags[0] = STATICS_STOP_STAGNATED;
  flags[1] = e->nonsymmetric;
  return 0;
}

/* Collective. Step 2: J = [K + sqrt(stability) M, Cq^T; Cq, 0] from rank 0's e (LDL^T, or
   LU once a tangent was non-symmetric: w->general), factored (refactored on the first
   analysis; p_f: null pivots fixed as grounded springs, counted in w->nsprings), and
   w->x = -J^{-1} [F; C] on rank 0. A singular J is statics_singular's error naming its
   DOFs. *kmax: max |K_jj| (rank 0). Returns 0 or the error on every rank. */
static int fim_newton_solve (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                             FILE *log, fim_work *w, const statics_eval *e, double *kmax,
                             mb_err *err)
{
  int n = w->n, m = w->m, sym = !w->general, rc = 0;
  long nnz = 0;
  int *ir = NULL, *jc = NULL;
  double *av = NULL;
  if (w->rank == 0) {
    *kmax = statics_kmax (e, n);
    rc = statics_jacobian (e, n, m, 1.0, sqrt (par->stability), NULL, sym, &nnz, &ir,
                           &jc, &av, err);
  }
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  rc = statics_lin_factor (comm, &w->lin, sym, w->N, nnz, ir, jc, av, par->p_f,
                           "static Jacobian [K + sqrt(stability) M, Cq^T; Cq, 0]", err);
  if (rc < 0 && statics_is_singular (err)) {  /* MUMPS says singular: name the DOFs */
    mb_err_init (err);
    rc = statics_singular (comm, p, w->rank == 0 ? e : NULL, sym, w->N, nnz, ir, jc, av,
                           par->p_f, 0, err);
  }
  free (ir), free (jc), free (av);
  if (rc < 0) return rc;
  if (par->p_f > 0) {  /* seed 000: null pivots fixed as grounded springs */
    int count = 0;
    factor_null_pivots (w->lin.f, &count, NULL);
    if (count > 0 && count != w->nsprings && log)
      fprintf (log, "statics: %d null pivot%s of the tangent fixed by grounded springs "
               "p_f ||J|| (p_f = %g, seed 000)\n", count, count > 1 ? "s" : "", par->p_f);
    if (count > 0) w->nsprings = count;
  }
  if (w->rank == 0) {
    for (int i = 0; i < n; i++) w->x[i] = -w->F[i];
    for (int i = 0; i < m; i++) w->x[n + i] = -e->c[i];
  }
  /* a large but finite step is no singularity (MUMPS decides that): the line search
     halves it while the residual diverges, and the stagnation tests stop a useless
     sequence */
  return factor_solve (w->lin.f, w->rank == 0 ? w->x : NULL, err);
}

/* Rank 0, after the loop stopped without an error: res's counts, stop, norms and reason.
   Converged: the last state's norms and the tolerance rule. Else the best state is loaded
   (with its gamma), its norms and its tangent's symmetry are res's, and stop_reason says
   why (err is left clear). */
static void fim_result (const statics_problem *p, const statics_opts *par, int max_iter,
                        int phase, statics_result *res, fim_work *w, mb_err *err)
{
  res->iterations += w->k;
  if (phase == 2) res->polish += w->k;
  res->stop = (statics_stop) w->stop;
  if (w->stop == STATICS_STOP_CONVERGED) {
    res->converged = 1;
    res->imbalance = w->nF, res->constraint = w->nC, res->change = w->change;
    char rule[160];
    statics_tolerance_words (res, par, rule, sizeof rule);
    snprintf (res->reason, sizeof res->reason, "converged: |F|inf = %.3e <= %.3g (%s) "
              "and |dq|inf = %.3e, |C|inf = %.3e <= max_error %.3g", w->nF, res->tolerance,
              rule, w->change, w->nC, par->max_error);
    return;
  }
  res->converged = 0;
  if (w->best < HUGE_VAL) {
    p->load (p->ctx, SLOT_BEST);
    if (w->m > 0) memcpy (w->gamma, w->gbest, (size_t) w->m * sizeof *w->gamma);
    res->imbalance = w->bestF, res->constraint = w->bestC, res->change = w->bestchange;
  } else res->imbalance = w->nF, res->constraint = w->nC, res->change = w->change;
  stop_reason (res, par, w->stop, max_iter, w->k, w->kbest, w->nF, w->nC, w->change);
  /* the state returned is the best one: its tangent's symmetry */
  statics_eval e;
  memset (&e, 0, sizeof e);
  if (w->best < HUGE_VAL && p->eval (p->ctx, w->gamma, &e, err) == 0)
    res->nonsymmetric = e.nonsymmetric;
  mb_err_init (err);
}

/* Newton from the current state: per iteration 1. the residual and the stop tests
   (fim_residual), 2. the Newton step (fim_newton_solve), 3. the step limit and the line
   search (line_search); then the result (fim_result) and, when not converged, rank 0's
   MB_ENOCONV on every rank. The work arrays are freed here; res->gamma is the caller's. */
int statics_fim (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                 int max_iter, int phase, FILE *log, statics_result *res, mb_err *err)
{
  fim_work w;
  int rc = fim_alloc (comm, p, res, &w, err);
  int n = w.n, m = w.m;
  if (rc == 0) rc = initial_gamma (comm, p, n, m, w.gamma, w.x, w.ones, err);
  while (rc == 0) {
    /* 1. residual at the current state; converged, or a reason to stop? */
    statics_eval e;
    memset (&e, 0, sizeof e);
    int flags[2] = { 0, 0 };  /* stop (statics_stop), nonsymmetric */
    if (w.rank == 0) rc = fim_residual (p, par, max_iter, phase, log, res, &w, &e, flags, err);
    rc = mb_agree (comm, rc, err);
    if (rc < 0) break;
    MPI_Bcast (flags, 2, MPI_INT, 0, comm);
    if ((w.stop = flags[0])) break;

    /* 2. J [dq; dgamma] = -[F; C], refactored on the first analysis */
    w.general |= flags[1];  /* once K was non-symmetric, LU from then on: one analysis */
    double kmax = 1;
    rc = fim_newton_solve (comm, p, par, log, &w, &e, &kmax, err);
    if (rc < 0) break;

    /* 3. step limit and line search (rank 0: evaluations only) */
    if (w.rank == 0) {
      double phi0 = statics_norm_2 (w.F, n) + kmax * (m > 0 ? statics_norm_2 (e.c, m) : 0.0);
      rc = line_search (p, w.x, w.F, phi0, kmax, w.gamma, w.gtrial, w.Ft, &w.a, err);
      w.change = w.a * statics_norm_inf (w.x, n);
    }
    rc = mb_agree (comm, rc, err);
    w.have_step = 1;
    w.k++;
  }

  res->nsprings += w.nsprings;
  res->time += MPI_Wtime () - w.t0;
  if (rc == 0 && w.rank == 0) fim_result (p, par, max_iter, phase, res, &w, err);
  if (rc == 0) {
    MPI_Bcast (&w.stop, 1, MPI_INT, 0, comm);
    if (w.stop != STATICS_STOP_CONVERGED) {  /* rank 0's reason on every rank */
      if (w.rank == 0)
        mb_fail (err, MB_ENOCONV, "static equilibrium not reached (%s): %s",
                 phase == 2 ? "FIM polish after MKEAM" : "FIM", res->reason);
      MPI_Bcast (err, (int) sizeof *err, MPI_BYTE, 0, comm);
      rc = MB_ENOCONV;
    }
  }
  if (log && w.rank == 0 && w.lin.factorizations > 0)
    fprintf (log, "statics: %d factorization%s of the Newton Jacobian on %d analys%s\n",
             w.lin.factorizations, w.lin.factorizations > 1 ? "s" : "", w.lin.analyses,
             w.lin.analyses > 1 ? "es" : "is");
  res->analyses += w.lin.analyses, res->factorizations += w.lin.factorizations;
  statics_lin_clear (&w.lin);
  free (w.F), free (w.Ft), free (w.x), free (w.gbest), free (w.gtrial), free (w.ones);
  return rc;
}
