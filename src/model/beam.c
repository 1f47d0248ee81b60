/* beam.c: the 3D Euler-Bernoulli beam element (stiffness, consistent mass, Rayleigh
   damping), the same as ../shared/bench/beamgrid.py's element() and rotation() in a
   corotational frame (large displacements and rotations, small strains), and its weight.

   Corotational frame (Battini and Pacoste's choice): e1 = (xb - xa) / l, p = (ta2 + tb2)/2
   the mean of the nodes' current y axes (t = dR E0, E0 the deck element axes),
   e3 = unit(e1 x p), e2 = e3 x e1. Local deformations: elongation u = l - L0 and the
   rotation vectors th_a = log(E^T ta), th_b = log(E^T tb) of the nodes relative to the
   frame; the linear element acts on (th_a, u, th_b). */
#include "elements.h"

#include "state.h"

void beam_default_y (const double ex[3], double y[3])
{
  int k = 0;
  for (int i = 1; i < 3; i++)
    if (fabs (ex[i]) < fabs (ex[k])) k = i;
  y[0] = y[1] = y[2] = 0.0;
  y[k] = 1.0;
}

double beam_axes (const model_beam *b, const double xa[3], const double xb[3],
                  double L[9])
{
  double d[3], y[3], ez[3], ey[3];
  vec_sub (xb, xa, d);
  double len = vec_norm (d);
  for (int i = 0; i < 3; i++) L[i] = d[i] / len;            /* ex */
  if (b->y_given) for (int i = 0; i < 3; i++) y[i] = b->y_axis[i];
  else beam_default_y (L, y);
  vec_cross (L, y, ez);
  double nz = vec_norm (ez);
  for (int i = 0; i < 3; i++) ez[i] /= nz;                 /* ez = unit(ex x y) */
  vec_cross (ez, L, ey);                                   /* ey = ez x ex */
  for (int i = 0; i < 3; i++) { L[3 + i] = ey[i]; L[6 + i] = ez[i]; }
  return len;
}

/* Local 12 x 12 stiffness k and mass m (row-major) of an element of length L on
   (u v w rx ry rz) per node, beamgrid.py's element(): axial EA/L, torsion GJ/L, bending
   in x-y (v, rz; Iz; shear area Asy; sign s = +1) and x-z (w, ry; Iy; Asz; s = -1) by
   beam_bending_plane (beam_shear.c): the cubic Hermite stiffness and mass rho A L / 420
   [156 22L 54 -13L; ...] without rotary inertia when rigid in shear, the Timoshenko
   element with rotary inertia otherwise; consistent mass rho A L (1/3, 1/6) axial,
   rho (Iy + Iz) L (1/3, 1/6) torsion. */
static void beam_local (const model_beam *b, double L, double k[144], double m[144])
{
  memset (k, 0, 144 * sizeof *k);
  memset (m, 0, 144 * sizeof *m);
  double ea = b->E * b->A / L, gj = b->G * b->J / L;
  k[0] = k[6 * 12 + 6] = ea;
  k[6] = k[6 * 12] = -ea;
  k[3 * 12 + 3] = k[9 * 12 + 9] = gj;
  k[3 * 12 + 9] = k[9 * 12 + 3] = -gj;
  double mt = b->rho * b->A * L, ip = b->rho * (b->Iy + b->Iz) * L;
  m[0] = m[6 * 12 + 6] = mt / 3;
  m[6] = m[6 * 12] = mt / 6;
  m[3 * 12 + 3] = m[9 * 12 + 9] = ip / 3;
  m[3 * 12 + 9] = m[9 * 12 + 3] = ip / 6;
  const int vv[2] = { 1, 2 }, rr[2] = { 5, 4 };
  const double II[2] = { b->Iz, b->Iy }, ss[2] = { 1.0, -1.0 }, As[2] = { b->Asy, b->Asz };
  for (int p = 0; p < 2; p++) {
    double kb[16], mb[16];
    beam_bending_plane (b->E, b->G, b->rho, b->A, II[p], As[p], L, ss[p], kb, mb);
    const int idx[4] = { vv[p], rr[p], vv[p] + 6, rr[p] + 6 };
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        k[12 * idx[i] + idx[j]] = kb[4 * i + j];
        m[12 * idx[i] + idx[j]] = mb[4 * i + j];
      }
  }
}

