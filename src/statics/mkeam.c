/* mkeam.c: maximum kinetic energy attrition (seed 002): the undamped model integrated from
   rest with the constrained midpoint scheme of seed 004, kinetic energy peaks located and
   velocities zeroed until the peaks vanish; then a FIM polish gives gamma. */
#include "statics_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"

enum {
  SLOT_START = 0,        /* the state at the start of the iteration */
  SLOT_PREV = 1,         /* slots 1, 2: the states two steps back, alternating */
  MIN_STEPS = 8,         /* a peak found sooner: the step was too coarse, halve it */
  GROW_STEPS = 100,      /* no peak after this many steps: double the step */
  MAX_STEPS = 4000,      /* steps in one iteration */
  POLISH_ITER = 10,      /* FIM iterations after convergence */
  PROJECT_ITER = 5       /* Gauss-Newton steps onto C = 0 before each iteration */
};
#define HMIN 1e-12       /* [s]: the smallest time step */
#define PERTURB 1e-4     /* [m, rad]: the displacement off an unstable rest state */

/* Work arrays of rank 0 (n or n + m entries) and the bookkeeping of statics_mkeam. */
typedef struct mk {
  int n, m;
  double *u;         /* n: velocity at the current time */
  double *x;         /* n + m: [A u - h r; -2 c / h], then [u_new; mu] */
  double *uprev[2];  /* velocities at the saved states */
  double *dprev[2];  /* accumulated increments at the saved states */
  double *acc;       /* n: increment accumulated over the iteration */
  double *Mu;        /* n: M u */
  double t0;         /* MPI_Wtime at the start of statics_mkeam */
  int iters;         /* peaks located over all runs */
  double last_ke, last_dq;  /* rank 0: the last peak's kinetic energy and state change */
} mk;

/* Collective. One constrained midpoint step of length h from the current (q, u)
   (seed 004, eqs. 50-52, with A = M + (h/2)^2 Ks for the stiff modes, Ks the symmetric
   part of K):
     q_mid = q (+) h/2 u,
     [A Cq^T; Cq 0] [u_new; mu] = [A u - h (f_int - f_ext); -2 C(q_mid) / h],
     q_new = q_mid (+) h/2 u_new,   gamma = mu / h,
   at q_mid (the constraint row asks C(q_new) = 0 to first order). On rank 0 w->u becomes
   u_new, w->acc grows by h/2 (u + u_new) and *ke = u_new^T M u_new / 2. A singular matrix
   (M + (h/2)^2 Ks indefinite at this h, or a massless free part) is MUMPS's error as it
   is, or with name = 1 the error naming the DOFs (statics_singular); the state is then
   moved by h/2 u (the caller restores it). A kinetic energy that overflows is
   MB_ENOCONV. */
