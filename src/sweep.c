/* sweep.c: a deck's sweep section: run.c's pipeline once per value, the modes tracked by
   MAC (sweep_track.c), one sweep report, CSV and a spin sweep's critical speeds. */
#include "sweep.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck/deck.h"
#include "eigen/eigen.h"
#include "linalg/factor_cache.h"
#include "linalg/sparse.h"
#include "model/state.h"
#include "report/outputs.h"
#include "report/writer.h"
#include "sweep_track.h"

#define PI 3.14159265358979323846

/* What a path sets. */
typedef enum {
  SET_BODY_MASS, SET_BODY_SPEED, SET_BODY_RPM, SET_BEAM_SPEED, SET_BEAM_RPM, SET_FORCE_K,
  SET_FORCE_C, SET_FORCE_PRELOAD, SET_FORCE_SCALE, SET_MATERIAL_E, SET_MATERIAL_RHO,
  SET_MASS_MASS
} set_kind;

/* One resolved path: the kind and the object's index in its deck array. */
typedef struct target {
  set_kind kind;
  int index;
} target;

/* One mode of one step in the report (rank 0). */
typedef struct entry {
  int track;
  double freq_hz;      /* modal: natural frequency; complex: Im lambda / 2 pi */
  double zeta;         /* damping ratio (0 in the modal stage) */
  double mac;          /* to the previous step; -1: a new track */
  int whirl;           /* +1 forward, -1 backward, 0 not said */
} entry;

typedef struct step_rec {
  double value;
  int nentries;
  entry *entries;
  int nlost;
  int *lost;           /* tracks that found no partner at this step */
  int analysis[2];     /* the modal [0] and complex [1] stages' first factorization: 0 none,
                          1 analysed anew, 2 on the last step's analysis (factor_cache) */
} step_rec;

/* The sweep: settings (every rank), the tracker and the steps (rank 0). */
typedef struct sweep {
  const deck_sweep *s;        /* borrowed from the parsed deck */
  target tg[DECK_SWEEP_MAX_PATHS];
  double value;               /* the step's value */
  int complex_stage;          /* the tracked stage: 1 complex, 0 modal */
  int spin;                   /* 1: the first path is a spin speed (Campbell) */
  double to_rad_s;            /* the value times this: the spin speed [rad/s] */
  tracker tr;
  int ndone;
  step_rec *steps;
  int failed;                 /* rank 0: the tracker could not store a step */
  model_state eq;             /* rank 0: the last step's static equilibrium (nnodes 0:
                                 none yet) */
  int warm;                   /* rank 0: steps whose static stage started from it */
  factor_cache fc[2];         /* every rank: the modal [0] and complex [1] stages' factors,
                                 kept between steps (run_hook.factor_cache) */
} sweep;

/* The target of a path's group ("bodies", "beams", "forces", "materials", "masses": glen
   characters of path), object name (nlen characters) and key, spin: the key follows
   ".spin". t->kind is set from the key and *found to the index of the deck's object
   of that name (-1: none). Returns the object's word ("body", ...), "" for a key the
   group does not sweep, or NULL for a group a sweep does not set. */
static const char *match_path (const deck_model *m, const char *path, size_t glen,
                               const char *name, size_t nlen, const char *key, int spin,
                               target *t, int *found)
{
#define FIND(arr, count) \
  for (int i = 0; i < (count); i++) \
    if (strlen ((arr)[i].name) == nlen && !strncmp ((arr)[i].name, name, nlen)) *found = i;
  const char *what = NULL;
  if (glen == 6 && !strncmp (path, "bodies", 6)) {
    FIND (m->bodies, m->nbodies);
    what = "body";
    if (!spin && !strcmp (key, "mass")) t->kind = SET_BODY_MASS;
    else if (spin && !strcmp (key, "speed")) t->kind = SET_BODY_SPEED;
    else if (spin && !strcmp (key, "rpm")) t->kind = SET_BODY_RPM;
    else what = "";
  } else if (glen == 5 && !strncmp (path, "beams", 5)) {
    FIND (m->beams, m->nbeams);
    what = "beam";
    if (spin && !strcmp (key, "speed")) t->kind = SET_BEAM_SPEED;
    else if (spin && !strcmp (key, "rpm")) t->kind = SET_BEAM_RPM;
    else what = "";
  } else if (glen == 6 && !strncmp (path, "forces", 6) && !spin) {
    FIND (m->forces, m->nforces);
    what = "force";
    if (!strcmp (key, "k")) t->kind = SET_FORCE_K;
    else if (!strcmp (key, "c")) t->kind = SET_FORCE_C;
    else if (!strcmp (key, "preload")) t->kind = SET_FORCE_PRELOAD;
    else if (!strcmp (key, "scale")) t->kind = SET_FORCE_SCALE;
    else what = "";
  } else if (glen == 9 && !strncmp (path, "materials", 9) && !spin) {
    FIND (m->materials, m->nmaterials);
    what = "material";
    if (!strcmp (key, "E")) t->kind = SET_MATERIAL_E;
    else if (!strcmp (key, "rho")) t->kind = SET_MATERIAL_RHO;
    else what = "";
  } else if (glen == 6 && !strncmp (path, "masses", 6) && !spin) {
    FIND (m->masses, m->nmasses);
    what = "mass";
    if (!strcmp (key, "mass")) t->kind = SET_MASS_MASS;
    else what = "";
  }
#undef FIND
  return what;
}

