/* report.c: the text table of modes (stdout) and the YAML report of one eigen stage, with
   node-wise shapes and energy shares per part for a model deck. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

#define NUMS_PER_LINE 8   /* numbers per line of a wrapped flow sequence */

const char *report_kind_name (mode_kind kind)
{
  switch (kind) {
  case MODE_RIGID: return "rigid-body";
  case MODE_OSCILLATORY: return "oscillatory";
  case MODE_OVERDAMPED: return "overdamped";
  case MODE_UNSTABLE: return "unstable";
  default: return "unknown";
  }
}

/* ---------------------------------------------------------------- text table */

/* v, with -0 shown as 0 so that signs of zero do not make logs differ */
static double tidy (double v)
{
  return v == 0.0 ? 0.0 : v;
}

/* One header line, one row per mode, a count of filtered infinite eigenvalues. */
void report_print_table (FILE *f, const eigen_result *r)
{
  report_print_table_with (f, r, NULL);
}

/* The dominant direction of mode i and its share, "dz 61.3%", or "-", into buf. */
static void dominant_text (char *buf, size_t len, const participation *pf, int i)
{
  int dir;
  double share;
  if (participation_dominant (pf, i, &dir, &share))
    snprintf (buf, len, "%s %.1f%%", participation_dir_name (dir), 100.0 * share);
  else snprintf (buf, len, "-");
}