static int midpoint_step (MPI_Comm comm, const statics_problem *p, mk *w, statics_lin *L,
                          double h, double *gamma, double *ke, int name, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int n = w->n, m = w->m, rc = 0, sym = 2;
  long nnz = 0;
  int *ir = NULL, *jc = NULL;
  double *av = NULL;
  statics_eval e;
  memset (&e, 0, sizeof e);
  if (rank == 0) {
    p->step (p->ctx, w->u, 0.5 * h);
    rc = p->eval (p->ctx, gamma, &e, err);
    if (rc == 0) {
      /* the symmetric part of K in A: A only steers the implicit update (the forces are
         exact), and one kind keeps one MUMPS analysis for the whole integration */
      rc = statics_jacobian (&e, n, m, 0.25 * h * h, 1.0, NULL, 2, &nnz, &ir, &jc, &av, err);
    }
    if (rc == 0) {  /* rhs: A u - h r, with A u = M u + (h/2)^2 K u */
      spm_matvec (e.M, w->u, w->x);
      spm_matvec (e.K, w->u, w->Mu);
      for (int i = 0; i < n; i++) w->x[i] += 0.25 * h * h * w->Mu[i] - h * e.r[i];
      for (int i = 0; i < m; i++) w->x[n + i] = -2.0 * e.c[i] / h;
    }
  }
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  rc = statics_lin_factor (comm, L, sym, n + m, nnz, ir, jc, av, 0.0,
                           "MKEAM midpoint matrix [M + (h/2)^2 K, Cq^T; Cq, 0]", err);
  if (rc < 0 && name && statics_is_singular (err)) {  /* name the DOFs, as FIM does */
    mb_err_init (err);
    rc = statics_singular (comm, p, rank == 0 ? &e : NULL, 1, n + m, nnz, ir, jc, av, 0.0, 1,
                           err);
  }
  free (ir), free (jc), free (av);
  if (rc < 0) return rc;
  rc = factor_solve (L->f, rank == 0 ? w->x : NULL, err);
  if (rc < 0) return rc;
  if (rank == 0) {
    for (int i = 0; i < n; i++) w->acc[i] += 0.5 * h * (w->u[i] + w->x[i]);
    memcpy (w->u, w->x, (size_t) n * sizeof *w->u);
    for (int i = 0; i < m; i++) gamma[i] = w->x[n + i] / h;
    p->step (p->ctx, w->u, 0.5 * h);
    spm_matvec (e.M, w->u, w->Mu);  /* M at q_mid */
    double s = 0;
    for (int i = 0; i < n; i++) s += w->u[i] * w->Mu[i];
    *ke = 0.5 * s;
    if (!(*ke == *ke) || *ke > 1e300)  /* diverged: not converged, not an error */
      rc = mb_fail (err, MB_ENOCONV, "MKEAM: the kinetic energy is not finite (time step "
                    "%.3g s): the loads drive the model away without bound, so no "
                    "equilibrium may exist (they may exceed what the joints and springs can "
                    "hold)", h);
  }
  return mb_agree (comm, rc, err);
}

/* Rank 0: a first time step from the stiffest diagonal ratio: 0.3 / omega with
   omega^2 = max K_jj / M_jj, 1e-2 s when K has nothing on it yet. */
static double first_step (const statics_problem *p, const double *gamma, mb_err *err)
{
  statics_eval e;
  if (p->eval (p->ctx, gamma, &e, err) < 0) return 1e-2;
  double *kd = mb_calloc ((size_t) p->n, sizeof *kd), *md = mb_calloc ((size_t) p->n, sizeof *md);
  double w2 = 0;
  if (kd && md) {
    for (long t = 0; t < e.K->nnz; t++)
      if (e.K->row[t] == e.K->col[t]) kd[e.K->row[t]] += e.K->val[t];
    for (long t = 0; t < e.M->nnz; t++)
      if (e.M->row[t] == e.M->col[t]) md[e.M->row[t]] += e.M->val[t];
    for (int i = 0; i < p->n; i++)
      if (md[i] > 0 && kd[i] / md[i] > w2) w2 = kd[i] / md[i];
  }
  free (kd), free (md);
  return w2 > 0 ? 0.3 / sqrt (w2) : 1e-2;
}

/* Collective. Moves the current state onto C(q) = 0 (rank 0's problem): up to
   PROJECT_ITER Gauss-Newton steps dq = -Cq^T (Cq Cq^T)^-1 C, the least-norm correction,
   from [I Cq^T; Cq 0] [dq; mu] = [0; -C] factored by MUMPS, until ||C||_inf <= 1e-12
   [m, rad] or it no longer halves per step. After a kinetic energy peak the state
   is off the manifold by the scheme's O(h^2) drift; the midpoint step's correction
   -2 C / h then puts a velocity ~ C / h into a restart from rest, its kinetic energy ~ 1/h^2
   reads as a peak at once and the step halves to nothing (a 100-link chain). w->x (n + m)
   and w->Mu (n, ones) are work. Returns 0 or an error on every rank (a singular Cq Cq^T,
   redundant rows, ends the projection without an error). */
