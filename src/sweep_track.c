/* sweep_track.c: modes followed from step to step by MAC, a subspace MAC in clusters
   (see sweep_track.h). */
#include "sweep_track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* a^H b over n entries */
static double complex dot (int n, const double complex *a, const double complex *b)
{
  double complex s = 0;
  for (int k = 0; k < n; k++) s += conj (a[k]) * b[k];
  return s;
}

/* y = M x (M real symmetric, NULL: the identity) */
static void apply_m (const spm *M, int n, const double complex *x, double complex *y)
{
  if (M) spm_matvec_complex (M, x, y);
  else memcpy (y, x, (size_t) n * sizeof *y);
}

/* 1: modes i and j share a cluster: both rigid, or |lambda_i - lambda_j| <=
   TRACK_CLUSTER_RTOL max(|lambda_i|, |lambda_j|) */
static int close_pair (const track_modes *md, int i, int j)
{
  if (md->rigid && md->rigid[i] && md->rigid[j]) return 1;
  double a = cabs (md->lambda[i]), b = cabs (md->lambda[j]);
  return cabs (md->lambda[i] - md->lambda[j]) <= TRACK_CLUSTER_RTOL * (a > b ? a : b);
}

/* The clusters of the modes: cl[i] = the smallest index of mode i's cluster (the closure
   of close_pair), size[i] its member count. */
static void clusters (const track_modes *md, int *cl, int *size)
{
  int nm = md->nmodes;
  for (int i = 0; i < nm; i++) cl[i] = i;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < nm; i++)
      for (int j = i + 1; j < nm; j++)
        if (cl[i] != cl[j] && close_pair (md, i, j)) {
          int lo = cl[i] < cl[j] ? cl[i] : cl[j];
          cl[i] = cl[j] = lo;
          changed = 1;
        }
  }
  for (int i = 0; i < nm; i++) size[i] = 0;
  for (int i = 0; i < nm; i++) size[cl[i]]++;
  for (int i = 0; i < nm; i++) size[i] = size[cl[i]];
}

/* An M-orthonormal basis Q of each cluster of more than one of the nm vectors X (vector i
   at X + i n; cl, size as clusters () gives them) by Gram-Schmidt twice in the M inner
   product, dependent vectors dropped, with MQ = M Q: column c of Q at Q + c n; nq[i] the
   columns of vector i's cluster (0 for a single vector), q0[i] its first. Q and MQ hold nm
   columns at most. */
static void cluster_bases (int n, int nm, const double complex *X, const spm *M,
                           const int *cl, const int *size, double complex *Q,
                           double complex *MQ, double complex *tmp, int *nq, int *q0)
{
  int used = 0;
  for (int i = 0; i < nm; i++) nq[i] = 0, q0[i] = 0;
  for (int c = 0; c < nm; c++) {
    if (cl[c] != c || size[c] < 2) continue;
    int first = used;
    for (int i = c; i < nm; i++) {
      if (cl[i] != c) continue;
      double complex *q = Q + (size_t) used * n;
      memcpy (q, X + (size_t) i * n, (size_t) n * sizeof *q);
      apply_m (M, n, q, tmp);
      double norm0 = sqrt (fabs (creal (dot (n, q, tmp))));
      for (int pass = 0; pass < 2; pass++)
        for (int k = first; k < used; k++) {
          double complex h = dot (n, Q + (size_t) k * n, tmp);  /* q_k^H M q */
          for (int e = 0; e < n; e++) q[e] -= h * Q[(size_t) k * n + e];
          apply_m (M, n, q, tmp);
        }
      double norm = sqrt (fabs (creal (dot (n, q, tmp))));
      if (!(norm > 1e-8 * norm0) || norm == 0) continue;  /* dependent on the others */
      for (int e = 0; e < n; e++) q[e] /= norm, tmp[e] /= norm;
      memcpy (MQ + (size_t) used * n, tmp, (size_t) n * sizeof *tmp);
      used++;
    }
    for (int i = c; i < nm; i++)
      if (cl[i] == c) nq[i] = used - first, q0[i] = first;
  }
}

/* The scratch of one tracker_step (views into three allocations the step owns): Mx = M x
   of the nm modes, Mr = M r of the na references, Q, MQ the modes' cluster bases, P, MP
   the references' (the last step's clusters), tmp one vector; S, T the na x nm scores
   (S[j nm + i]: the MAC or subspace MAC, T the plain MAC); cl, size the modes' clusters,
   nq, q0 their bases' columns (pnq, pq0, psize the references'); mode_of[j] the mode
   matched to reference j (-1 none), taken[i] mode i matched. */