/* The range, in words, that value x at the resolved target t (object t->index of m) is
   outside, or NULL when x may be set there: masses and stiffnesses not negative, a mass
   of 0 only without inertia, E and a point mass > 0, a spin only where the deck gives
   one, k, c, preload on springs, scale on loads. */
static const char *value_need (const deck_model *m, const target *t, double x)
{
  const char *need = NULL;
  int found = t->index;
  switch (t->kind) {
  case SET_BODY_MASS:
    if (x < 0) need = ">= 0";
    else if (x == 0) {
      for (int k = 0; k < 9; k++)
        if (m->bodies[found].J[k] != 0) need = "> 0 (the body has inertia)";
    }
    break;
  case SET_BODY_SPEED: case SET_BODY_RPM:
    if (!m->bodies[found].spin.given) need = "given a spin key in the body";
    break;
  case SET_BEAM_SPEED: case SET_BEAM_RPM:
    if (!m->beams[found].spin.given) need = "given a spin key in the beam";
    break;
  case SET_FORCE_K: case SET_FORCE_C: case SET_FORCE_PRELOAD: {
    force_type ft = m->forces[found].type;
    if (ft != FORCE_SPRING && ft != FORCE_ROTATIONAL_SPRING)
      need = "set on a spring or rotational spring";
    else if (t->kind != SET_FORCE_PRELOAD && x < 0) need = ">= 0";
    break;
  }
  case SET_FORCE_SCALE: {
    force_type ft = m->forces[found].type;
    if (ft != FORCE_POINT && ft != FORCE_TORQUE) need = "set on a force or torque load";
    break;
  }
  case SET_MATERIAL_E: if (x <= 0) need = "> 0"; break;
  case SET_MATERIAL_RHO: case SET_MASS_MASS:
    if (x < 0 || (t->kind == SET_MASS_MASS && x == 0)) need = t->kind == SET_MASS_MASS
                                                           ? "> 0" : ">= 0";
    break;
  }
  return need;
}

/* Resolves one path "GROUP.NAME.KEY" (spin: "GROUP.NAME.spin.speed" or ".rpm") against the
   parsed deck into *t (match_path), and checks every sweep value against the key's range
   (value_need). MB_EDECK at the path's position with what is wrong. */
static int resolve (const deck *d, const deck_sweep *s, int p, target *t, mb_err *err)
{
  const char *path = s->path[p];
  deck_pos pos = s->pos_path[p];
  const deck_model *m = &d->model;
  const char *dot1 = strchr (path, '.');
  const char *last = strrchr (path, '.');
  if (!dot1 || last == dot1)
    return mb_fail_at (err, MB_EDECK, d->path, pos.line, pos.col, "sweep: parameter '%s' "
                       "must be GROUP.NAME.KEY, such as forces.mount.k or bodies.tip.mass",
                       path);
  const char *key = last + 1;
  size_t glen = (size_t) (dot1 - path);
  const char *name = dot1 + 1;
  size_t nlen = (size_t) (last - name);
  int spin = 0;
  if (nlen > 5 && !strncmp (last - 5, ".spin", 5)) spin = 1, nlen -= 5;
  int found = -1;
  const char *what = match_path (m, path, glen, name, nlen, key, spin, t, &found);
  if (!what || !what[0])
    return mb_fail_at (err, MB_EDECK, d->path, pos.line, pos.col, "sweep: parameter '%s' "
                       "names no value a sweep sets: bodies.NAME.mass, bodies.NAME.spin.speed "
                       "(or .rpm), beams.NAME.spin.speed (or .rpm), forces.NAME.k, .c, "
                       ".preload, .scale, materials.NAME.E, .rho, masses.NAME.mass", path);
  if (found < 0)
    return mb_fail_at (err, MB_EDECK, d->path, pos.line, pos.col, "sweep: parameter '%s': "
                       "the deck has no %s named '%.*s'", path, what, (int) nlen, name);
  t->index = found;
  for (int v = 0; v < s->nvalues; v++) {
    double x = s->values[v];
    const char *need = value_need (m, t, x);  /* the range every value must be in */
    if (need)
      return mb_fail_at (err, MB_EDECK, d->path, s->pos_values.line, s->pos_values.col,
                         "sweep: value %g of '%s' must be %s", x, path, need);
  }
  return 0;
}