/* As report_print_table; with pf, the "mass share" column before the residual. */
void report_print_table_with (FILE *f, const eigen_result *r, const participation *pf)
{
  if (!f || !r) return;
  int damped = r->stage == STAGE_COMPLEX;
  if (pf && pf->nmodes != r->nmodes) pf = NULL;
  if (damped && r->has_whirl)   /* a spinning model: the whirl column (src/model/spin.c) */
    fprintf (f, "%6s  %14s  %13s  %16s  %-11s  %-8s  %10s\n", "mode", "frequency [Hz]",
             "damping ratio", "damped f. [Hz]", "kind", "whirl", "residual");
  else if (damped)
    fprintf (f, "%6s  %14s  %13s  %16s  %-11s  %10s\n", "mode", "frequency [Hz]",
             "damping ratio", "damped f. [Hz]", "kind", "residual");
  else if (pf)
    fprintf (f, "%6s  %14s  %-11s  %-11s  %10s\n", "mode", "frequency [Hz]", "kind",
             "mass share", "residual");
  else
    fprintf (f, "%6s  %14s  %-11s  %10s\n", "mode", "frequency [Hz]", "kind", "residual");
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    char dom[32];
    if (damped && r->has_whirl && md->multiplicity > 1)
      fprintf (f, "%6d  %14.6g  %13.6g  %16.6g  %-11s  %-8s  %10.2e  x%d (a %d-fold eigenvalue)\n",
               i + 1, tidy (md->freq_hz), tidy (md->zeta), tidy (md->damped_freq_hz),
               report_kind_name (md->kind), "-", tidy (md->residual), md->multiplicity,
               md->multiplicity);
    else if (damped && md->multiplicity > 1)  /* a folded rigid-body zero: said once */
      fprintf (f, "%6d  %14.6g  %13.6g  %16.6g  %-11s  %10.2e  x%d (a %d-fold eigenvalue)\n",
               i + 1, tidy (md->freq_hz), tidy (md->zeta), tidy (md->damped_freq_hz),
               report_kind_name (md->kind), tidy (md->residual), md->multiplicity,
               md->multiplicity);
    else if (damped && r->has_whirl)
      fprintf (f, "%6d  %14.6g  %13.6g  %16.6g  %-11s  %-8s  %10.2e\n", i + 1,
               tidy (md->freq_hz), tidy (md->zeta), tidy (md->damped_freq_hz),
               report_kind_name (md->kind), md->whirl > 0 ? "forward" : md->whirl < 0
               ? "backward" : "-", tidy (md->residual));
    else if (damped)
      fprintf (f, "%6d  %14.6g  %13.6g  %16.6g  %-11s  %10.2e\n", i + 1, tidy (md->freq_hz),
               tidy (md->zeta), tidy (md->damped_freq_hz), report_kind_name (md->kind),
               tidy (md->residual));
    else if (pf) {
      dominant_text (dom, sizeof dom, pf, i);
      fprintf (f, "%6d  %14.6g  %-11s  %-11s  %10.2e\n", i + 1, tidy (md->freq_hz),
               report_kind_name (md->kind), dom, tidy (md->residual));
    }
    else
      fprintf (f, "%6d  %14.6g  %-11s  %10.2e\n", i + 1, tidy (md->freq_hz),
               report_kind_name (md->kind), tidy (md->residual));
  }
  if (r->n_infinite > 0)
    fprintf (f, "%6s  %d infinite eigenvalue%s filtered (constraints, massless DOFs)\n", "",
             r->n_infinite, r->n_infinite == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- YAML writer */

/* v in the report's number style: shortest exact, "1.0e-10", null when not finite. */
static void put_num (FILE *f, double v)
{
  writer_put_real (f, v, WRITER_YAML);
}

/* s as a YAML double-quoted scalar. */
static void put_quoted (FILE *f, const char *s)
{
  writer_put_quoted (f, s, NULL);
}

/* "key: [v0, v1, ...]" for the real (part = 0) or imaginary (part = 1) parts of x,
   NUMS_PER_LINE numbers a line, continuation lines indented by indent + 2. */
static void put_vector (FILE *f, int indent, const char *key, const double complex *x,
                        int n, int part)
{
  fprintf (f, "%*s%s: [", indent, "", key);
  for (int i = 0; i < n; i++) {
    if (i > 0) {
      if (i % NUMS_PER_LINE == 0) fprintf (f, ",\n%*s", indent + 2, "");
      else fputs (", ", f);
    }
    put_num (f, part ? cimag (x[i]) : creal (x[i]));
  }
  fputs ("]\n", f);
}

/* "[re, im]" */
static void put_complex (FILE *f, double complex z)
{
  fputc ('[', f);
  put_num (f, creal (z));
  fputs (", ", f);
  put_num (f, cimag (z));
  fputc (']', f);
}

static void put_key_num (FILE *f, int indent, const char *key, double v)
{
  fprintf (f, "%*s%s: ", indent, "", key);
  put_num (f, v);
  fputc ('\n', f);
}

static void put_vec3 (FILE *f, const double *v)
{
  fputc ('[', f);
  for (int k = 0; k < 3; k++) {
    if (k) fputs (", ", f);
    put_num (f, v[k]);
  }
  fputc (']', f);
}

/* ---------------------------------------------------------------- model parts */

/* What a model report needs besides the result: the parts, and per mode their energy
   shares, ordered. Owned by the writer; model_ctx_clear frees. */
typedef struct share_item {
  double share;  /* kinetic or strain share of the part [-] */
  int part;      /* index into parts */
} share_item;

typedef struct model_ctx {
  const model *mdl;        /* borrowed */
  model_part *parts;       /* model_strain_terms' array, owned: the parts first */
  int nparts;              /* model_parts' count: parts[0 .. nparts - 1] (model.parts) */
  int nterms;              /* the parts, then joints and loads (strain energy only) */
  double *kinetic, *strain;        /* nterms each: the current mode's shares */
  double *material, *geometric;    /* nterms each: strain = material + geometric */
  share_item *kin_sorted, *str_sorted;  /* nterms each: listed shares, largest first */
  int nkin, nstr;                  /* entries listed (|share| >= MIN_SHARE) */
  int *first_alias, *next_alias;   /* user names per node: chains through mdl->aliases */
  const participation *pf;         /* borrowed; NULL: no participation blocks */
} model_ctx;

#define MIN_SHARE 1e-4   /* shares listed in the report: |share| >= this */

static void model_ctx_clear (model_ctx *mc)
{
  free (mc->parts);
  free (mc->kinetic);
  free (mc->strain);
  free (mc->material);
  free (mc->geometric);
  free (mc->kin_sorted);
  free (mc->str_sorted);
  free (mc->first_alias);
  free (mc->next_alias);
  memset (mc, 0, sizeof *mc);
}

/* The user names of nodes (aliases without '.' that differ from the node's name: a
   body's name is its node's name, BEAM.start / BEAM.end / BEAM.<i> are generated),
   chained per node in alias order. */
static void link_aliases (model_ctx *mc)
{
  const model *m = mc->mdl;
  for (int i = 0; i < m->nnodes; i++) mc->first_alias[i] = -1;
  for (int a = m->naliases - 1; a >= 0; a--) {
    const model_alias *al = &m->aliases[a];
    mc->next_alias[a] = -1;
    if (al->node < 0 || al->node >= m->nnodes || !al->name || strchr (al->name, '.')) continue;
    const char *own = m->nodes[al->node].name;
    if (own && strcmp (own, al->name) == 0) continue;
    mc->next_alias[a] = mc->first_alias[al->node];
    mc->first_alias[al->node] = a;
  }
}

/* Parts of mdl and room for one mode's shares. Returns 0 or MB_ENOMEM. */
static int model_ctx_init (model_ctx *mc, const model *mdl, mb_err *err)
{
  memset (mc, 0, sizeof *mc);
  mc->mdl = mdl;
  model_part *p = NULL;
  mc->nparts = model_parts (mdl, &p);
  free (p);
  mc->nterms = mc->nparts < 0 ? mc->nparts : model_strain_terms (mdl, &mc->parts);
  if (mc->nparts < 0 || mc->nterms < 0) {
    mc->nparts = mc->nterms = 0;
    return mb_fail (err, MB_ENOMEM, "out of memory listing the model's parts");
  }
  size_t np = (size_t) (mc->nterms > 0 ? mc->nterms : 1);
  mc->kinetic = mb_calloc (np, sizeof *mc->kinetic);
  mc->strain = mb_calloc (np, sizeof *mc->strain);
  mc->material = mb_calloc (np, sizeof *mc->material);
  mc->geometric = mb_calloc (np, sizeof *mc->geometric);
  mc->kin_sorted = mb_calloc (np, sizeof *mc->kin_sorted);
  mc->str_sorted = mb_calloc (np, sizeof *mc->str_sorted);
  mc->first_alias = mb_calloc ((size_t) (mdl->nnodes > 0 ? mdl->nnodes : 1), sizeof (int));
  mc->next_alias = mb_calloc ((size_t) (mdl->naliases > 0 ? mdl->naliases : 1), sizeof (int));
  if (!mc->kinetic || !mc->strain || !mc->material || !mc->geometric || !mc->kin_sorted
      || !mc->str_sorted || !mc->first_alias || !mc->next_alias) {
    model_ctx_clear (mc);
    return mb_fail (err, MB_ENOMEM, "out of memory for the energy shares");
  }
  link_aliases (mc);
  return 0;
}

const char *report_part_kind (const model *mdl, const model_part *p)
{
  if (!p) return "unknown";
  if (p->kind == PART_BODY) return "body";
  if (p->kind == PART_BEAM) return "beam";
  if (p->kind == PART_JOINT) return "joint";
  if (p->kind == PART_LOAD) return "load";
  if (p->kind == PART_MASS) return "mass";
  if (p->kind != PART_FORCE || !mdl || p->index < 0 || p->index >= mdl->nforces)
    return "force";
  switch (mdl->forces[p->index].type) {
  case FORCE_SPRING: return "spring";
  case FORCE_ROTATIONAL_SPRING: return "rotational_spring";
  case FORCE_BUSHING: return "bushing";
  default: return "force";
  }
}

/* Larger share first; equal shares in part order (a total order: stable output). */
static int by_share_desc (const void *p, const void *q)
{
  const share_item *a = p, *b = q;
  if (a->share != b->share) return a->share > b->share ? -1 : 1;
  return (a->part > b->part) - (a->part < b->part);
}

/* The parts with |share| >= MIN_SHARE (or, with split, a material or geometric share
   that large) into out, largest share first; returns the count. split may be NULL. */
static int sort_shares (const double *share, const double *const split[2], int nparts,
                        share_item *out)
{
  int k = 0;
  for (int p = 0; p < nparts; p++) {
    double big = fabs (share[p]);
    if (split) big = fmax (big, fmax (fabs (split[0][p]), fabs (split[1][p])));
    if (big >= MIN_SHARE) out[k++] = (share_item) { share[p], p };
  }
  qsort (out, (size_t) k, sizeof *out, by_share_desc);
  return k;
}

/* Kinetic share Re(x^H M_p x) / Re(x^H M x) of every part and strain share
   Re(x^H K_p x) / Re(x^H K x) = material + geometric of every term (parts, joints, loads)
   for the mode shape x (model_energy_split), then the listed ones sorted. A rigid-body
   mode lists no strain shares: its strain energy is round-off. Returns 0 or MB_ENOMEM. */
static int mode_shares (model_ctx *mc, const double complex *x, int rigid, mb_err *err)
{
  mc->nkin = mc->nstr = 0;
  if (mc->nterms == 0) return 0;
  MB_TRY (model_energy_split (mc->mdl, mc->parts, mc->nterms, x, mc->kinetic, mc->material,
                              mc->geometric, err));
  for (int p = 0; p < mc->nterms; p++) mc->strain[p] = mc->material[p] + mc->geometric[p];
  const double *const split[2] = { mc->material, mc->geometric };
  mc->nkin = sort_shares (mc->kinetic, NULL, mc->nparts, mc->kin_sorted);
  mc->nstr = rigid ? 0 : sort_shares (mc->strain, split, mc->nterms, mc->str_sorted);
  return 0;
}

/* A node name, or "ground" for MODEL_GROUND, as a quoted scalar. */
static void put_node_name (FILE *f, const model *m, int node)
{
  if (node >= 0 && node < m->nnodes && m->nodes[node].name) put_quoted (f, m->nodes[node].name);
  else put_quoted (f, "ground");
}

/* The top-level model block: node count, nodes in DOF order (node i owns vector entries
   6i .. 6i+5) with positions and user names, then the parts. */
static void put_model (FILE *f, const model_ctx *mc)
{
  const model *m = mc->mdl;
  fprintf (f, "model:\n  node_count: %d\n  dof_labels: [", m->nnodes);
  for (int q = 0; q < 6; q++) fprintf (f, "%s%s", q ? ", " : "", model_dof_label (q));
  fputs ("]\n", f);
  if (m->nnodes <= 0) fputs ("  nodes: []\n", f);
  else fputs ("  nodes:\n", f);
  for (int i = 0; i < m->nnodes; i++) {
    fputs ("    - {name: ", f);
    put_node_name (f, m, i);
    fputs (", position: ", f);
    put_vec3 (f, m->nodes[i].x);
    if (mc->first_alias[i] >= 0) {
      fputs (", aliases: [", f);
      for (int a = mc->first_alias[i]; a >= 0; a = mc->next_alias[a]) {
        if (a != mc->first_alias[i]) fputs (", ", f);
        put_quoted (f, m->aliases[a].name);
      }
      fputc (']', f);
    }
    fputs ("}\n", f);
  }
  if (mc->nparts <= 0) fputs ("  parts: []\n", f);
  else fputs ("  parts:\n", f);
  for (int k = 0; k < mc->nparts; k++) {
    const model_part *p = &mc->parts[k];
    fputs ("    - {name: ", f);
    put_quoted (f, p->name ? p->name : "");
    fprintf (f, ", kind: %s", report_part_kind (m, p));
    if (p->kind == PART_BODY && p->index >= 0 && p->index < m->nbodies) {
      fputs (", node: ", f);
      put_node_name (f, m, m->bodies[p->index].node);
    }
    else if (p->kind == PART_MASS && p->index >= 0 && p->index < m->nmasses) {
      fputs (", node: ", f);
      put_node_name (f, m, m->masses[p->index].node);
    }
    else if (p->kind == PART_BEAM && p->index >= 0 && p->index < m->nbeams) {
      const model_beam *b = &m->beams[p->index];
      fprintf (f, ", elements: %d, nodes: [", b->nelements);
      put_node_name (f, m, b->first_node);
      fputs (", ", f);
      put_node_name (f, m, b->first_node + b->nelements);
      fputc (']', f);
    }
    else if (p->kind == PART_FORCE && p->index >= 0 && p->index < m->nforces) {
      const model_force *fo = &m->forces[p->index];
      fputs (", nodes: [", f);
      put_node_name (f, m, fo->a);
      fputs (", ", f);
      put_node_name (f, m, fo->b);
      fputc (']', f);
    }
    fputs ("}\n", f);
  }
}

/* "[v0, ..., v5]" of the real (part 0) or imaginary (part 1) parts of x[0..5]. */
static void put_six (FILE *f, const double complex *x, int part)
{
  fputc ('[', f);
  for (int q = 0; q < 6; q++) {
    if (q) fputs (", ", f);
    put_num (f, part ? cimag (x[q]) : creal (x[q]));
  }
  fputc (']', f);
}

/* The eigenvector of a model mode node by node: modal {node, value: [dx..rz]}, complex
   {node, re: [..], im: [..]}. */
static void put_mode_nodes (FILE *f, const model *m, const double complex *x, int damped)
{
  if (m->nnodes <= 0) {
    fputs ("    nodes: []\n", f);
    return;
  }
  fputs ("    nodes:\n", f);
  for (int i = 0; i < m->nnodes; i++) {
    fputs ("      - {node: ", f);
    put_node_name (f, m, i);
    if (damped) {
      fputs (", re: ", f);
      put_six (f, x + 6 * (size_t) i, 0);
      fputs (", im: ", f);
      put_six (f, x + 6 * (size_t) i, 1);
    }
    else {
      fputs (", value: ", f);
      put_six (f, x + 6 * (size_t) i, 0);
    }
    fputs ("}\n", f);
  }
}

/* "      key:" and the listed shares as {part, kind, share} items, or "key: []"; split:
   each item with its material and geometric shares too (strain). */
static void put_share_list (FILE *f, const model_ctx *mc, const char *key,
                            const share_item *items, int count, int split)
{
  fprintf (f, "      %s:%s\n", key, count > 0 ? "" : " []");
  for (int k = 0; k < count; k++) {
    const model_part *p = &mc->parts[items[k].part];
    fputs ("        - {part: ", f);
    put_quoted (f, p->name ? p->name : "");
    fprintf (f, ", kind: %s, share: ", report_part_kind (mc->mdl, p));
    put_num (f, items[k].share);
    if (split) {
      fputs (", material: ", f);
      put_num (f, mc->material[items[k].part]);
      fputs (", geometric: ", f);
      put_num (f, mc->geometric[items[k].part]);
    }
    fputs ("}\n", f);
  }
}

/* One item of the modes list; mc is NULL for a matrix deck. Returns 0 or MB_ENOMEM (from
   the energy shares). */
static int put_mode (FILE *f, const eigen_result *r, int i, int with_vectors, model_ctx *mc,
                     mb_err *err)
{
  const mode *md = &r->modes[i];
  int damped = r->stage == STAGE_COMPLEX;
  fprintf (f, "  - mode: %d\n", i + 1);
  fputs ("    eigenvalue: ", f);
  if (damped) put_complex (f, md->lambda);
  else put_num (f, creal (md->lambda));
  fputc ('\n', f);
  put_key_num (f, 4, "frequency_hz", md->freq_hz);
  if (damped) {
    put_key_num (f, 4, "damped_frequency_hz", md->damped_freq_hz);
    put_key_num (f, 4, "damping_ratio", md->zeta);
  }
  fprintf (f, "    kind: %s\n", report_kind_name (md->kind));
  if (damped && r->has_whirl && md->whirl)
    fprintf (f, "    whirl: %s\n", md->whirl > 0 ? "forward" : "backward");
  if (md->multiplicity > 1) fprintf (f, "    multiplicity: %d\n", md->multiplicity);
  put_key_num (f, 4, "residual", md->residual);
  if (r->refined && md->kind != MODE_RIGID) put_key_num (f, 4, "conditioning", md->cond);
  if (mc && md->x) {
    MB_TRY (mode_shares (mc, md->x, md->kind == MODE_RIGID, err));
    fputs ("    energy:\n", f);
    put_share_list (f, mc, "kinetic", mc->kin_sorted, mc->nkin, 0);
    put_share_list (f, mc, "strain", mc->str_sorted, mc->nstr, 1);
  }
  if (mc && mc->pf) participation_put_mode (f, mc->pf, i);
  if (!with_vectors) return 0;
  int n = r->n > 0 ? r->n : 0, m = r->m > 0 ? r->m : 0;
  const double complex *x = md->x, *xi = md->xi;
  if (mc && x) put_mode_nodes (f, mc->mdl, x, damped);
  if (damped) {
    if (x && !mc) {
      put_vector (f, 4, "vector_re", x, n, 0);
      put_vector (f, 4, "vector_im", x, n, 1);
    }
    if (m > 0 && xi) {
      put_vector (f, 4, "multipliers_re", xi, m, 0);
      put_vector (f, 4, "multipliers_im", xi, m, 1);
    }
  }
  else {
    if (x && !mc) put_vector (f, 4, "vector", x, n, 0);
    if (m > 0 && xi) put_vector (f, 4, "multipliers", xi, m, 0);
  }
  return 0;
}

/* The profile block (docs/output.md, `profile`): the stage's time in disjoint parts, the
   solves, the floor, and every rank's peak resident memory with the largest and the sum
   (ranks whose peak is unknown, -1, count 0 in the sum). Written only when p->done. */
static void put_profile (FILE *f, const eigen_result *r)
{
  const eigen_profile *p = &r->profile;
  static const char *const names[] = { "pencil", "analysis", "factorization", "solves",
                                       "operator_other", "orthogonalization", "schur",
                                       "basis_rotations", "krylov_other", "post_processing",
                                       "missed_mode_check", "other" };
  const double parts[] = { p->time_pencil, p->time_analysis, p->time_factor, p->time_solves,
                           p->time_apply_other, p->time_orth, p->time_schur, p->time_basis,
                           p->time_krylov_other, p->time_post, p->time_check, p->time_other };
  fputs ("profile:\n  time_s:\n", f);
  put_key_num (f, 4, "total", r->time_total);
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) put_key_num (f, 4, names[i], parts[i]);
  put_key_num (f, 2, "missed_mode_check_share",
               r->time_total > 0.0 ? p->time_check / r->time_total : 0.0);
  fprintf (f, "  solves: {right_hand_sides: %ld, single: %ld, multi_rhs: %ld, "
           "multi_rhs_right_hand_sides: %ld, block_size: %d, time_per_rhs_s: ", p->rhs,
           p->single_solves, p->block_solves, p->block_rhs, p->block);
  put_num (f, p->time_per_rhs);
  fputs ("}\n", f);
  if (p->time_floor > 0.0) {
    fputs ("  floor:\n", f);
    put_key_num (f, 4, "time_s", p->time_floor);
    put_key_num (f, 4, "ratio", r->time_total / p->time_floor);
    fprintf (f, "    solves: %ld\n", p->floor_solves);
    put_key_num (f, 4, "orthogonalization_flop", p->orth_flops);
    put_key_num (f, 4, "blas3_flop_per_s", p->gemm_rate);
  }
  if (p->memory_bytes && p->nranks > 0) {
    int peak = 0;
    long sum = 0;
    fputs ("  peak_memory_bytes:\n    ranks: [", f);
    for (int k = 0; k < p->nranks; k++) {
      if (k > 0) {
        if (k % NUMS_PER_LINE == 0) fputs (",\n      ", f);
        else fputs (", ", f);
      }
      fprintf (f, "%ld", p->memory_bytes[k]);
      if (p->memory_bytes[k] > p->memory_bytes[peak]) peak = k;
      if (p->memory_bytes[k] > 0) sum += p->memory_bytes[k];
    }
    fprintf (f, "]\n    peak_rank: %d\n    max: %ld\n    sum: %ld\n", peak,
             p->memory_bytes[peak], sum);
  }
}