typedef struct step_work {
  double complex *Mx, *Mr, *Q, *MQ, *tmp, *P, *MP;
  double *S, *T;
  int *cl, *size, *nq, *q0, *mode_of, *taken, *pnq, *pq0, *psize;
} step_work;

/* The part of v (vv = v^H M v) in the M-orthonormal basis Q of nq columns from q0 (MQ =
   M Q): sum_k |(M q_k)^H v|^2 / vv, 0 when vv <= 0: the subspace MAC of v on the
   cluster's space. */
static double subspace_mac (int n, const double complex *MQ, int q0, int nq,
                            const double complex *v, double vv)
{
  double s = 0;
  for (int k = q0; k < q0 + nq; k++) {
    double complex h = dot (n, MQ + (size_t) k * n, v);
    s += creal (h * conj (h));
  }
  return vv > 0 ? s / vv : 0;
}

/* The scores of every (reference j, mode i), each at most 1: T = the MAC |r^H M x|^2 /
   (r^H M r x^H M x) (0 for a null vector), S = the MAC or, for a mode in a cluster, the
   subspace MAC of r on the cluster's space, raised to the subspace MAC of x on the
   reference's cluster of the last step when that is larger. */
static void score_pairs (const tracker *t, const track_modes *md, int na, step_work *w)
{
  int n = md->n, nm = md->nmodes;
  for (int j = 0; j < na; j++) {
    const double complex *r = t->ref + (size_t) j * n;
    double rr = creal (dot (n, r, w->Mr + (size_t) j * n));
    for (int i = 0; i < nm; i++) {
      const double complex *x = md->x + (size_t) i * n;
      double xx = creal (dot (n, x, w->Mx + (size_t) i * n));
      double complex rx = dot (n, r, w->Mx + (size_t) i * n);
      double mac = rr > 0 && xx > 0 ? creal (rx * conj (rx)) / (rr * xx) : 0;
      double s = mac;
      if (w->nq[i] > 0) s = subspace_mac (n, w->MQ, w->q0[i], w->nq[i], r, rr);
      if (w->pnq[j] > 0) {  /* the mode on the track's cluster of the last step */
        double sp = subspace_mac (n, w->MP, w->pq0[j], w->pnq[j], x, xx);
        if (sp > s) s = sp;
      }
      w->S[j * nm + i] = s > 1 ? 1 : s;
      w->T[j * nm + i] = mac > 1 ? 1 : mac;
    }
  }
}

/* The best pairs first (highest S, T breaking ties) while the score reaches t->mac_min,
   each reference and mode once: out->track and out->mac of the matched modes (0 and -1
   for the others, newt 0), w->mode_of; out->lost the active tracks left unmatched (all
   of them beyond na). */
static void match_best (const tracker *t, int na, int nm, step_work *w, track_step *out)
{
  const double *S = w->S, *T = w->T;
  for (int j = 0; j < na; j++) w->mode_of[j] = -1;
  for (int i = 0; i < nm; i++) w->taken[i] = 0, out->track[i] = 0, out->mac[i] = -1,
                               out->newt[i] = 0;
  for (;;) {
    int bj = -1, bi = -1;
    for (int j = 0; j < na; j++)
      for (int i = 0; j >= 0 && w->mode_of[j] < 0 && i < nm; i++) {
        if (w->taken[i]) continue;
        double s = S[j * nm + i], tt = T[j * nm + i];
        if (bj < 0 || s > S[bj * nm + bi] || (s == S[bj * nm + bi] && tt > T[bj * nm + bi]))
          bj = j, bi = i;
      }
    if (bj < 0 || S[bj * nm + bi] < t->mac_min) break;
    w->mode_of[bj] = bi;
    w->taken[bi] = 1;
    out->track[bi] = t->active[bj];
    out->mac[bi] = S[bj * nm + bi];
  }
  out->nlost = 0;
  for (int j = 0; j < t->nactive; j++)
    if (j >= na || w->mode_of[j] < 0) out->lost[out->nlost++] = t->active[j];
}

/* The new references ref (nm vectors, the caller's) and active ids: a single mode's
   vector, or for a matched mode in a cluster its track's reference projected on the
   cluster's space, sum_k q_k (M q_k)^H r; an unmatched mode starts a new track
   (++t->ntracks, out->newt). */