/* g = T^T l T with T = blockdiag(Lam, Lam, Lam, Lam), per 3 x 3 block: Lam^T l_IJ Lam. */
static void beam_rotate (const double Lam[9], const double l[144], double g[144])
{
  for (int bi = 0; bi < 4; bi++)
    for (int bj = 0; bj < 4; bj++) {
      double t[9] = { 0 };                          /* t = l_IJ Lam (l_IJ is sparse) */
      for (int i = 0; i < 3; i++)
        for (int q = 0; q < 3; q++) {
          double lv = l[(3 * bi + i) * 12 + 3 * bj + q];
          if (lv != 0)
            for (int j = 0; j < 3; j++) t[3 * i + j] += lv * Lam[3 * q + j];
        }
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int q = 0; q < 3; q++) s += Lam[3 * q + i] * t[3 * q + j];
          g[(3 * bi + i) * 12 + 3 * bj + j] = s;
        }
    }
}

/* Jl^-1(w) = I - S/2 + c S^2, c = 1/t^2 - (1 + cos t) / (2 t sin t) (series below
   t = 1e-3: 1/12 + t^2/720 + t^4/30240). */
void rot_jinv (const double w[3], double J[9])
{
  double t2 = vec_dot (w, w), t = sqrt (t2), c, S[9], S2[9];
  if (t < 1e-3) c = 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0;
  else c = (1.0 - t * sin (t) / (2.0 * (1.0 - cos (t)))) / t2;
  mat_skew (w, S);
  mat_mul (S, S, S2);
  for (int i = 0; i < 9; i++) J[i] = -0.5 * S[i] + c * S2[i];
  J[0] += 1.0; J[4] += 1.0; J[8] += 1.0;
}

/* The corotational kinematics of one element at a pose. */
typedef struct corot {
  double E[9];       /* element frame: columns e1 e2 e3 */
  double d[7];       /* th_a (3), u, th_b (3) */
  double B[7 * 12];  /* d d / dq on (dxa, dtha, dxb, dthb), row-major */
} corot;

/* The local slots of d in the 12 local DOFs (u v w rx ry rz per node). */
static const int corot_slot[7] = { 3, 4, 5, 6, 9, 10, 11 };

/* Kinematics at node poses (xa, dRa), (xb, dRb) of an element with deck axes Lam0 (rows)
   and length L0. Spin of the frame (local components) w = Om dq:
     w1 = (e3 . dp) / p2 - (p1 / p2) e3 . (dxb - dxa) / l,  dp = (dtha x ta2 + dthb x tb2)/2,
     w2 = -e3 . (dxb - dxa) / l,  w3 = e2 . (dxb - dxa) / l  (p1, p2: p in the frame);
   d th_a = Jl^-1(th_a) (E^T dtha - w), d th_b likewise, du = e1 . (dxb - dxa). */
static void corot_eval (const double Lam0[9], double L0, const double xa[3],
                        const double xb[3], const double dRa[9], const double dRb[9],
                        corot *c)
{
  double ta[9], tb[9], dv[3], e1[3], e2[3], e3[3], p[3], ta2[3], tb2[3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double sa = 0, sb = 0;
      for (int k = 0; k < 3; k++) {
        sa += dRa[3 * i + k] * Lam0[3 * j + k];
        sb += dRb[3 * i + k] * Lam0[3 * j + k];
      }
      ta[3 * i + j] = sa;
      tb[3 * i + j] = sb;
    }
  vec_sub (xb, xa, dv);
  double l = vec_norm (dv);
  for (int i = 0; i < 3; i++) {
    e1[i] = dv[i] / l;
    ta2[i] = ta[3 * i + 1];
    tb2[i] = tb[3 * i + 1];
    p[i] = 0.5 * (ta2[i] + tb2[i]);
  }
  vec_cross (e1, p, e3);
  double p2 = vec_norm (e3), p1 = vec_dot (p, e1);
  for (int i = 0; i < 3; i++) e3[i] /= p2;
  vec_cross (e3, e1, e2);
  for (int i = 0; i < 3; i++) {
    c->E[3 * i] = e1[i];
    c->E[3 * i + 1] = e2[i];
    c->E[3 * i + 2] = e3[i];
  }
  double Ra[9], Rb[9], Et[9];
  mat_transpose (c->E, Et);
  mat_mul (Et, ta, Ra);
  mat_mul (Et, tb, Rb);
  model_rot_log (Ra, c->d);
  c->d[3] = l - L0;
  model_rot_log (Rb, c->d + 4);
  double Om[36] = { 0 }, ca[3], cb[3];
  vec_cross (ta2, e3, ca);
  vec_cross (tb2, e3, cb);
  for (int i = 0; i < 3; i++) {
    Om[i] = p1 / p2 * e3[i] / l;
    Om[6 + i] = -p1 / p2 * e3[i] / l;
    Om[3 + i] = 0.5 * ca[i] / p2;
    Om[9 + i] = 0.5 * cb[i] / p2;
    Om[12 + i] = e3[i] / l;
    Om[12 + 6 + i] = -e3[i] / l;
    Om[24 + i] = -e2[i] / l;
    Om[24 + 6 + i] = e2[i] / l;
  }
  memset (c->B, 0, sizeof c->B);
  for (int nd = 0; nd < 2; nd++) {             /* rows th_a (0..2), th_b (4..6) */
    double A[36], J[9];
    for (int i = 0; i < 36; i++) A[i] = -Om[i];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) A[12 * i + 3 + 6 * nd + j] += Et[3 * i + j];
    rot_jinv (c->d + 4 * nd, J);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 12; j++)
        c->B[12 * (4 * nd + i) + j] =
          J[3 * i] * A[j] + J[3 * i + 1] * A[12 + j] + J[3 * i + 2] * A[24 + j];
  }
  for (int i = 0; i < 3; i++) {
    c->B[36 + i] = -e1[i];
    c->B[36 + 6 + i] = e1[i];
  }
}