/* The report's heading: its kind, format version (minor: 3 with participation, 2 with a
   profile, 1 with a model block), stage, deck, title, units and problem size. */
static void put_heading (FILE *f, const eigen_result *r, const char *deck_path,
                         const char *title, const model_ctx *mc)
{
  int damped = r->stage == STAGE_COMPLEX;
  if (damped)
    fputs ("# mbmodal report: damped modes (GEP (31), shift-invert Krylov-Schur)\n", f);
  else
    fputs ("# mbmodal report: undamped modes (GEP (18), shift-invert Krylov-Schur)\n", f);
  fputs ("format: mbmodal-report\nformat_version: 1\n", f);
  if (mc && mc->pf) fputs ("format_minor: 3\n", f);  /* the participation blocks */
  else if (r->profile.done) fputs ("format_minor: 2\n", f);  /* the profile block */
  else if (mc) fputs ("format_minor: 1\n", f);
  fprintf (f, "stage: %s\n", damped ? "complex" : "modal");
  if (deck_path) {
    fputs ("deck: ", f);
    put_quoted (f, deck_path);
    fputc ('\n', f);
  }
  if (title) {
    fputs ("title: ", f);
    put_quoted (f, title);
    fputc ('\n', f);
  }
  fprintf (f, "units: {eigenvalue: %s, frequency: Hz}\n", damped ? "1/s" : "rad^2/s^2");
  fprintf (f, "problem: {dofs: %d, constraints: %d}\n", r->n, r->m);
}

