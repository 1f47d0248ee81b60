/* elements.h: element matrices in the global 6-DOF-per-node space and their helpers
   (3D vector helpers: vec3.h), shared by the files of src/model (private: not for other
   stages). */
#ifndef MB_ELEMENTS_H
#define MB_ELEMENTS_H

#include <complex.h>
#include <math.h>
#include <string.h>

#include "../deck/deck_model.h"
#include "model.h"
#include "state.h"
#include "vec3.h"

/* One element's dense matrices and vectors on one or two nodes, at a state. Each matrix
   is row-major 12 x 12 (leading dimension 12); with nnode = 1 only its top-left 6 x 6 is
   used. Row/column block i belongs to node[i] (DOFs dx dy dz rx ry rz); a MODEL_GROUND
   node's rows and columns are dropped on assembly. has_* = 0: that matrix is absent (not
   assembled); has_* depends on the deck only (never on the state), so that the assembled
   pattern is fixed. K is the tangent d(f_int - f_ext)/dq. */
typedef struct elem {
  int nnode;           /* 1 or 2 */
  int node[2];         /* node indices or MODEL_GROUND */
  int has_K, has_M, has_C;
  double K[144], M[144], C[144];
  double f_int[12];    /* internal force dV/dq (elements with strain energy) */
  double f_ext[12];    /* applied force (loads, gravity) */
  int has_G;           /* spin.c: the gyroscopic matrix G (skew, not dissipative), kept
                          apart from the damping C; both are summed into R on assembly */
  double G[144];
} elem;

/* Evaluation flags: EVAL_GRAVITY adds mdl->gravity's loads (f_ext and load stiffness);
   EVAL_MATERIAL makes K the material stiffness alone, G^T D G with D the element's
   constitutive matrix and G its deformation rate (x^T K x >= 0): the terms of the internal
   forces, preloads and loads (the geometric and load stiffness) are left out of K (f_int,
   f_ext and M are unchanged; a beam's Rayleigh C follows its K). Energy shares split K
   into the two (energy.c). */
enum { EVAL_GRAVITY = 1, EVAL_MATERIAL = 2 };

/* ---- node poses at a state (s NULL: the deck configuration) ---- */

static inline const double *node_xs (const model *m, const model_state *s, int i)
{
  return s ? s->x + 3 * (size_t) i : m->nodes[i].x;
}

static inline const double *node_Rs (const model *m, const model_state *s, int i)
{
  return s ? s->R + 9 * (size_t) i : m->nodes[i].R;
}

/* 1 when node i is ground or has its deck pose in s (bitwise; s NULL: always). */
static inline int node_at_deck (const model *m, const model_state *s, int i)
{
  return !s || i < 0 || model_state_node_at_deck (m, s, i);
}

/* dR = R R0^T: node i's rotation since the deck (identity for ground). */
void node_drot (const model *m, const model_state *s, int i, double dR[9]);

/* A point given at p0 in the deck configuration, attached to node i: lever r = p - x_i
   and position p at s. Ground or a node at its deck pose: r = p0 - x0, p = p0 exactly. */
void node_point (const model *m, const model_state *s, int i, const double p0[3],
                 double r[3], double p[3]);

/* A direction e0 (deck) attached to node i: e = dR e0 (e0 exactly at the deck pose). */
void node_dir (const model *m, const model_state *s, int i, const double e0[3], double e[3]);

/* ---- element evaluators (each fills *e completely; s NULL = deck configuration) ---- */

/* Rigid body i: M = diag(m I3, dR J dR^T) at its node (J global at the deck, about the
   centre of mass); with EVAL_GRAVITY f_ext = (m g, 0). No stiffness. */
void body_element (const model *m, const model_state *s, int i, int flags, elem *e);

/* Point mass i (point_mass.c): at lever r = R r_node from its node, J = R J_node R^T
   (R the node's orientation at s),
   M = [[m I, -m S], [m S, J - m S S]] with S = skew(r) (the kinetic energy of the point
   velocity v + w x r and of w); EVAL_GRAVITY: f_ext = (m g, r x m g) and its load
   stiffness K_rr = -skew(m g) skew(r) (has_K when the deck has gravity and an offset). */