/* Every rank: sets the step's value at target t of a freshly parsed deck d (the same
   text as the one resolved). A material's G follows E (nu kept); a load's scale multiplies
   the deck's value; a non-zero spin speed marks the model damped, as the parser does. */
static void set_value (deck *d, const target *t, double x)
{
  deck_model *m = &d->model;
  switch (t->kind) {
  case SET_BODY_MASS: m->bodies[t->index].mass = x; break;
  case SET_BODY_SPEED: m->bodies[t->index].spin.speed = x; break;
  case SET_BODY_RPM: m->bodies[t->index].spin.speed = x * 2 * PI / 60; break;
  case SET_BEAM_SPEED: m->beams[t->index].spin.speed = x; break;
  case SET_BEAM_RPM: m->beams[t->index].spin.speed = x * 2 * PI / 60; break;
  case SET_FORCE_K: m->forces[t->index].k = x; break;
  case SET_FORCE_C: m->forces[t->index].c = x; break;
  case SET_FORCE_PRELOAD: m->forces[t->index].preload = x; break;
  case SET_FORCE_SCALE:
    for (int k = 0; k < 3; k++) m->forces[t->index].value[k] *= x;
    break;
  case SET_MATERIAL_E: {
    deck_material *mt = &m->materials[t->index];
    mt->G *= x / mt->E;
    mt->E = x;
    break;
  }
  case SET_MATERIAL_RHO: m->materials[t->index].rho = x; break;
  case SET_MASS_MASS: m->masses[t->index].mass = x; break;
  }
  if ((t->kind == SET_BODY_SPEED || t->kind == SET_BODY_RPM || t->kind == SET_BEAM_SPEED
       || t->kind == SET_BEAM_RPM || t->kind == SET_FORCE_C) && x != 0)
    m->has_damping = 1;
}

/* run_hook.edit: the step's value at every path; no VTK and no export in a step */
static int edit_hook (void *ctx, deck *d, mb_err *err)
{
  sweep *w = ctx;
  (void) err;
  for (int p = 0; p < w->s->npaths; p++) set_value (d, &w->tg[p], w->value);
  d->output.vtk = 0;
  free (d->output.export_matrices);
  d->output.export_matrices = NULL;
  return 0;
}

/* run_hook.stage (rank 0): the tracked stage's modes matched to the tracks (tracker_step)
   and stored as the step's entries; the other stage is ignored. A mode without its vector
   cannot be tracked: the step then fails (w->failed). */
static void stage_hook (void *ctx, int complex_stage, const eigen_result *res, const spm *M)
{
  sweep *w = ctx;
  if (complex_stage != w->complex_stage || w->failed) return;
  int nm = res->nmodes, n = res->n;
  step_rec *st = &w->steps[w->ndone];
  double complex *lam = malloc ((size_t) (nm + 1) * sizeof *lam);
  double complex *x = malloc (((size_t) nm * n + 1) * sizeof *x);
  int *rigid = malloc ((size_t) (4 * nm + w->tr.nactive + 1) * sizeof *rigid);
  double *mac = malloc ((size_t) (nm + 1) * sizeof *mac);
  st->entries = calloc ((size_t) nm + 1, sizeof *st->entries);
  st->lost = malloc ((size_t) (w->tr.nactive + 1) * sizeof *st->lost);
  int ok = lam && x && rigid && mac && st->entries && st->lost;
  for (int i = 0; ok && i < nm; i++) {
    const mode *md = &res->modes[i];
    if (!md->x) ok = 0;
    else {
      lam[i] = md->lambda;
      rigid[i] = md->kind == MODE_RIGID;
      memcpy (x + (size_t) i * n, md->x, (size_t) n * sizeof *x);
    }
  }
  int *trk = rigid + nm, *newt = trk + nm;
  track_modes tm = { .n = n, .nmodes = nm, .lambda = lam, .rigid = rigid, .x = x };
  track_step ts = { .track = trk, .mac = mac, .newt = newt, .lost = st->lost };
  if (ok && tracker_step (&w->tr, &tm, M, &ts) == 0) {
    for (int i = 0; i < nm; i++) {
      const mode *md = &res->modes[i];
      entry *e = &st->entries[i];
      e->track = trk[i];
      e->freq_hz = complex_stage ? md->damped_freq_hz : md->freq_hz;
      e->zeta = complex_stage ? md->zeta : 0;
      e->mac = newt[i] ? -1 : mac[i];
      e->whirl = md->whirl;
    }
    st->nentries = nm;
    st->nlost = ts.nlost;
  } else w->failed = 1;
  free (lam), free (x), free (rigid), free (mac);
}