/* The settings (shift, nev, subspace, tolerance, restarts, cq_scale) and the convergence
   block (with the structural bound and the exact finite count when known). */
static void put_settings (FILE *f, const eigen_result *r)
{
  fputs ("settings:\n  shift: ", f);
  if (r->stage == STAGE_COMPLEX) put_complex (f, r->shift);
  else put_num (f, creal (r->shift));
  fputc ('\n', f);
  fprintf (f, "  nev: %d\n  subspace: %d\n", r->nev, r->ncv);
  put_key_num (f, 2, "tolerance", r->tolerance);
  fprintf (f, "  max_restarts: %d\n", r->max_restarts);
  put_key_num (f, 2, "cq_scale", r->cq_scale);

  fprintf (f, "convergence:\n  converged: %s\n  restarts: %d\n  operator_applications: %d\n"
           "  converged_ritz_pairs: %d\n  infinite_filtered: %d\n",
           r->converged ? "true" : "false", r->restarts, r->op_applies, r->nconv,
           r->n_infinite);
  put_key_num (f, 2, "max_residual", r->max_residual);
  if (r->finite_max > 0)  /* the structural bound, and the request it capped */
    fprintf (f, "  finite_eigenvalues_max: %d\n  modes_asked: %d\n  modes_above_tolerance: %d\n",
             r->finite_max, r->modes_asked, r->n_above_tol);
  if (r->finite_count > 0)  /* exact: counted from ranks and all of them found */
    fprintf (f, "  finite_eigenvalues: %d\n", r->finite_count);
}