/* y (12) = B^T f (f of 7). */
static void corot_bt (const double *B, const double f[7], double y[12])
{
  for (int j = 0; j < 12; j++) {
    double s = 0;
    for (int i = 0; i < 7; i++) s += B[12 * i + j] * f[i];
    y[j] = s;
  }
}

/* The corotational state of element (na, nb) at s (c: its deformation d and B), the
   deformation stiffness kd = k_def (7 x 7, from the local kl at corot_slot) and the
   deformation forces fd = kd d. x0 and dR (the nodes' positions and rotations from the deck
   pose) are left for the caller's geometric terms. */
static void corot_forces (const model *m, const model_state *s, int na, int nb,
                          const double Lam0[9], double L0, const double kl[144],
                          const double *x0[2], double dR[2][9], corot *c, double kd[49],
                          double fd[7])
{
  x0[0] = node_xs (m, s, na);
  x0[1] = node_xs (m, s, nb);
  node_drot (m, s, na, dR[0]);
  node_drot (m, s, nb, dR[1]);
  corot_eval (Lam0, L0, x0[0], x0[1], dR[0], dR[1], c);
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++) kd[7 * i + j] = kl[12 * corot_slot[i] + corot_slot[j]];
  for (int i = 0; i < 7; i++) {
    fd[i] = 0;
    for (int j = 0; j < 7; j++) fd[i] += kd[7 * i + j] * c->d[j];
  }
}

/* f_int = B^T k_def d, K = B^T k_def B + geometric part (central differences of
   B^T f_def on the 12 increments, f_def fixed; left out when material), M in the current
   frame. */
static void beam_corotational (const model *m, const model_state *s, int na, int nb,
                               const double Lam0[9], double L0, const double kl[144],
                               const double ml[144], int material, elem *e)
{
  const double *x0[2];
  double dR[2][9], kd[49], fd[7], KB[7 * 12];
  corot c;
  corot_forces (m, s, na, nb, Lam0, L0, kl, x0, dR, &c, kd, fd);
  corot_bt (c.B, fd, e->f_int);
  for (int i = 0; i < 7; i++)                  /* KB = k_def B */
    for (int j = 0; j < 12; j++) {
      double t = 0;
      for (int q = 0; q < 7; q++) t += kd[7 * i + q] * c.B[12 * q + j];
      KB[12 * i + j] = t;
    }
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++) {
      double t = 0;
      for (int q = 0; q < 7; q++) t += c.B[12 * q + i] * KB[12 * q + j];
      e->K[12 * i + j] = t;
    }
  for (int j = 0; j < 12 && !material; j++) {  /* geometric: d(B^T) f_def / dq_j */
    int nd = j / 6, comp = j % 6;
    double h = comp < 3 ? 1e-6 * L0 : 1e-6, yp[12], ym[12];
    for (int sg = -1; sg <= 1; sg += 2) {
      double xs[2][3], Rs[2][9];
      memcpy (xs[0], x0[0], sizeof xs[0]);
      memcpy (xs[1], x0[1], sizeof xs[1]);
      memcpy (Rs, dR, sizeof Rs);
      if (comp < 3) xs[nd][comp] += sg * h;
      else {
        double w[3] = { 0, 0, 0 }, X[9];
        w[comp - 3] = sg * h;
        model_rot_exp (w, X);
        mat_mul (X, dR[nd], Rs[nd]);
      }
      corot cp;
      corot_eval (Lam0, L0, xs[0], xs[1], Rs[0], Rs[1], &cp);
      corot_bt (cp.B, fd, sg > 0 ? yp : ym);
    }
    for (int i = 0; i < 12; i++) e->K[12 * i + j] += (yp[i] - ym[i]) / (2 * h);
  }
  double Lam[9];
  mat_transpose (c.E, Lam);
  beam_rotate (Lam, ml, e->M);
}