static int project (MPI_Comm comm, const statics_problem *p, mk *w, double *gamma, mb_err *err)
{
  int rank, n = w->n, m = w->m;
  MPI_Comm_rank (comm, &rank);
  if (m == 0) return 0;
  double last = HUGE_VAL;
  for (int it = 0; it < PROJECT_ITER; it++) {
    int rc = 0, go = 1;
    statics_eval e;
    memset (&e, 0, sizeof e);
    if (rank == 0) {
      rc = p->eval (p->ctx, gamma, &e, err);
      double nc = rc == 0 ? statics_norm_inf (e.c, m) : 0.0;
      go = rc == 0 && nc > 1e-12 && nc < 0.5 * last && isfinite (nc);
      last = nc;
      if (go) {
        for (int i = 0; i < n; i++) w->x[i] = 0.0;
        for (int i = 0; i < m; i++) w->x[n + i] = -e.c[i];
      }
    }
    rc = mb_agree (comm, rc, err);
    if (rc == 0) rc = statics_bordered_solve (comm, &e, go, n, m, w->Mu, w->x, err);
    if (rc != 0) return rc < 0 ? rc : 0;  /* 1: on the manifold, or Cq Cq^T singular */
    if (rank == 0) p->step (p->ctx, w->x, 1.0);
  }
  return 0;
}

/* Rank 0. A small deterministic displacement of the current state (every DOF by up to
   PERTURB [m, rad], the same on any rank count), to leave an unstable equilibrium that a
   start from rest never leaves. w->x is work. */
static void perturb (const statics_problem *p, mk *w)
{
  unsigned long st = 2463534242UL;
  for (int i = 0; i < w->n; i++) {
    st ^= st << 13, st ^= st >> 17, st ^= st << 5, st &= 0xffffffffUL;
    w->x[i] = PERTURB * ((double) st / 4294967296.0 - 0.5) * 2.0;
  }
  p->step (p->ctx, w->x, 1.0);
}

/* Rank 0. The fields of res for the state the problem holds (not converged): its
   ||F||_inf, ||C||_inf, the tangent's symmetry; change = the last iteration's. Errors are
   dropped (the state is reported as is). */
static void fill_state (const statics_problem *p, const double *gamma, mk *w, double change,
                        statics_result *res)
{
  statics_eval e;
  memset (&e, 0, sizeof e);
  mb_err err;
  mb_err_init (&err);
  if (p->eval (p->ctx, gamma, &e, &err) < 0) return;
  statics_residual (&e, w->n, w->m, gamma, w->x);
  res->imbalance = statics_norm_inf (w->x, w->n);
  res->constraint = w->m > 0 ? statics_norm_inf (e.c, w->m) : 0.0;
  res->change = change;
  res->nonsymmetric = e.nonsymmetric;
}

/* Collective. One iteration's integration: from rest at the current state (kept in
   SLOT_START), midpoint steps of *h, the last two states kept for the backtracking, until
   *outcome = 1: a kinetic energy peak (ke: the energies of the last three steps, *steps
   the steps taken), 2: nothing moves (already at rest), 3: a peak within MIN_STEPS (too
   coarse: the caller halves h), 4: no peak in MAX_STEPS. A singular midpoint matrix halves
   *h and redoes the step; every GROW_STEPS steps *h doubles. Returns 0 or the step's error
   (MB_ENOCONV: the kinetic energy overflowed). */
static int mkeam_steps (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                        mk *w, statics_lin *lin, double *gamma, double *h, double ke[3],
                        int *steps, int *outcome, mb_err *err)
{
  int rank, n = w->n, rc = 0, s = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0) {
    p->save (p->ctx, SLOT_START);
    memset (w->u, 0, (size_t) n * sizeof *w->u);
    memset (w->acc, 0, (size_t) n * sizeof *w->acc);
  }
  ke[0] = ke[1] = ke[2] = 0;  /* at t_{s-1}, t_s, t_{s+1} */
  *outcome = 0;
  for (; rc == 0 && !*outcome; s++) {
    if (rank == 0) {  /* keep (q, u, acc) at t_s for the backtracking */
      p->save (p->ctx, SLOT_PREV + s % 2);
      memcpy (w->uprev[s % 2], w->u, (size_t) n * sizeof *w->u);
      memcpy (w->dprev[s % 2], w->acc, (size_t) n * sizeof *w->u);
    }
    double k1;
    rc = midpoint_step (comm, p, w, lin, *h, gamma, &k1, 0.5 * *h < HMIN, err);
    if (rc < 0 && statics_is_singular (err) && 0.5 * *h >= HMIN) {
      /* M + (h/2)^2 Ks singular at this h: the same step again, h / 2 */
      if (rank == 0) {
        p->load (p->ctx, SLOT_PREV + s % 2);
        memcpy (w->u, w->uprev[s % 2], (size_t) n * sizeof *w->u);
        memcpy (w->acc, w->dprev[s % 2], (size_t) n * sizeof *w->u);
      }
      mb_err_init (err);
      rc = 0, *h *= 0.5, s--;
      continue;
    }
    if (rc < 0) break;
    if (rank == 0) {
      ke[0] = ke[1], ke[1] = ke[2], ke[2] = k1;
      if (s >= 1 && ke[2] < ke[1] && ke[1] >= ke[0]) *outcome = s + 1 < MIN_STEPS ? 3 : 1;
      else if (s + 1 >= MIN_STEPS && ke[2] <= 1e-6 * par->max_ke_tol && ke[2] >= ke[1])
        *outcome = 2;  /* nothing moves: already at rest */
      else if (s + 1 >= MAX_STEPS) *outcome = 4;
      else if ((s + 1) % GROW_STEPS == 0) *h *= 2;
    }
    MPI_Bcast (outcome, 1, MPI_INT, 0, comm);
    MPI_Bcast (h, 1, MPI_DOUBLE, 0, comm);
  }
  *steps = s;
  return rc;
}