/* The factorization block: ranks, method, arithmetic, sizes, inertia, memory, MUMPS
   settings and times. */
static void put_factorization (FILE *f, const factor_stats *fs)
{
  fprintf (f, "factorization:\n  ranks: %d\n  method: %s\n  arithmetic: %s\n  order: %ld\n"
           "  entries: %ld\n  factor_entries: %ld\n", fs->ranks,
           fs->symmetric ? "LDLt" : "LU", fs->complex_arith ? "complex" : "real", fs->order,
           fs->nnz_matrix, fs->nnz_factors);
  if (fs->negative_pivots >= 0) fprintf (f, "  negative_pivots: %ld\n", fs->negative_pivots);
  put_key_num (f, 2, "memory_mb", fs->memory_mb);
  fprintf (f, "  icntl14: %d\n  retries: %d\n", fs->icntl14, fs->retries);
  if (fs->ordering >= 0 && fs->ordering <= 7 && fs->ordering != 1)
    fprintf (f, "  ordering: %s\n", factor_ordering_name (fs->ordering));
  if (fs->low_rank > 0.0) put_key_num (f, 2, "low_rank", fs->low_rank);
  put_key_num (f, 2, "time_analysis_s", fs->time_analysis);
  put_key_num (f, 2, "time_factor_s", fs->time_factor);
}