static void beam_gravity (const model *m, const model_state *s, const model_beam *b, int na,
                          int nb, const double Lam0[9], double L0, int flags, elem *e);

/* Element k of beam ib at s: linear at the deck pose, corotational elsewhere; Rayleigh
   C = alpha M + beta K (tangent without the load stiffness of gravity). Gravity: the
   potential V = -rho A g . integral of x(s) ds over the cubic Hermite centre line through
   the nodes with end tangents ta, tb (the deck element axis e1 turned by each node):
   integral = L0 ((xa + xb) / 2 + L0 (ta - tb) / 12), so with m = rho A L0, c = m L0 / 12:
   f_a = (m g / 2, c ta x g), f_b = (m g / 2, -c tb x g) (at the deck the fixed-end moments
   rho A g L0^2 / 12 of the cubic element) and K(a_r, a_r) = -c skew(g) skew(ta),
   K(b_r, b_r) = c skew(g) skew(tb): a conservative load, so K is symmetric at an
   equilibrium. EVAL_MATERIAL: K = B^T k_def B alone (no geometric, no load stiffness). */
void beam_element (const model *m, const model_state *s, int ib, int k, int flags, elem *e)
{
  model_beam bk;
  const model_beam *b = beam_of_element (m, ib, k, &bk);   /* beam_taper.c */
  int na = b->first_node + k, nb = na + 1;
  double Lam0[9], kl[144], ml[144];
  double L0 = beam_axes (b, m->nodes[na].x, m->nodes[nb].x, Lam0);
  beam_local (b, L0, kl, ml);
  memset (e, 0, sizeof *e);
  e->nnode = 2;
  e->node[0] = na;
  e->node[1] = nb;
  e->has_K = e->has_M = 1;
  if (node_at_deck (m, s, na) && node_at_deck (m, s, nb)) {
    beam_rotate (Lam0, kl, e->K);
    beam_rotate (Lam0, ml, e->M);
  } else {
    beam_corotational (m, s, na, nb, Lam0, L0, kl, ml, (flags & EVAL_MATERIAL) != 0, e);
  }
  e->has_C = b->alpha > 0 || b->beta > 0;
  if (e->has_C)
    for (int i = 0; i < 144; i++) e->C[i] = b->alpha * e->M[i] + b->beta * e->K[i];
  if (flags & EVAL_GRAVITY) beam_gravity (m, s, b, na, nb, Lam0, L0, flags, e);
}

/* Gravity on element (na, nb) of beam b (beam_element's comment): f_ext, and unless
   EVAL_MATERIAL its load stiffness blocks, added into e; then the beam's line load. */
static void beam_gravity (const model *m, const model_state *s, const model_beam *b, int na,
                          int nb, const double Lam0[9], double L0, int flags, elem *e)
{
  const double *g = m->gravity;
  double mass = b->rho * b->A * L0, c = mass * L0 / 12.0, t[2][3], Sg[9], St[9], P[9];
  mat_skew (g, Sg);
  for (int nd = 0; nd < 2; nd++) {
    double mg[3];
    node_dir (m, s, nd ? nb : na, Lam0, t[nd]);     /* Lam0 row 0 = e1 at the deck */
    vec_cross (t[nd], g, mg);
    for (int i = 0; i < 3; i++) {
      e->f_ext[6 * nd + i] = 0.5 * mass * g[i];
      e->f_ext[6 * nd + 3 + i] = (nd ? -c : c) * mg[i];
    }
    if (flags & EVAL_MATERIAL) continue;   /* the load stiffness is not material */
    mat_skew (t[nd], St);
    mat_mul (Sg, St, P);
    blk_add (e->K, 2 * nd + 1, 2 * nd + 1, nd ? c : -c, P);
  }
  beam_line_load (m, s, b, na, nb, Lam0, L0, flags, e);   /* beam_load.c */
}