/* Collective. The peak between t_{s-2} and t_s (s steps taken, energies ke, step h): the
   vertex of the parabola through ke, tau from t_{s-1} (|tau| <= h), reached again by one
   midpoint step of h + tau from the state of t_{s-2}; *peak its kinetic energy. An
   overflow (MB_ENOCONV) goes back to SLOT_START, res->stop diverged. Returns 0 or the
   error. */
static int mkeam_vertex (MPI_Comm comm, const statics_problem *p, mk *w, statics_lin *lin,
                         double *gamma, double h, const double ke[3], int s, double *peak,
                         statics_result *res, mb_err *err)
{
  int rank, n = w->n, rc = 0;
  MPI_Comm_rank (comm, &rank);
  int back = (s - 2) % 2;  /* slot of t_{s-2}, two steps before the last state */
  double a = ke[0], b = ke[1], c = ke[2], den = a - 2 * b + c;
  double tau = den < 0 ? 0.5 * h * (a - c) / den : 0.0;
  if (tau > h) tau = h;
  if (tau < -h) tau = -h;
  double hb = h + tau;  /* from t_{s-2} to the vertex */
  if (rank == 0) {
    p->load (p->ctx, SLOT_PREV + back);
    memcpy (w->u, w->uprev[back], (size_t) n * sizeof *w->u);
    memcpy (w->acc, w->dprev[back], (size_t) n * sizeof *w->u);
  }
  if (hb > 1e-12 * h) rc = midpoint_step (comm, p, w, lin, hb, gamma, peak, 1, err);
  else *peak = a;
  if (rc == MB_ENOCONV && rank == 0) {  /* overflow: back to a finite state */
    p->load (p->ctx, SLOT_START);
    res->stop = STATICS_STOP_DIVERGED;
  }
  return rc;
}

/* Rank 0, at a located peak (s steps of h, kinetic energy peak): w->last_ke, w->last_dq
   (the state change over the iteration), the history line (|F|inf, |C|inf at the peak
   state) and the log line. Returns 0 or an error of the evaluation or the history. */
static int mkeam_peak_line (const statics_problem *p, FILE *log, statics_result *res, mk *w,
                            const double *gamma, int s, double h, double peak, mb_err *err)
{
  int n = w->n;
  w->last_ke = peak;
  w->last_dq = statics_norm_inf (w->acc, n);
  statics_iter it = { 0, 0, w->last_dq, h, peak, MPI_Wtime () - w->t0, 1 };
  statics_eval e;
  int rc = p->eval (p->ctx, gamma, &e, err);
  if (rc == 0) {
    double *F = w->x;
    statics_residual (&e, n, w->m, gamma, F);
    it.imbalance = statics_norm_inf (F, n);
    it.constraint = w->m > 0 ? statics_norm_inf (e.c, w->m) : 0.0;
    rc = statics_push (res, &it, err);
  }
  if (log)
    fprintf (log, "statics: mkeam peak %3d  KE %.3e J  |dq|inf %.3e  h %.3g s  "
             "%d steps  |F|inf %.3e  %.2f s\n", w->iters, peak, w->last_dq, h, s,
             it.imbalance, it.time);
  return rc;
}