/* The missed-mode check's block: the inertia count below its shift against the modes
   found (the converged candidates in the interval when known, else the reported modes
   below it): ok when equal, missed when fewer, inconsistent when more. */
static void put_missed_check (FILE *f, const eigen_result *r)
{
  long below = 0;  /* reported modes with Re lambda below the check's shift */
  for (int i = 0; r->modes && i < r->nmodes; i++)
    if (creal (r->modes[i].lambda) < r->sturm_lambda) below++;
  /* what was found: the converged candidates in the check's interval when known (a
     cluster cut at the top by `modes` is not a miss), else the reported modes */
  long found = r->sturm_found > 0 ? r->sturm_found : below;
  const char *status = found == r->sturm_count ? "ok"
                       : found < r->sturm_count ? "missed" : "inconsistent";
  fputs ("missed_mode_check:\n", f);
  put_key_num (f, 2, "shift", r->sturm_lambda);
  fprintf (f, "  eigenvalues_below: %ld\n  modes_reported_below: %ld\n", r->sturm_count,
           below);
  if (r->sturm_found > 0) fprintf (f, "  eigenvalues_found: %ld\n", r->sturm_found);
  fprintf (f, "  status: %s\n", status);
  put_key_num (f, 2, "time_s", r->time_check);
}

/* The stage's timings in seconds, one flow mapping. */
static void put_timings (FILE *f, const eigen_result *r)
{
  fputs ("timings_s: {assemble: ", f);
  put_num (f, r->time_assemble);
  fputs (", factor: ", f);
  put_num (f, r->time_factor);
  fputs (", iterate: ", f);
  put_num (f, r->time_iterate);
  fputs (", post: ", f);
  put_num (f, r->time_post);
  fputs (", total: ", f);
  put_num (f, r->time_total);
  fputs ("}\n", f);
}