/* v^T B^T k_def B v of a real 12-vector v (element DOFs): the material energy. */
static double corot_material (const corot *c, const double kd[49], const double v[12])
{
  double bv[7], e = 0.0;
  for (int i = 0; i < 7; i++) {
    bv[i] = 0;
    for (int j = 0; j < 12; j++) bv[i] += c->B[12 * i + j] * v[j];
  }
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++) e += bv[i] * kd[7 * i + j] * bv[j];
  return e;
}

/* v^T (d(B^T f)/dq) v of a real 12-vector v at fixed f: one central difference of B^T f
   along v (the derivative along v is v's combination of the columns beam_corotational
   takes one by one), step t with max(|v_x| / L0, |v_th|) t = 1e-6, as its steps. */
static double corot_geometric (const double Lam0[9], double L0, const double *x0[2],
                               const double dR[2][9], const double fd[7], const double v[12])
{
  double big = 0.0;
  for (int j = 0; j < 12; j++) big = fmax (big, fabs (v[j]) / (j % 6 < 3 ? L0 : 1.0));
  if (big == 0.0) return 0.0;
  double h = 1e-6 / big, y[2][12];
  for (int sg = 0; sg < 2; sg++) {
    double xs[2][3], Rs[2][9], a = sg ? -h : h;
    for (int nd = 0; nd < 2; nd++) {
      double w[3], X[9];
      for (int i = 0; i < 3; i++) {
        xs[nd][i] = x0[nd][i] + a * v[6 * nd + i];
        w[i] = a * v[6 * nd + 3 + i];
      }
      model_rot_exp (w, X);
      mat_mul (X, dR[nd], Rs[nd]);
    }
    corot cp;
    corot_eval (Lam0, L0, xs[0], xs[1], Rs[0], Rs[1], &cp);
    corot_bt (cp.B, fd, y[sg]);
  }
  double e = 0.0;
  for (int j = 0; j < 12; j++) e += v[j] * (y[0][j] - y[1][j]) / (2 * h);
  return e;
}

void beam_energy (const model *m, const model_state *s, int ib, int k, int flags,
                  const double complex *x, double *kinetic, double *material,
                  double *tangent)
{
  model_beam bk;
  const model_beam *b = beam_of_element (m, ib, k, &bk);   /* beam_taper.c */
  int na = b->first_node + k, nb = na + 1;
  elem e;
  if (node_at_deck (m, s, na) && node_at_deck (m, s, nb)) {  /* linear: cheap as it is */
    beam_element (m, s, ib, k, flags & ~EVAL_MATERIAL, &e);
    *kinetic = elem_energy (&e, e.M, x);
    *tangent = elem_energy (&e, e.K, x);
    if (!(flags & EVAL_GRAVITY)) *material = *tangent;
    else {
      beam_element (m, s, ib, k, flags | EVAL_MATERIAL, &e);
      *material = elem_energy (&e, e.K, x);
    }
    return;
  }
  double Lam0[9], kl[144], ml[144], kd[49], fd[7], dR[2][9];
  double L0 = beam_axes (b, m->nodes[na].x, m->nodes[nb].x, Lam0);
  beam_local (b, L0, kl, ml);
  const double *x0[2];
  corot c;
  corot_forces (m, s, na, nb, Lam0, L0, kl, x0, dR, &c, kd, fd);
  double mat = 0.0, geo = 0.0;
  for (int part = 0; part < 2; part++) {       /* Re(x^H A x) = xr^T A xr + xi^T A xi */
    double v[12];
    for (int j = 0; j < 12; j++) {
      const double complex xj = x[6 * (j < 6 ? na : nb) + j % 6];
      v[j] = part ? cimag (xj) : creal (xj);
    }
    mat += corot_material (&c, kd, v);
    geo += corot_geometric (Lam0, L0, x0, dR, fd, v);
  }
  memset (&e, 0, sizeof e);
  e.nnode = 2;
  e.node[0] = na;
  e.node[1] = nb;
  double Lam[9];
  mat_transpose (c.E, Lam);
  beam_rotate (Lam, ml, e.M);
  *kinetic = elem_energy (&e, e.M, x);
  *material = mat;
  *tangent = mat + geo;
  if (flags & EVAL_GRAVITY) {                  /* the load stiffness of gravity */
    memset (e.K, 0, sizeof e.K);
    beam_gravity (m, s, b, na, nb, Lam0, L0, flags & ~EVAL_MATERIAL, &e);
    *tangent += elem_energy (&e, e.K, x);
  }
}