/* Collective. The stop of a run whose peaks stopped falling (peak the last, best_peak the
   lowest): res->reason and res->stop (stagnated); MB_ENOCONV with rank 0's words on every
   rank. */
static int mkeam_stalled (MPI_Comm comm, const statics_opts *par, statics_result *res,
                          double peak, double best_peak, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0)
    snprintf (res->reason, sizeof res->reason, "the kinetic energy peaks have not "
              "decreased for %d iterations (last %.3e J, lowest %.3e J, max_ke_tol "
              "%.3g): the loads keep driving the model, so no equilibrium may exist "
              "(they may exceed what the joints and springs can hold, e.g. a torque "
              "above m g d on a pendulum); the last state is kept; it is not an "
              "equilibrium", STATICS_STALL_WINDOW, peak, best_peak, par->max_ke_tol);
  int rc = mb_fail (err, MB_ENOCONV, "static equilibrium not reached (MKEAM): %s",
                    rank == 0 ? res->reason : "");
  MPI_Bcast (err, (int) sizeof *err, MPI_BYTE, 0, comm);
  res->stop = STATICS_STOP_STAGNATED;
  return rc;
}

/* Collective. The stop after max_num_iter peaks without convergence: res->reason and
   res->stop (max_num_iter); MB_ENOCONV with rank 0's words on every rank. */
static int mkeam_max_iter (MPI_Comm comm, const statics_opts *par, statics_result *res,
                           const mk *w, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0) {
    res->stop = STATICS_STOP_MAX_ITER;
    snprintf (res->reason, sizeof res->reason, "max_num_iter = %d kinetic energy peaks "
              "reached: the last peak %.3e J (max_ke_tol %.3g), state change %.3e "
              "(max_dq_tol %.3g); the last state is kept; it is not an equilibrium",
              par->max_num_iter, w->last_ke, par->max_ke_tol, w->last_dq, par->max_dq_tol);
    mb_fail (err, MB_ENOCONV, "static equilibrium not reached (MKEAM): %s", res->reason);
  }
  MPI_Bcast (err, (int) sizeof *err, MPI_BYTE, 0, comm);
  return MB_ENOCONV;
}

/* Collective. The peaks of one MKEAM run from the current state (see statics_mkeam): per
   iteration, onto C = 0 (project), from rest to the next kinetic energy peak
   (mkeam_steps; too coarse: again with h / 2), the peak located (mkeam_vertex), recorded
   (mkeam_peak_line) and tested: converged when the peak < max_ke_tol and the state change
   < max_dq_tol; stagnated when the peaks have not fallen 1% for STATICS_STALL_WINDOW.
   Returns 0 when converged (then the FIM polish is the caller's), MB_ENOCONV with
   res->reason and res->stop set, or another error. */