/* run_hook.statics_start (rank 0): the step's static stage starts from the last step's
   equilibrium when there is one of the same model (sizes checked) */
static void statics_start_hook (void *ctx, model_state *s)
{
  sweep *w = ctx;
  if (w->eq.nnodes > 0 && w->eq.nnodes == s->nnodes && w->eq.m == s->m
      && w->eq.nforces == s->nforces) {
    model_state_assign (s, &w->eq);
    w->warm++;
  }
}

/* run_hook.statics_done (rank 0): keeps the step's equilibrium for the next step (none
   when out of memory: the next step starts from the deck configuration) */
static void statics_done_hook (void *ctx, const model_state *s)
{
  sweep *w = ctx;
  mb_err e;
  mb_err_init (&e);
  model_state_clear (&w->eq);
  if (model_state_copy (s, &w->eq, &e) < 0) model_state_clear (&w->eq);
}

static const char *whirl_word (int w)
{
  return w > 0 ? "forward" : w < 0 ? "backward" : NULL;
}

/* The entry of track id in step s, or NULL */
static const entry *find_entry (const step_rec *s, int id)
{
  for (int i = 0; i < s->nentries; i++)
    if (s->entries[i].track == id) return &s->entries[i];
  return NULL;
}

/* A critical speed: where track's frequency meets order x the spin frequency */
typedef struct critical {
  double order, speed;  /* [rad/s] */
  double freq_hz;
  int track, whirl;
} critical;

/* Rank 0, spin sweep: the critical speeds. For each order k and each track present (and
   matched, not new) at two consecutive steps a, b, g = f - k |Omega| / 2 pi changes sign
   (g_a != 0, g_b of the other sign or 0): Omega* = Omega_a + (Omega_b - Omega_a) g_a /
   (g_a - g_b), linear between the steps; its frequency k |Omega*| / 2 pi. Returns the
   count (into *out, caller frees), or -1 when out of memory. */
static int critical_speeds (const sweep *w, critical **out)
{
  int cap = 16, nc = 0;
  critical *c = malloc ((size_t) cap * sizeof *c);
  if (!c) return -1;
  for (int o = 0; o < w->s->norders; o++)
    for (int st = 1; st < w->ndone; st++) {
      const step_rec *a = &w->steps[st - 1], *b = &w->steps[st];
      double oa = a->value * w->to_rad_s, ob = b->value * w->to_rad_s;
      double k = w->s->orders[o];
      for (int i = 0; i < b->nentries; i++) {
        const entry *eb = &b->entries[i], *ea = find_entry (a, eb->track);
        if (!ea || eb->mac < 0) continue;
        double ga = ea->freq_hz - k * fabs (oa) / (2 * PI);
        double gb = eb->freq_hz - k * fabs (ob) / (2 * PI);
        if (ga == 0 || (ga > 0 && gb > 0) || (ga < 0 && gb < 0)) continue;
        if (nc == cap) {
          critical *g = realloc (c, (size_t) (cap *= 2) * sizeof *c);
          if (!g) return free (c), -1;
          c = g;
        }
        double sp = oa + (ob - oa) * ga / (ga - gb);
        c[nc++] = (critical) { .order = k, .speed = sp, .freq_hz = k * fabs (sp) / (2 * PI),
                               .track = eb->track, .whirl = eb->whirl ? eb->whirl : ea->whirl };
      }
    }
  *out = c;
  return nc;
}