void point_mass_element (const model *m, const model_state *s, int i, int flags, elem *e);

/* Resolves the deck's masses into m->masses (after the aliases exist). Returns 0,
   MB_EDECK (unknown node) or MB_ENOMEM. model_clear frees them (point_mass_clear). */
int point_mass_build (const deck_model *dm, const char *path, model *m, mb_err *err);

/* Frees m->masses and their names. */
void point_mass_clear (model *m);

/* planar: (deck_model.planar, planar.c): appends one lock joint "planar:NODE" from ground
   per node on the out-of-plane DOFs (the plane normal's translation, the rotations about
   the in-plane axes, global axes) that the model's joints do not already hold: a DOF row
   is kept when it is independent (Gram-Schmidt residual above 1e-9) of the joints' Cq
   rows at the deck and of the rows kept before it, so the locks never overconstrain.
   After the deck's joints; updates njoints and nconstraints. Returns 0, MB_EDECK (a joint
   group of more than 500 nodes) or MB_ENOMEM. */
int planar_build (const deck_model *dm, const char *path, model *m, mb_err *err);

/* Element k (0-based along the beam) of beam ib, corotational: element frame from the
   current node positions and rotations, local deformations (elongation, the two nodes'
   rotations relative to the frame), the linear element of beamgrid.py in that frame;
   f_int = B^T k_def d_def, K = B^T k_def B + d(B^T)/dq f_def (geometric part by central
   differences of B^T f_def at fixed f_def, h = 1e-6), M = consistent mass in the current
   frame, C = alpha M + beta K when either is non-zero. Both nodes at their deck pose: the
   linear element exactly (K = T^T k T, f_int = 0). EVAL_GRAVITY: the consistent,
   conservative load of rho A g (beam.c) and its load stiffness. */
void beam_element (const model *m, const model_state *s, int ib, int k, int flags, elem *e);

/* The energies of element k of beam ib at s in the mode shape x (global, 6 per node):
   *kinetic = Re(x^H M x), *tangent = Re(x^H K x), *material = its material part, K and M
   those of beam_element (flags: EVAL_GRAVITY or 0). Corotational: the geometric part
   from one central difference of B^T f_def along each of Re x, Im x (not the 12 columns
   of beam_element), so that energy shares about an equilibrium cost two frame evaluations
   per element instead of 25; it equals beam_element's to the differences' error. */
void beam_energy (const model *m, const model_state *s, int ib, int k, int flags,
                  const double complex *x, double *kinetic, double *material,
                  double *tangent);

/* Local axes of a beam element from node xa to xb: rows of L are ex (along the element),
   ey, ez with ez = unit(ex x y), ey = ez x ex, y = the beam's y axis (or a deterministic
   normal when the deck gave none). Returns the length |xb - xa|. */
double beam_axes (const model_beam *b, const double xa[3], const double xb[3],
                  double L[9]);

/* A global axis not parallel to unit vector ex (the one with the smallest |ex_k|, first
   on ties), the default y axis of a beam element without y_axis. */
void beam_default_y (const double ex[3], double y[3]);

/* beam_shear.c: shear areas of a beam from its deck theory and section (0 or MB_EDECK),
   and the 4 x 4 planar Timoshenko stiffness kb and mass mb (As = 0: Euler-Bernoulli). */
int beam_shear_areas (const deck_beam *db, const deck_section *sec, const char *path,
                      model_beam *b, mb_err *err);
void beam_bending_plane (double E, double G, double rho, double A, double Ib, double As,
                         double L, double s, double kb[16], double mb[16]);

/* beam_taper.c: the per-element sections of a beam whose deck section is a list (b->esec;
   0, MB_EDECK or MB_ENOMEM), and beam ib with element k's section (the beam itself when
   uniform, else *tmp filled). */
int beam_taper_build (const deck_model *dm, const deck_beam *db, const char *path,
                      model_beam *b, mb_err *err);
const model_beam *beam_of_element (const model *m, int ib, int k, model_beam *tmp);