static int mkeam_run (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                      FILE *log, statics_result *res, mk *w, statics_lin *lin, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int rc = 0;
  double h = 1e-2;
  double *gamma = rank == 0 ? res->gamma : NULL;
  if (rank == 0) h = first_step (p, res->gamma, err);
  MPI_Bcast (&h, 1, MPI_DOUBLE, 0, comm);
  int iter = 0, converged = 0, kbest = 0;
  double best_peak = HUGE_VAL;
  while (rc == 0 && iter < par->max_num_iter && !converged) {
    /* one iteration: from rest, on C = 0, to the next kinetic energy peak */
    rc = project (comm, p, w, gamma, err);
    if (rc < 0) break;
    double ke[3];
    int s = 0, outcome = 0;  /* 1 peak located, 2 at rest, 3 restart finer, 4 too many */
    rc = mkeam_steps (comm, p, par, w, lin, gamma, &h, ke, &s, &outcome, err);
    if (rc == MB_ENOCONV) {  /* the kinetic energy overflowed: back to a finite state */
      if (rank == 0) {
        p->load (p->ctx, SLOT_START);
        res->stop = STATICS_STOP_DIVERGED;
      }
      break;
    }
    if (rc < 0) break;
    if (outcome == 3) {  /* too coarse to locate the peak: again from the start, h / 2 */
      if (rank == 0) p->load (p->ctx, SLOT_START);
      h *= 0.5;
      if (h < HMIN) {
        rc = mb_fail (err, MB_ENOCONV, "MKEAM: the time step fell below 1e-12 s");
        res->stop = STATICS_STOP_STAGNATED;
      }
      continue;
    }
    if (outcome == 4) {
      rc = mb_fail (err, MB_ENOCONV, "MKEAM: no kinetic energy peak in %d time steps "
                    "(last step %.3g s): the model keeps accelerating, so no equilibrium "
                    "may exist (the loads may exceed what the joints and springs can hold)",
                    MAX_STEPS, h);
      res->stop = STATICS_STOP_STAGNATED;
      if (rank == 0) p->load (p->ctx, SLOT_START);
      break;
    }
    double peak = ke[2];
    if (outcome == 1 && (rc = mkeam_vertex (comm, p, w, lin, gamma, h, ke, s, &peak, res,
                                            err)) < 0)
      break;
    iter++, w->iters++;
    int done = 0;
    if (rank == 0) {  /* velocities to zero (the next iteration starts from rest) */
      rc = mkeam_peak_line (p, log, res, w, gamma, s, h, peak, err);
      done = peak < par->max_ke_tol && w->last_dq < par->max_dq_tol;
      if (peak < 0.99 * best_peak) best_peak = peak, kbest = iter;
      else if (!done && peak >= par->max_ke_tol && iter - kbest >= STATICS_STALL_WINDOW)
        done = -1;  /* the peaks stopped falling: the loads keep feeding energy in */
    }
    rc = mb_agree (comm, rc, err);
    MPI_Bcast (&done, 1, MPI_INT, 0, comm);
    MPI_Bcast (&h, 1, MPI_DOUBLE, 0, comm);
    if (rc == 0 && done < 0) {
      rc = mkeam_stalled (comm, par, res, peak, best_peak, err);
      break;
    }
    converged = done;
  }
  if (rc == 0 && !converged) rc = mkeam_max_iter (comm, par, res, w, err);
  if (rc == MB_ENOCONV && !res->reason[0])  /* the time-step control gave up: say why */
    snprintf (res->reason, sizeof res->reason, "%.500s; the state at the start of the last "
              "iteration is kept; it is not an equilibrium", err->msg);
  return rc;
}

/* Collective. w cleared, its sizes from rank 0's problem, rank 0's arrays allocated (and
   res->gamma, m zeros, when the caller gave none). Returns 0 or MB_ENOMEM on every rank. */
static int mk_alloc (MPI_Comm comm, const statics_problem *p, statics_result *res, mk *w,
                     mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  int nm[2] = { p ? p->n : 0, p ? p->m : 0 };
  MPI_Bcast (nm, 2, MPI_INT, 0, comm);
  int n = nm[0], m = nm[1];
  memset (w, 0, sizeof *w);
  w->n = n, w->m = m;
  w->t0 = MPI_Wtime ();
  if (rank == 0) {
    size_t sn = (size_t) (n > 0 ? n : 1);
    if (!res->gamma) res->gamma = mb_calloc ((size_t) (m > 0 ? m : 1), sizeof *res->gamma);
    w->u = mb_calloc (sn, sizeof *w->u);
    w->x = mb_calloc ((size_t) (n + m + 1), sizeof *w->x);
    w->acc = mb_calloc (sn, sizeof *w->acc);
    w->Mu = mb_calloc (sn, sizeof *w->Mu);
    for (int i = 0; i < 2; i++) {
      w->uprev[i] = mb_calloc (sn, sizeof *w->u);
      w->dprev[i] = mb_calloc (sn, sizeof *w->u);
    }
    if (!res->gamma || !w->u || !w->x || !w->acc || !w->Mu || !w->uprev[0] || !w->uprev[1]
        || !w->dprev[0] || !w->dprev[1] || mb_fault ("statics"))
      rc = mb_fail (err, MB_ENOMEM, "out of memory for MKEAM (n = %d)", n);
  }
  return mb_agree (comm, rc, err);
}