/* Rank 0, write_report: the sweep's settings and status (the sweep: mapping) to f. */
static void put_settings (FILE *f, const sweep *w, const deck *d, int total, int step_rc)
{
  fprintf (f, "# mbmodal sweep report: the modes tracked by MAC over the sweep's values\n");
  fprintf (f, "format: mbmodal-report\nsweep:\n  deck: ");
  writer_put_quoted (f, d->path, NULL);
  fprintf (f, "\n  title: ");
  writer_put_quoted (f, d->title, NULL);
  fprintf (f, "\n  parameter: [");
  for (int p = 0; p < w->s->npaths; p++) {
    if (p) fprintf (f, ", ");
    writer_put_quoted (f, w->s->path[p], NULL);
  }
  fprintf (f, "]\n  stage: %s\n", w->complex_stage ? "complex" : "modal");
  fprintf (f, "  mac: mass-weighted (|u^H M v|^2 / (u^H M u v^H M v)); subspace MAC within "
           "clusters of eigenvalues closer than %g relative\n", TRACK_CLUSTER_RTOL);
  fprintf (f, "  mac_min: ");
  writer_put_real (f, w->s->mac_min, WRITER_YAML);
  fprintf (f, "\n  steps: %d\n  steps_done: %d\n", total, w->ndone);
  if (step_rc == 0) fprintf (f, "  status: complete\n");
  else fprintf (f, "  status: \"step %d failed (exit %d)\"\n", w->ndone + 1,
                mb_exit_status (step_rc));
  if (d->statics.present)  /* steps after the first start from the last equilibrium */
    fprintf (f, "  statics_warm_starts: %d\n", w->warm);
  fprintf (f, "  spin: %s\n", w->spin ? "true" : "false");
  if (w->spin) {
    fprintf (f, "  spin_speed_per_value: ");  /* rad/s per unit of the value */
    writer_put_real (f, w->to_rad_s, WRITER_YAML);
    fprintf (f, "\n  orders: [");
    for (int o = 0; o < w->s->norders; o++) {
      if (o) fprintf (f, ", ");
      writer_put_real (f, w->s->orders[o], WRITER_YAML);
    }
    fprintf (f, "]\n");
  }
}

/* Rank 0, write_report: step st (s) to f: its value, each tracked mode (track,
   frequency, damping ratio, MAC to the previous step or null, new, whirl), the stages
   that factored (analysis_reused) and the tracks lost at this step. */
static void put_step (FILE *f, int st, const step_rec *s)
{
  fprintf (f, "  - step: %d\n    value: ", st + 1);
  writer_put_real (f, s->value, WRITER_YAML);
  fprintf (f, "\n    modes:\n");
  for (int i = 0; i < s->nentries; i++) {
    const entry *e = &s->entries[i];
    fprintf (f, "      - {track: %d, frequency_hz: ", e->track);
    writer_put_real (f, e->freq_hz, WRITER_YAML);
    fprintf (f, ", damping_ratio: ");
    writer_put_real (f, e->zeta, WRITER_YAML);
    fprintf (f, ", mac: ");
    if (e->mac < 0) fprintf (f, "null");
    else writer_put_real (f, e->mac, WRITER_YAML);
    if (st > 0 && e->mac < 0) fprintf (f, ", new: true");
    if (whirl_word (e->whirl)) fprintf (f, ", whirl: %s", whirl_word (e->whirl));
    fprintf (f, "}\n");
  }
  if (s->analysis[0] || s->analysis[1]) {  /* the stages that factored */
    fprintf (f, "    analysis_reused: {");
    const char *sep = "";
    for (int c = 0; c < 2; c++)
      if (s->analysis[c]) {
        fprintf (f, "%s%s: %s", sep, c ? "complex" : "modal",
                 s->analysis[c] == 2 ? "true" : "false");
        sep = ", ";
      }
    fprintf (f, "}\n");
  }
  if (s->nlost > 0) {
    fprintf (f, "    lost: [");
    for (int k = 0; k < s->nlost; k++) fprintf (f, "%s%d", k ? ", " : "", s->lost[k]);
    fprintf (f, "]\n");
  }
}

/* Rank 0, write_report, spin sweep: the critical speeds (critical_speeds) to f: order,
   track, speed in rad/s and rpm, frequency, whirl. Returns 0, or -1 when out of memory
   (nothing written). */
static int put_critical (FILE *f, const sweep *w)
{
  critical *c = NULL;
  int nc = critical_speeds (w, &c);
  if (nc < 0) return -1;
  fprintf (f, "critical_speeds:%s\n", nc ? "" : " []");
  for (int i = 0; i < nc; i++) {
    fprintf (f, "  - {order: ");
    writer_put_real (f, c[i].order, WRITER_YAML);
    fprintf (f, ", track: %d, speed_rad_s: ", c[i].track);
    writer_put_real (f, c[i].speed, WRITER_YAML);
    fprintf (f, ", rpm: ");
    writer_put_real (f, c[i].speed * 60 / (2 * PI), WRITER_YAML);
    fprintf (f, ", frequency_hz: ");
    writer_put_real (f, c[i].freq_hz, WRITER_YAML);
    if (whirl_word (c[i].whirl)) fprintf (f, ", whirl: %s", whirl_word (c[i].whirl));
    fprintf (f, "}\n");
  }
  free (c);
  return 0;
}