/* The whole report, keys in the documented order; mc is NULL for a matrix deck.
   Returns 0 or MB_ENOMEM.
   Blocks: put_heading, put_settings, put_factorization, put_missed_check, put_timings,
   the profile, the model, participation, then each mode. */
static int put_report (FILE *f, const eigen_result *r, const char *deck_path,
                       const char *title, int with_vectors, model_ctx *mc, mb_err *err)
{
  put_heading (f, r, deck_path, title, mc);
  put_settings (f, r);
  put_factorization (f, &r->factor);
  if (r->sturm_done) put_missed_check (f, r);
  put_timings (f, r);
  if (r->profile.done) put_profile (f, r);

  if (mc) put_model (f, mc);
  if (mc && mc->pf) participation_put_yaml (f, mc->pf);

  if (r->nmodes <= 0 || !r->modes) {
    fputs ("modes: []\n", f);
    return 0;
  }
  fputs ("modes:\n", f);
  for (int i = 0; i < r->nmodes; i++) MB_TRY (put_mode (f, r, i, with_vectors, mc, err));
  return 0;
}

/* Opens path, writes the report, checks every write and the close (writer.c). */
int report_write_yaml (const char *path, const eigen_result *r, const char *deck_path,
                       const char *title, int with_vectors, const model *mdl, mb_err *err)
{
  return report_write_yaml_with (path, r, deck_path, title, with_vectors, mdl, NULL, err);
}