/* beam_load.c: the line load b->q of element (na, nb) of beam b (deck axes Lam0, length
   L0) at s: its consistent f_ext added into e, and unless EVAL_MATERIAL its load
   stiffness. Nothing when q = 0. */
void beam_line_load (const model *m, const model_state *s, const model_beam *b, int na,
                     int nb, const double Lam0[9], double L0, int flags, elem *e);

/* Left Jacobian inverse of SO(3) at rotation vector w: dw = Jinv(w) spin, where
   exp(w + dw) = exp(spin) exp(w) to first order. Row-major. */
void rot_jinv (const double w[3], double J[9]);

/* Force element f at state s: springs, rotational springs and bushings (f_int, tangent
   material + geometric, damping), point forces and torques (f_ext and load stiffness of
   offsets and followers). Absent matrices have has_* = 0. */
void force_element (const model *m, const model_state *s, int f, elem *e);

/* force_element with evaluation flags (EVAL_MATERIAL: the material stiffness alone: k n n^T
   of a spring, k g g^T of a rotational spring, T^T K6 T of a bushing, none of a load). */
void force_element_flags (const model *m, const model_state *s, int f, int flags, elem *e);

/* Row k of joint j at state s: C value *c, coefficients of Cq on the DOFs of node a (ca)
   and node b (cb) (zero for ground), and when Kc is not NULL, Kc (12 x 12 row-major,
   node a then node b) += g d(Cq_k^T)/dq, the geometric stiffness of the row's reaction g.
   Nodes at their deck pose: ca, cb exactly the deck rows. */
void joint_row_eval (const model *m, const model_state *s, const model_joint *j, int k,
                     double g, double *c, double ca[6], double cb[6], double *Kc);

/* Coefficients of Cq row k of joint j at the deck configuration. */
void joint_row_coeffs (const model *m, const model_joint *j, int k, double ca[6],
                       double cb[6]);

/* "revolute, rotation about e1": the type and meaning of row k of j, into buf. */
void joint_row_label (const model_joint *j, int k, char *buf, size_t size);

/* Fills the rows (is_rotation, dir, frame_axis) of a resolved joint from its type,
   frame R, lock mask and points. Returns the number of rows. */
int joint_rows_fill (model_joint *j, int lock_mask);

/* ---- model_build pieces ---- */

/* Node of a deck reference: MODEL_GROUND for "ground", else its alias. Unknown names
   are MB_EDECK at r's position, "<what>: unknown node 'x' (did you mean 'y'?)". */
int model_ref_node (const model *m, const deck_ref *r, const char *path, const char *what,
                    int *node, mb_err *err);

/* Resolves deck joint dj into *j (names copied). Returns 0, MB_EDECK or MB_ENOMEM. */
int joint_build (const model *m, const deck_joint *dj, const char *path, model_joint *j,
                 mb_err *err);

/* Resolves deck force df into *f (names copied). Returns 0, MB_EDECK or MB_ENOMEM. */
int force_build (const model *m, const deck_force *df, const char *path, model_force *f,
                 mb_err *err);

/* 1 when force f has a damping matrix (c > 0 or non-zero bushing damping). */
int force_has_damping (const model_force *f);

/* ---- assembly helpers ---- */

/* Re(x^H a x) over the element's DOFs (a real, ground dropped). */
double elem_energy (const elem *e, const double *a, const double complex *x);

/* 1 when force f has a stiffness matrix (deck data only: a fixed pattern). */
int force_has_stiffness (const model *m, const model_force *f);

/* ---- 12 x 12 block helpers (the 3D ones: vec3.h) ---- */

/* The 3 x 3 block (bi, bj) of a 12 x 12 row-major matrix a: a[(3 bi + i) 12 + 3 bj + j] */
static inline double *blk (double *a, int bi, int bj)
{
  return a + 36 * bi + 3 * bj;
}

/* block (bi, bj) of a += s B (B 3 x 3 row-major) */
static inline void blk_add (double *a, int bi, int bj, double s, const double B[9])
{
  double *p = blk (a, bi, bj);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) p[12 * i + j] += s * B[3 * i + j];
}

#endif