/* Rank 0: the sweep report (YAML) at path: the settings, the status, every step done
   with its tracked modes, and a spin sweep's critical speeds. */
static int write_report (const sweep *w, const deck *d, const char *path, int total,
                         int step_rc, mb_err *err)
{
  writer wr;
  MB_TRY (writer_open (&wr, path, "the sweep report", err));
  FILE *f = wr.f;
  put_settings (f, w, d, total, step_rc);
  fprintf (f, "steps:\n");
  for (int st = 0; st < w->ndone; st++) put_step (f, st, &w->steps[st]);
  if (w->spin && put_critical (f, w) < 0) {
    writer_abort (&wr);
    return mb_fail (err, MB_ENOMEM, "out of memory for the critical speeds");
  }
  return writer_commit (&wr, err);
}

/* Rank 0: the tracked modes as CSV at path: step, value, track, frequency_hz,
   damping_ratio, mac (empty for a new track), whirl (empty when not said). */
static int write_csv (const sweep *w, const char *path, mb_err *err)
{
  writer wr;
  MB_TRY (writer_open (&wr, path, "the sweep table", err));
  fprintf (wr.f, "step,value,track,frequency_hz,damping_ratio,mac,whirl\n");
  for (int st = 0; st < w->ndone; st++)
    for (int i = 0; i < w->steps[st].nentries; i++) {
      const entry *e = &w->steps[st].entries[i];
      char v[WRITER_NUM_LEN], fr[WRITER_NUM_LEN], z[WRITER_NUM_LEN], m[WRITER_NUM_LEN] = "";
      writer_format_real (v, w->steps[st].value, WRITER_SHORTEST);
      writer_format_real (fr, e->freq_hz, WRITER_SHORTEST);
      writer_format_real (z, e->zeta, WRITER_SHORTEST);
      if (e->mac >= 0) writer_format_real (m, e->mac, WRITER_SHORTEST);
      fprintf (wr.f, "%d,%s,%d,%s,%s,%s,%s\n", st + 1, v, e->track, fr, z, m,
               whirl_word (e->whirl) ? whirl_word (e->whirl) : "");
    }
  return writer_commit (&wr, err);
}

/* Rank 0 records (and with log, the -v log, says) how step st's eigen stages factored
   A - sigma B the first time: on the last step's MUMPS analysis (the pattern unchanged:
   only the numerical factorization ran) or analysed anew; fell back: a refactorization
   failed and the step factored anew. Stages that did not factor are left out. */
static void analysis_note (sweep *w, int st, FILE *log)
{
  static const char *const label[2] = { "modal", "complex" };
  for (int c = 0; c < 2; c++) {
    const factor_cache *fc = &w->fc[c];
    int a = fc->used ? (fc->first_reused ? 2 : 1) : 0;
    if (w->steps) w->steps[st].analysis[c] = a;
    if (log && a)
      fprintf (log, "sweep: step %d: %s stage: %s%s\n", st + 1, label[c],
               a == 2 ? "MUMPS analysis reused (the pattern of A - sigma B is unchanged: "
                        "numerical factorization only)"
                      : "A - sigma B analysed and factored anew",
               fc->fell_back ? " (a refactorization failed: factored anew)" : "");
  }
  if (log) fflush (log);
}

/* Collective: the deck read and parsed on every rank (as run.c does) */
static int parse_deck (MPI_Comm comm, const char *path, deck *d, mb_err *err)
{
  char *text = NULL;
  long len = 0;
  int rc = deck_read_shared (comm, path, &text, &len, err);
  if (rc == 0) rc = deck_parse (text, (size_t) len, path, d, err);
  free (text);
  return mb_agree (comm, rc, err);
}

/* Collective. The sweep w of the deck at o->deck_path (parsed into d): every path resolved,
   the tracked stage (complex when enabled), a spin sweep's rad/s per value (rpm: 2 pi /
   60), MAC threshold; a spin sweep needs the complex stage and some eigen stage must be on
   (MB_EDECK at the sweep's position); rank 0's steps allocated. Returns 0 or an error,
   the same on every rank. */