static void new_references (tracker *t, const track_modes *md, int na, const step_work *w,
                            double complex *ref, int *active, track_step *out)
{
  int n = md->n, nm = md->nmodes;
  for (int i = 0; i < nm; i++) {
    double complex *r = ref + (size_t) i * n;
    int j = -1;
    for (int k = 0; k < na; k++)
      if (w->mode_of[k] == i) j = k;
    if (j >= 0 && w->nq[i] > 0) {
      memset (r, 0, (size_t) n * sizeof (double complex));
      for (int k = w->q0[i]; k < w->q0[i] + w->nq[i]; k++) {
        double complex h = dot (n, w->MQ + (size_t) k * n, t->ref + (size_t) j * n);
        for (int e = 0; e < n; e++) r[e] += h * w->Q[(size_t) k * n + e];
      }
    } else memcpy (r, md->x + (size_t) i * n, (size_t) n * sizeof (double complex));
    if (j < 0) {
      out->track[i] = ++t->ntracks;
      out->newt[i] = 1;
    }
    active[i] = out->track[i];
  }
}

/* See sweep_track.h. Steps: M x and M r, the clusters of the modes and of the last
   step's references with their bases (cluster_bases), the scores (score_pairs), the
   matching (match_best), the new references (new_references), which replace the
   tracker's. Owns the scratch; the tracker takes ref, active and pcl. */
int tracker_step (tracker *t, const track_modes *md, const spm *M, track_step *out)
{
  int n = md->n, nm = md->nmodes;
  int na = t->n == n ? t->nactive : 0;  /* another n: every track is lost */
  size_t vec = (size_t) n * sizeof (double complex);
  double complex *Mx = malloc ((nm + 3 * na + 2 * nm + 1) * vec + 1);
  double *S = malloc ((size_t) (na * nm + 1) * 2 * sizeof *S);
  int *iw = malloc ((size_t) (6 * nm + 6 * na + 1) * sizeof *iw);
  double complex *ref = malloc ((size_t) (nm + 1) * vec);
  int *active = malloc ((size_t) (nm + 1) * sizeof *active);
  int *pcl = malloc ((size_t) (2 * nm + 1) * sizeof *pcl);
  if (!Mx || !S || !iw || !ref || !active || !pcl) {
    free (Mx), free (S), free (iw), free (ref), free (active), free (pcl);
    return MB_ENOMEM;
  }
  step_work w;
  w.Mx = Mx, w.Mr = Mx + (size_t) nm * n, w.Q = w.Mr + (size_t) na * n;
  w.MQ = w.Q + (size_t) nm * n, w.tmp = w.MQ + (size_t) nm * n;
  w.P = w.tmp + n, w.MP = w.P + (size_t) na * n;  /* the last step's clusters */
  w.S = S, w.T = S + na * nm;
  w.cl = iw, w.size = w.cl + nm, w.nq = w.size + nm, w.q0 = w.nq + nm;
  w.mode_of = w.q0 + nm, w.taken = w.mode_of + na, w.pnq = w.taken + nm;
  w.pq0 = w.pnq + na, w.psize = w.pq0 + na;
  for (int i = 0; i < nm; i++) apply_m (M, n, md->x + (size_t) i * n, w.Mx + (size_t) i * n);
  for (int j = 0; j < na; j++) apply_m (M, n, t->ref + (size_t) j * n, w.Mr + (size_t) j * n);
  clusters (md, w.cl, w.size);
  cluster_bases (n, nm, md->x, M, w.cl, w.size, w.Q, w.MQ, w.tmp, w.nq, w.q0);
  for (int j = 0; j < na; j++) w.psize[j] = 0;  /* the last step's clusters of references */
  for (int j = 0; j < na; j++) w.psize[t->pcl[j]]++;
  for (int j = 0; j < na; j++) w.psize[j] = w.psize[t->pcl[j]];
  cluster_bases (n, na, t->ref, M, t->pcl, w.psize, w.P, w.MP, w.tmp, w.pnq, w.pq0);
  score_pairs (t, md, na, &w);
  match_best (t, na, nm, &w, out);
  new_references (t, md, na, &w, ref, active, out);
  for (int i = 0; i < nm; i++) pcl[i] = w.cl[i];
  free (t->ref);
  free (t->active);
  free (t->pcl);
  t->ref = ref;
  t->active = active;
  t->pcl = pcl;
  t->nactive = nm;
  t->n = n;
  free (Mx), free (S), free (iw);
  return 0;
}

void tracker_clear (tracker *t)
{
  free (t->ref);
  free (t->active);
  free (t->pcl);
  double mac_min = t->mac_min;
  memset (t, 0, sizeof *t);
  t->mac_min = mac_min;
}