/* report_write_yaml, with the participation blocks of pf when given with a model. */
int report_write_yaml_with (const char *path, const eigen_result *r, const char *deck_path,
                            const char *title, int with_vectors, const model *mdl,
                            const participation *pf, mb_err *err)
{
  if (!path || !r) return mb_fail (err, MB_EIO, "report: no path or no result to write");
  if (mdl && (mdl->nnodes < 0 || r->n != 6 * mdl->nnodes))
    return mb_fail_at (err, MB_EIO, path, 0, 0, "report: the model has %d nodes (%d DOFs) "
                       "but the result has %d DOFs", mdl->nnodes, 6 * mdl->nnodes, r->n);
  model_ctx mc;
  if (mdl) MB_TRY (model_ctx_init (&mc, mdl, err));
  if (mdl && pf && pf->nmodes == r->nmodes && r->stage == STAGE_MODAL) mc.pf = pf;
  writer w;
  int rc = writer_open (&w, path, "the report", err);
  if (rc == 0) {
    rc = put_report (w.f, r, deck_path, title, with_vectors, mdl ? &mc : NULL, err);
    if (rc == 0) rc = writer_commit (&w, err);
    else writer_abort (&w);
  }
  if (mdl) model_ctx_clear (&mc);
  return rc;
}

/* ---------------------------------------------------------------- energy lines */

/* "kinetic: a 85.1%, b 14.9%" of the first two listed items ("<0.1%" below 0.05 %), or
   "kinetic: -"; split (strain): an item whose geometric share is at least 0.05 % in
   magnitude gets it in parentheses, "wire 100.0% (geometric 99.8%)". */
static void put_pct (FILE *f, double pct)
{
  if (fabs (pct) < 0.05) fprintf (f, "%s0.1%%", pct < 0 ? ">-" : "<");
  else fprintf (f, "%.1f%%", pct);
}

static void print_top2 (FILE *f, const model_ctx *mc, const char *what,
                        const share_item *items, int count, int split)
{
  fprintf (f, "%s:", what);
  if (count == 0) fputs (" -", f);
  for (int k = 0; k < count && k < 2; k++) {
    const char *name = mc->parts[items[k].part].name;
    double pct = 100.0 * items[k].share;
    fprintf (f, "%s %s ", k ? "," : "", name ? name : "?");
    put_pct (f, pct);
    double geo = split ? 100.0 * mc->geometric[items[k].part] : 0.0;
    if (fabs (geo) >= 0.05) {
      fputs (" (geometric ", f);
      put_pct (f, geo);
      fputc (')', f);
    }
  }
}

int report_print_energy (FILE *f, const model *mdl, const eigen_result *r, mb_err *err)
{
  if (!f || !mdl || !r || !r->modes || r->n != 6 * mdl->nnodes) return 0;
  int any = 0;
  for (int i = 0; i < r->nmodes; i++) any |= r->modes[i].x != NULL;
  if (!any) return 0;
  model_ctx mc;
  MB_TRY (model_ctx_init (&mc, mdl, err));
  int rc = 0;
  fprintf (f, "%6s  %s\n", "mode", "largest shares of kinetic and strain energy (parts; "
           "a strain share's geometric part in parentheses)");
  for (int i = 0; i < r->nmodes && rc == 0; i++) {
    if (!r->modes[i].x) continue;
    rc = mode_shares (&mc, r->modes[i].x, r->modes[i].kind == MODE_RIGID, err);
    if (rc < 0) break;
    fprintf (f, "%6d  ", i + 1);
    print_top2 (f, &mc, "kinetic", mc.kin_sorted, mc.nkin, 0);
    fputs ("; ", f);
    print_top2 (f, &mc, "strain", mc.str_sorted, mc.nstr, 1);
    fputc ('\n', f);
  }
  model_ctx_clear (&mc);
  return rc;
}