static int sweep_setup (MPI_Comm comm, const run_opts *o, deck *d, sweep *w, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int rc = parse_deck (comm, o->deck_path, d, err);
  w->s = &d->sweep;
  for (int p = 0; rc == 0 && p < d->sweep.npaths; p++)
    rc = resolve (d, &d->sweep, p, &w->tg[p], err);
  if (rc == 0) {
    w->complex_stage = d->damped.enabled;
    set_kind k0 = w->tg[0].kind;
    w->spin = k0 == SET_BODY_SPEED || k0 == SET_BODY_RPM || k0 == SET_BEAM_SPEED
              || k0 == SET_BEAM_RPM;
    w->to_rad_s = k0 == SET_BODY_RPM || k0 == SET_BEAM_RPM ? 2 * PI / 60 : 1;
    w->tr.mac_min = d->sweep.mac_min;
    if (w->spin && !d->damped.enabled)
      rc = mb_fail_at (err, MB_EDECK, d->path, d->sweep.pos_path[0].line,
                       d->sweep.pos_path[0].col, "sweep: a spin speed sweep tracks the "
                       "complex stage (the gyroscopic matrix is in its damping part); "
                       "the deck leaves it off: give 'complex: {enabled: true}'");
    else if (!d->modal.enabled && !d->damped.enabled)
      rc = mb_fail_at (err, MB_EDECK, d->path, d->sweep.pos.line, d->sweep.pos.col,
                       "sweep: no eigen stage is enabled, so there are no modes to track");
  }
  if (rc == 0 && rank == 0 && !(w->steps = calloc ((size_t) d->sweep.nvalues, sizeof *w->steps)))
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the sweep's steps");
  return mb_agree (comm, rc, err);
}

/* Collective. The folder of the steps' own outputs, OUTDIR/NAME.sweep, into *stepsdir
   (new; the caller frees). Returns 0 or MB_ENOMEM, the same on every rank. */
static int steps_dir (MPI_Comm comm, const deck *d, const char *outdir, char **stepsdir,
                      mb_err *err)
{
  int rc = 0;
  size_t len = strlen (d->output.name) + 8;
  char *base = malloc (len);
  if (base) snprintf (base, len, "%s.sweep", d->output.name);
  *stepsdir = base ? writer_join (outdir, base) : NULL;
  free (base);
  if (!*stepsdir) rc = mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  return mb_agree (comm, rc, err);
}

/* Collective. Step st of the sweep: run.c's pipeline (run_deck) on the deck with the
   step's value at every path (edit_hook), outputs in STEPSDIR/step-NNN (made by rank 0),
   no vectors, no export, quiet but for the step's heading; the factor caches stepped;
   the tracker's failure (rank 0's) fails the step. Rank 0 records the step's value and
   analysis; w->ndone counts it when it succeeds. Returns 0 or the step's error, the same
   on every rank. */
static int sweep_step (MPI_Comm comm, const run_opts *o, const deck *d, sweep *w, int st,
                       const char *stepsdir, run_hook *hook, FILE *log, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  char dir[4096];
  w->value = d->sweep.values[st];
  snprintf (dir, sizeof dir, "%s/step-%03d", stepsdir, st + 1);
  run_opts so = *o;
  so.output_dir = dir;
  so.export_dir = NULL;
  so.quiet = 1;
  so.no_vectors = 1;
  so.hook = hook;
  if (rank == 0) {  /* also with -q: the heading of the step's tables */
    printf ("\nsweep: step %d of %d: %s = %g\n", st + 1, d->sweep.nvalues,
            d->sweep.path[0], w->value);
    fflush (stdout);
  }
  int r = rank == 0 ? writer_make_dirs (dir, err) : 0;
  int step_rc = mb_agree (comm, r, err);
  factor_cache_step (&w->fc[0]);
  factor_cache_step (&w->fc[1]);
  if (step_rc == 0) step_rc = run_deck (comm, &so, err);
  analysis_note (w, st, o->verbose ? log : NULL);
  int failed = rank == 0 ? w->failed : 0;
  MPI_Bcast (&failed, 1, MPI_INT, 0, comm);
  if (step_rc == 0 && failed) {
    step_rc = MB_ENOMEM;
    mb_fail (err, MB_ENOMEM, "sweep: step %d: the modes could not be tracked (out of "
             "memory, or a mode without its vector)", st + 1);
    if (rank == 0) mb_err_print (err);
  }
  if (rank == 0 && w->steps) w->steps[st].value = w->value;
  if (step_rc == 0) w->ndone++;
  else if (rank == 0)
    fprintf (stderr, "mbmodal: sweep: step %d of %d (%s = %g) failed; the sweep report "
             "holds the %d step%s done\n", st + 1, d->sweep.nvalues, d->sweep.path[0],
             w->value, w->ndone, w->ndone == 1 ? "" : "s");
  return step_rc;
}