/* Frees w's arrays (rank 0's; NULL elsewhere). */
static void mk_free (mk *w)
{
  for (int i = 0; i < 2; i++) free (w->uprev[i]), free (w->dprev[i]);
  free (w->u), free (w->x), free (w->acc), free (w->Mu);
}

/* Collective. After a polished run that came to rest at an unstable equilibrium
   (res->unstable > 0): on the first attempt, rank 0 perturbs the state (perturb) and res
   is reset for a second run (returns 0); on the second, res says so (stop unstable) and
   MB_ENOCONV with rank 0's words is returned on every rank. */
static int mkeam_unstable (MPI_Comm comm, const statics_problem *p, FILE *log,
                           statics_result *res, mk *w, int attempt, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  if (attempt == 0) {  /* at rest at an unstable equilibrium: perturb, again */
    if (rank == 0) {
      if (log) fprintf (log, "statics: mkeam came to rest at an unstable equilibrium (%d "
                        "unstable direction%s): perturbed by up to %g, run again\n",
                        res->unstable, res->unstable > 1 ? "s" : "", PERTURB);
      perturb (p, w);
    }
    res->converged = 0, res->unstable = -1, res->reason[0] = 0;
    return 0;
  }
  if (rank == 0) {  /* still there: say so, no exit 0 with an unstable state */
    int neg = res->unstable;
    res->converged = 0, res->stop = STATICS_STOP_UNSTABLE;
    snprintf (res->reason, sizeof res->reason, "MKEAM came to rest at an unstable "
              "equilibrium (%d unstable direction%s), also after a perturbation of up to "
              "%g; MKEAM finds stable equilibria only: start the deck off it, or use "
              "method fim", neg, neg > 1 ? "s" : "", PERTURB);
    mb_fail (err, MB_ENOCONV, "static equilibrium not reached (MKEAM): %s", res->reason);
  }
  MPI_Bcast (err, (int) sizeof *err, MPI_BYTE, 0, comm);
  return MB_ENOCONV;
}

/* MKEAM runs (mkeam_run), each converged one polished by FIM and judged by the stability
   verdict; a rest at an unstable equilibrium is perturbed once and run again
   (mkeam_unstable). The work arrays are freed here; res->gamma is the caller's. */
int statics_mkeam (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                   FILE *log, statics_result *res, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  mk w;
  statics_lin lin;
  memset (&lin, 0, sizeof lin);
  int rc = mk_alloc (comm, p, res, &w, err);
  int polished = 0;
  /* MKEAM finds stable equilibria only: a run that comes to rest at an unstable one
     (started there exactly: nothing moves) is perturbed once and run again */
  for (int attempt = 0; rc == 0 && attempt < 2; attempt++) {
    polished = 0;
    double t1 = MPI_Wtime ();
    rc = mkeam_run (comm, p, par, log, res, &w, &lin, err);
    res->time += MPI_Wtime () - t1;
    if (rc < 0) break;
    if (log) fprintf (log, "statics: mkeam converged after %d peaks (KE %.3e J, |dq|inf "
                      "%.3e); FIM polish\n", w.iters, w.last_ke, w.last_dq);
    res->peaks = w.iters;
    res->iterations = w.iters + res->polish;  /* statics_fim adds its own */
    rc = statics_fim (comm, p, par, POLISH_ITER, 2, log, res, err);
    polished = 1;
    if (rc == 0) rc = statics_verdict (comm, p, 1, res, err);  /* the report's verdict */
    if (rc < 0 || res->unstable <= 0) break;
    rc = mkeam_unstable (comm, p, log, res, &w, attempt, err);
  }
  res->peaks = w.iters;
  if (rc == MB_ENOCONV && !polished) {
    res->iterations = w.iters;  /* MKEAM itself did not converge: the state as it is */
    res->converged = 0, res->unstable = -1;
    if (rank == 0) fill_state (p, res->gamma, &w, w.last_dq, res);
  }
  if (log && rank == 0)
    fprintf (log, "statics: mkeam: %d time steps, %d analys%s\n", lin.factorizations,
             lin.analyses, lin.analyses == 1 ? "is" : "es");
  res->analyses += lin.analyses, res->factorizations += lin.factorizations;
  statics_lin_clear (&lin);
  mk_free (&w);
  return rc;
}