/* Collective. The sweep report and table, also after a failed step (step_rc: the steps
   done), written by rank 0 into outdir (write_report, write_csv; the plot when the deck
   asks), with a line to log. Returns 0 or the write's error (in *werr), the same on every
   rank. */
static int sweep_write (MPI_Comm comm, const deck *d, const sweep *w, const char *outdir,
                        const char *stepsdir, int step_rc, FILE *log, mb_err *werr)
{
  int rank, wrc = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0) {
    char *yaml = outputs_path (outdir, d->output.name, "sweep", "yaml");
    char *csv = outputs_path (outdir, d->output.name, "sweep", "csv");
    wrc = yaml && csv ? write_report (w, d, yaml, d->sweep.nvalues, step_rc, werr)
                      : mb_fail (werr, MB_ENOMEM, "out of memory for a file name");
    if (wrc == 0) wrc = write_csv (w, csv, werr);
    if (wrc == 0 && log)
      fprintf (log, "\nsweep: %d of %d steps done; report written to %s, table to %s "
               "(steps' own reports in %s/)\n", w->ndone, d->sweep.nvalues, yaml, csv, stepsdir);
    if (wrc == 0 && d->output.plots) run_plot (outdir, d->output.name, "sweep", log);
    if (wrc < 0) mb_err_print (werr);
    free (yaml);
    free (csv);
  }
  return mb_agree (comm, wrc, werr);
}

/* Collective. Frees the steps (rank 0's), the tracker, the last equilibrium and the factor
   caches (collective) of w, of nvalues steps. */
static void sweep_clear (sweep *w, int nvalues)
{
  for (int st = 0; w->steps && st < nvalues; st++) {
    free (w->steps[st].entries);
    free (w->steps[st].lost);
  }
  free (w->steps);
  tracker_clear (&w->tr);
  model_state_clear (&w->eq);
  factor_cache_clear (&w->fc[0]);  /* collective */
  factor_cache_clear (&w->fc[1]);
}

/* Collective; see sweep.h. Set up (sweep_setup, steps_dir), each value's step in turn
   until one fails (sweep_step), then the report of the steps done (sweep_write). Owns
   the parsed deck, the sweep's state and the steps' folder name. */
int sweep_run (MPI_Comm comm, const run_opts *o, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  FILE *log = rank == 0 && !o->quiet ? stdout : NULL;
  deck d;
  memset (&d, 0, sizeof d);
  sweep w;
  memset (&w, 0, sizeof w);
  int rc = sweep_setup (comm, o, &d, &w, err);
  const char *outdir = o->output_dir ? o->output_dir : d.output.directory;
  char *stepsdir = NULL;
  if (rc == 0) rc = steps_dir (comm, &d, outdir, &stepsdir, err);
  if (rc < 0) {
    if (rank == 0) mb_err_print (err);
    free (stepsdir);
    free (w.steps);
    deck_clear (&d);
    return rc;
  }
  if (log) {
    fprintf (log, "mbmodal %s: deck %s: sweep of %d value%s of %s%s%s, tracking the %s "
             "stage's modes by MAC\n", o->version, o->deck_path, d.sweep.nvalues,
             d.sweep.nvalues == 1 ? "" : "s", d.sweep.path[0], d.sweep.npaths > 1 ? " and " : "",
             d.sweep.npaths > 1 ? d.sweep.path[1] : "", w.complex_stage ? "complex" : "modal");
    fflush (log);
  }
  run_hook hook = { .ctx = &w, .edit = edit_hook, .stage = stage_hook,
                    .statics_start = statics_start_hook, .statics_done = statics_done_hook,
                    .factor_cache = { &w.fc[0], &w.fc[1] } };
  int step_rc = 0;
  for (int st = 0; st < d.sweep.nvalues && step_rc == 0; st++)
    step_rc = sweep_step (comm, o, &d, &w, st, stepsdir, &hook, log, err);
  /* the report, also after a failed step: the steps done */
  mb_err werr;
  mb_err_init (&werr);
  int wrc = sweep_write (comm, &d, &w, outdir, stepsdir, step_rc, log, &werr);
  if (step_rc == 0 && wrc < 0) *err = werr, step_rc = wrc;
  sweep_clear (&w, d.sweep.nvalues);
  free (stepsdir);
  deck_clear (&d);
  return step_rc;
}
