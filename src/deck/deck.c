/* deck.c: YAML deck text -> deck struct, every key, type and range checked.

   Accepted schema (YAML 1.1 read by libyaml's document API; keys are case-sensitive;
   unknown keys, duplicate keys and more than one YAML document are errors):

     deck     := { title?: text, units?: SI, gravity?: vec3, materials?, sections?, bodies?,
                   beams?, joints?, forces?, matrices?: matrices, modal?: stage,
                   complex?: stage, output?: output,
                   statics?: statics (model decks only; schema in deck_statics.c),
                   solver?: solver (schema in deck_solver.c),
                   buckling?: buckling (model decks only; schema in deck_buckling.c),
                   frf?: frf (schema in deck_frf.c),
                   sweep?: sweep (model decks only; schema in deck_sweep.c) }
                 A deck is either a matrix deck (matrices given) or a model deck (any of
                 units, gravity, materials, sections, bodies, beams, joints, forces given);
                 not both, not neither. A model deck needs 'units: SI' and at least one
                 body or beam. The model keys are read by deck_model.c, whose top comment
                 holds their schema.
     matrices := { K: path, M: path, R?: path, Cq?: path }
     stage    := { enabled?: bool, modes?: int in 1 .. 1000000, target_frequency?: real >= 0
                   [Hz], shift?: sigma, tolerance?: real in (0, 1e-2], max_restarts?: int
                   >= 1, subspace?: 0 | int in modes + 2 .. 4000000 }
                 sigma = real [rad^2/s^2] in modal, [real [1/s], real [rad/s]] in complex;
                 shift and target_frequency exclude each other. The shift they give must
                 be finite: modal (2 pi f)^2 (f <= 2.13e153 Hz), complex i 2 pi f and the
                 modulus of [Re, Im]. The caps on modes and subspace (DECK_MAX_MODES,
                 DECK_MAX_SUBSPACE in deck.h) keep the eigen stages' counts (modes +
                 modes/10, 2 modes, 2 nev, ncv + 2) far inside int; max_restarts is only
                 compared, so any int >= 1 is safe.
     output   := { directory?: text, name?: text without '/', eigenvectors?: bool,
                   export_matrices?: text, vtk?: bool,
                   reference_point?: vec3 [m] (model decks only), csv?: bool,
                   plots?: bool }
     (the complex section fills deck.damped)

     text = any non-empty scalar (title may be empty); path = text, resolved against the
     deck's folder unless it starts with '/'; bool = plain true/false/yes/no/on/off (any
     case); int = plain [+-]?[0-9]+ within C int; real = plain scalar of [0-9+-.eE] that
     strtod reads completely, of any length (a 90-digit literal is its number; a literal
     below the smallest double reads as 0 or a subnormal), and that is finite (.inf/.nan
     rejected, 1e999 "out of range (overflow)"); a section whose value is empty
     (`modal:`) takes its defaults, except matrices.

   Defaults: modal enabled; complex enabled iff matrices.R is given (matrix deck) or the
   model has damping or spin (model deck: deck_model.has_damping); modes 10, tolerance 1e-10,
   max_restarts 300, subspace 0 (automatic); output directory ".", name = deck file name
   without .yaml/.yml, eigenvectors true, export_matrices none, vtk true, csv false, plots true. directory and
   export_matrices are kept as written (relative to the current directory).

   Errors: "path:line:col: message" through mb_fail_at, at the offending node: the key for
   unknown/duplicate keys and empty values, the value for bad values, the mapping for a
   missing required key. YAML syntax errors come from parser.problem / problem_mark.

   Layout of src/deck: this file holds the root schema, the matrices, stage and output
   sections and the document load; deck_model.c the model sections; deck_yaml.c the YAML
   helpers both use (deck_walk and the scalar readers); deck_read.c the file's bytes
   (rank 0 reads, every rank receives; the only file of src/deck that uses MPI). deck.c
   calls deck_model.c's section readers (deck_model.h); deck_model.c calls only
   deck_yaml.c. */
#include "deck_yaml.h"
#include "deck_masses.h"
#include "deck_sweep.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef deck_ctx ctx;
typedef deck_field field;

/* ---- sections ---- */

/* matrices: file names resolved against the deck folder; key positions kept */
static int matrices_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_matrices *m = &c->d->matrices;
  field f[] = {
    { .key = "K", .type = F_PATH, .dst = &m->K, .required = 1 },
    { .key = "M", .type = F_PATH, .dst = &m->M, .required = 1 },
    { .key = "R", .type = F_PATH, .dst = &m->R },
    { .key = "Cq", .type = F_PATH, .dst = &m->Cq },
  };
  MB_TRY (deck_walk (c, map, sec, f, 4));
  size_t *lc[4][2] = { { &m->line_K, &m->col_K }, { &m->line_M, &m->col_M },
                       { &m->line_R, &m->col_R }, { &m->line_Cq, &m->col_Cq } };
  for (int i = 0; i < 4; i++)
    if (f[i].k) {
      *lc[i][0] = f[i].k->start_mark.line + 1;
      *lc[i][1] = f[i].k->start_mark.column + 1;
    }
  return 0;
}

/* stage defaults: enabled, 10 modes, tolerance 1e-10, 300 restarts, automatic ncv */
static void stage_defaults (deck_stage *s)
{
  memset (s, 0, sizeof *s);
  s->enabled = 1;
  s->modes = 10;
  s->tolerance = 1e-10;
  s->max_restarts = 300;
  s->subspace = 0;
}

/* The shift the eigen stage will use must be a finite number: modal sigma = (2 pi f)^2
   [rad^2/s^2] from target_frequency f; complex sigma = 1e-3 + i 2 pi f [1/s] from f, or
   [Re, Im] given, whose modulus |sigma| (the rigid-body threshold scales with it) must be
   finite too. tv, sv: the values of target_frequency and shift, NULL when absent. The
   same products as gep.c, so a deck that passes here gives a finite sigma there. */
static int stage_shift_check (ctx *c, const char *sec, int cplx, const deck_stage *s,
                              const yaml_node_t *tv, const yaml_node_t *sv)
{
  const double two_pi = 2 * 3.14159265358979323846;
  char g[64];
  if (s->has_target && !cplx && !isfinite (pow (two_pi * s->target_hz, 2)))
    return deck_fail_at (c, tv, "%s: 'target_frequency' %s Hz gives the shift sigma ="
                         " (2 pi f)^2 beyond the largest double (overflow); it must be at"
                         " most %.3g Hz", sec, deck_shown (tv, g, sizeof g),
                         sqrt (DBL_MAX) / two_pi * 0.999);
  if (s->has_target && cplx && !isfinite (two_pi * s->target_hz))
    return deck_fail_at (c, tv, "%s: 'target_frequency' %s Hz gives the shift sigma ="
                         " i 2 pi f beyond the largest double (overflow); it must be at"
                         " most %.3g Hz", sec, deck_shown (tv, g, sizeof g),
                         DBL_MAX / two_pi * 0.999);
  if (s->has_shift && cplx && !isfinite (hypot (s->shift_re, s->shift_im)))
    return deck_fail_at (c, sv, "%s: 'shift' [%g, %g] has a modulus |sigma| beyond the"
                         " largest double (overflow)", sec, s->shift_re, s->shift_im);
  return 0;
}

/* modal (cplx = 0) or complex (cplx = 1) stage */
static int stage_section (ctx *c, const yaml_node_t *map, const char *sec, int cplx)
{
  deck_stage *s = cplx ? &c->d->damped : &c->d->modal;
  double pair[2] = { 0, 0 };
  field f[] = {
    { .key = "enabled", .type = F_BOOL, .dst = &s->enabled },
    { .key = "modes", .type = F_INT, .dst = &s->modes, .lo = 1, .hi = DECK_MAX_MODES,
      .range = ">= 1", .cap = "the most modes one stage may ask for" },
    { .key = "target_frequency", .type = F_REAL, .dst = &s->target_hz, .lo = 0,
      .hi = HUGE_VAL, .range = ">= 0 [Hz]" },
    { .key = "shift", .type = cplx ? F_PAIR : F_REAL, .dst = cplx ? pair : &s->shift_re,
      .lo = -HUGE_VAL, .hi = HUGE_VAL, .range = "finite" },
    { .key = "tolerance", .type = F_REAL, .dst = &s->tolerance, .lo = 0, .lo_open = 1,
      .hi = 1e-2, .range = "in (0, 1e-2]" },
    { .key = "max_restarts", .type = F_INT, .dst = &s->max_restarts, .lo = 1,
      .hi = INT_MAX, .range = ">= 1" },
    { .key = "subspace", .type = F_INT, .dst = &s->subspace, .lo = 0,
      .hi = DECK_MAX_SUBSPACE, .range = ">= 0 (0 = automatic)",
      .cap = "the largest Krylov subspace a deck may ask for" },
  };
  MB_TRY (deck_walk (c, map, sec, f, 7));
  s->has_target = f[2].k != NULL;
  s->has_shift = f[3].k != NULL;
  if (cplx && s->has_shift) s->shift_re = pair[0], s->shift_im = pair[1];
  if (cplx) c->cplx_key = f[0].k;
  if (s->has_target && s->has_shift) {
    const field *later = f[2].k->start_mark.index > f[3].k->start_mark.index ? &f[2] : &f[3];
    return deck_fail_at (c, later->k, "%s: give either shift or target_frequency, not both",
                         sec);
  }
  MB_TRY (stage_shift_check (c, sec, cplx, s, f[2].v, f[3].v));
  if (s->subspace != 0 && (long long) s->subspace < (long long) s->modes + 2)
    return deck_fail_at (c, f[6].v, "%s: 'subspace' must be 0 (automatic) or >= modes + 2"
                         " = %lld (got %d)", sec, (long long) s->modes + 2, s->subspace);
  return 0;
}

static int modal_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  return stage_section (c, map, sec, 0);
}

static int complex_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  return stage_section (c, map, sec, 1);
}

/* F_FN: output.reference_point [x, y, z] [m] into (double *) f->dst; marks it given */
static int reference_point_fn (ctx *c, const char *sec, field *f)
{
  MB_TRY (deck_get_numbers (c, sec, f->k, f->v, f->key, 3, f->dst));
  c->d->output.has_reference_point = 1;
  return 0;
}

/* output: report directory, base name, eigenvectors switch, matrix export folder, VTK,
   the reference point of the participation factors */
static int output_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_output *o = &c->d->output;
  field f[] = {
    { .key = "directory", .type = F_STR, .dst = &o->directory },
    { .key = "name", .type = F_NAME, .dst = &o->name },
    { .key = "eigenvectors", .type = F_BOOL, .dst = &o->eigenvectors },
    { .key = "export_matrices", .type = F_STR, .dst = &o->export_matrices },
    { .key = "vtk", .type = F_BOOL, .dst = &o->vtk },
    { .key = "reference_point", .type = F_FN, .dst = o->reference_point,
      .parse = reference_point_fn },
    { .key = "csv", .type = F_BOOL, .dst = &o->csv },
    { .key = "plots", .type = F_BOOL, .dst = &o->plots },
  };
  MB_TRY (deck_walk (c, map, sec, f, 8));
  c->reference_key = f[5].k;
  return 0;
}

/* ---- the whole document ---- */

/* output name from the deck path: base name without .yaml/.yml ("deck" if that is empty) */
static char *default_name (const char *path)
{
  const char *b = strrchr (path, '/');
  b = b ? b + 1 : path;
  size_t n = strlen (b);
  if (n > 5 && !strcmp (b + n - 5, ".yaml")) n -= 5;
  else if (n > 4 && !strcmp (b + n - 4, ".yml")) n -= 4;
  if (n == 0) return deck_dup ("deck", 4);
  return deck_dup (b, n);
}

/* the root mapping; then the rules that span sections (matrices or a model) and the
   defaults that depend on other keys (complex.enabled on R or damping, output.name on
   the path) */
static int root (ctx *c, const yaml_node_t *r)
{
  deck *d = c->d;
  enum { MODEL_FIRST = 1, MODEL_LAST = 10, MATRICES = 11, COMPLEX = 13, STATICS = 15, BUCKLING = 17,
         FRF = 18, SWEEP = 19, NF = 20 };
  field f[NF] = {
    { .key = "title", .type = F_TEXT, .dst = &d->title },
    { .key = "units", .type = F_FN, .parse = deck_model_units },
    { .key = "gravity", .type = F_FN, .dst = d->model.gravity, .parse = deck_model_gravity },
    { .key = "materials", .type = F_MAP, .section = deck_model_materials },
    { .key = "sections", .type = F_MAP, .section = deck_model_sections },
    { .key = "bodies", .type = F_MAP, .section = deck_model_bodies },
    { .key = "beams", .type = F_MAP, .section = deck_model_beams },
    { .key = "joints", .type = F_MAP, .section = deck_model_joints },
    { .key = "forces", .type = F_MAP, .section = deck_model_forces },
    { .key = "masses", .type = F_MAP, .section = deck_model_masses },
    { .key = "planar", .type = F_FN, .dst = &d->model, .parse = deck_model_planar },
    { .key = "matrices", .type = F_MAP, .no_null = 1, .section = matrices_section },
    { .key = "modal", .type = F_MAP, .section = modal_section },
    { .key = "complex", .type = F_MAP, .section = complex_section },
    { .key = "output", .type = F_MAP, .section = output_section },
    { .key = "statics", .type = F_MAP, .section = deck_statics_section },
    { .key = "solver", .type = F_MAP, .section = deck_solver_section },
    { .key = "buckling", .type = F_MAP, .section = deck_buckling_section },
    { .key = "frf", .type = F_MAP, .section = deck_frf_section },
    { .key = "sweep", .type = F_MAP, .section = deck_sweep_section },
  };
  if (!r || deck_is_null (r))
    return mb_fail_at (c->err, MB_EDECK, c->path, 1, 1, "empty deck");
  if (r->type != YAML_MAPPING_NODE) {
    char g[96];
    return deck_fail_at (c, r, "the deck must be a mapping of keys such as 'matrices:'"
                         " or 'bodies:' (got %s)", deck_describe (r, g, sizeof g));
  }
  MB_TRY (deck_walk (c, r, NULL, f, NF));
  const yaml_node_t *model_key = NULL;  /* the first model key in the document */
  for (int i = MODEL_FIRST; i <= MODEL_LAST; i++)
    if (f[i].k && (!model_key || model_key == deck_later (model_key, f[i].k)))
      model_key = f[i].k;
  if (model_key && f[MATRICES].k)
    return deck_fail_at (c, deck_later (model_key, f[MATRICES].k), "give either 'matrices' or"
                         " a model (bodies/beams), not both");
  if (!model_key && !f[MATRICES].k)
    return deck_fail_at (c, r, "missing required key 'matrices': the deck needs either"
                         " 'matrices' or a model (bodies/beams)");
  if (model_key) MB_TRY (deck_model_finish (c, r, f[1].k));
  if (f[STATICS].k) MB_TRY (deck_statics_finish (c, f[STATICS].k, model_key != NULL));
  if (f[BUCKLING].k) MB_TRY (deck_buckling_finish (c, f[BUCKLING].k, model_key != NULL));
  if (c->reference_key && !model_key)
    return deck_fail_at (c, c->reference_key, "output: 'reference_point' needs a model deck "
                         "(bodies/beams): a matrix deck has no geometry to turn about");
  if (!c->cplx_key) {  /* default; a section given for nothing is said in the log */
    d->damped.enabled = model_key ? d->model.has_damping : d->matrices.R != NULL;
    if (!d->damped.enabled && f[COMPLEX].k)
      d->damped.off_line = (int) f[COMPLEX].k->start_mark.line + 1;
  }
  else if (d->damped.enabled && !model_key && !d->matrices.R)
    return deck_fail_at (c, c->cplx_key, "complex: complex stage needs matrices.R"
                         " (a damping matrix); give R or set 'enabled: false'");
  if (f[FRF].k) MB_TRY (deck_frf_finish (c, f[FRF].k, model_key != NULL));
  if (f[SWEEP].k) MB_TRY (deck_sweep_finish (c, f[SWEEP].k, model_key != NULL));
  if (!d->output.directory && !(d->output.directory = deck_dup (".", 1)))
    return deck_no_memory (c);
  if (!d->output.name && !(d->output.name = default_name (c->path)))
    return deck_no_memory (c);
  return 0;
}

/* libyaml's own failure -> mb_err; text is the input, for reader errors' byte offset */
static int yaml_failure (ctx *c, const yaml_parser_t *p, const char *text, size_t len)
{
  size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
  const char *problem = p->problem ? p->problem : "unknown YAML error";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    return deck_no_memory (c);
  case YAML_READER_ERROR: {
    size_t off = p->problem_offset < len ? p->problem_offset : len, bol = 0;
    line = 1;
    for (size_t i = 0; i < off; i++)
      if (text[i] == '\n') line++, bol = i + 1;
    col = off - bol + 1;
    if (p->problem_value >= 0)
      return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s (#%X)", problem,
                         (unsigned) p->problem_value);
    return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s", problem);
  }
  default:
    if (p->context)
      return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s (%s at %zu:%zu)",
                         problem, p->context, p->context_mark.line + 1,
                         p->context_mark.column + 1);
    return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s", problem);
  }
}

enum { MAX_DEPTH = 32,     /* a deck needs 5 levels; libyaml's scanner is quadratic in depth */
       MAX_ANCHORS = 64 };  /* libyaml looks aliases up linearly */

/* Event pass before loading the document: reports the first syntax error, rejects a second
   document, nesting deeper than MAX_DEPTH and more than MAX_ANCHORS anchors, so that
   hostile text cannot make yaml_parser_load run for minutes. */
static int prescan (ctx *c, const char *text, size_t len)
{
  yaml_parser_t p;
  yaml_event_t ev;
  int depth = 0, docs = 0, anchors = 0, rc = 0;
  if (!yaml_parser_initialize (&p)) return deck_no_memory (c);
  yaml_parser_set_input_string (&p, (const unsigned char *) text, len);
  for (;;) {
    if (!yaml_parser_parse (&p, &ev)) {
      rc = yaml_failure (c, &p, text, len);
      break;
    }
    yaml_event_type_t type = ev.type;
    const yaml_char_t *anchor = type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
      : type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
      : type == YAML_MAPPING_START_EVENT ? ev.data.mapping_start.anchor : NULL;
    size_t line = ev.start_mark.line + 1, col = ev.start_mark.column + 1;
    if (anchor && ++anchors > MAX_ANCHORS)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col,
                       "YAML: more than %d anchors in the deck", MAX_ANCHORS);
    else if ((type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT)
             && ++depth > MAX_DEPTH)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: nested more than %d"
                       " levels deep (a deck needs at most 5)", MAX_DEPTH);
    else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT)
      depth--;
    else if (type == YAML_DOCUMENT_START_EVENT && ++docs > 1)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col,
                       "the deck holds more than one YAML document; keep only the first");
    yaml_event_delete (&ev);
    if (rc < 0 || type == YAML_STREAM_END_EVENT) break;
  }
  yaml_parser_delete (&p);
  return rc;
}

int deck_parse (const char *text, size_t len, const char *path, deck *d, mb_err *err)
{
  yaml_parser_t parser;
  yaml_document_t doc, extra;
  deck t;
  ctx c = { .doc = &doc, .path = path ? path : "", .err = err, .d = &t };
  int rc = 0, have_doc = 0, have_extra = 0;

  memset (d, 0, sizeof *d);
  memset (&t, 0, sizeof t);
  stage_defaults (&t.modal);
  stage_defaults (&t.damped);
  t.output.eigenvectors = 1;
  t.output.vtk = 1;
  t.output.plots = 1;
  deck_solver_defaults (&t.solver);
  const char *slash = strrchr (c.path, '/');
  c.dirlen = slash ? (size_t) (slash - c.path) + 1 : 0;
  if (!text && len) return mb_fail (err, MB_EDECK, "no deck text for %s", c.path);
  if (!(t.path = deck_dup (c.path, strlen (c.path)))) return deck_no_memory (&c);
  if (!text) text = "";
  if ((rc = prescan (&c, text, len)) < 0) {
    deck_clear (&t);
    return rc;
  }

  if (!yaml_parser_initialize (&parser)) {
    deck_clear (&t);
    return deck_no_memory (&c);
  }
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  if (!yaml_parser_load (&parser, &doc)) {
    rc = yaml_failure (&c, &parser, text, len);
    goto done;
  }
  have_doc = 1;
  if (!yaml_parser_load (&parser, &extra)) {  /* the rest of the stream must be empty */
    rc = yaml_failure (&c, &parser, text, len);
    goto done;
  }
  have_extra = 1;
  if (yaml_document_get_root_node (&extra)) {
    rc = mb_fail_at (err, MB_EDECK, c.path, extra.start_mark.line + 1,
                     extra.start_mark.column + 1,
                     "the deck holds more than one YAML document; keep only the first");
    goto done;
  }
  rc = root (&c, yaml_document_get_root_node (&doc));

done:
  if (have_extra) yaml_document_delete (&extra);
  if (have_doc) yaml_document_delete (&doc);
  yaml_parser_delete (&parser);
  if (rc < 0) deck_clear (&t);
  else *d = t;
  return rc;
}

void deck_clear (deck *d)
{
  if (!d) return;
  free (d->path);
  free (d->title);
  free (d->matrices.K);
  free (d->matrices.M);
  free (d->matrices.R);
  free (d->matrices.Cq);
  free (d->output.directory);
  free (d->output.name);
  free (d->output.export_matrices);
  deck_model_clear (&d->model);
  deck_frf_clear (&d->frf);
  deck_sweep_clear (&d->sweep);
  memset (d, 0, sizeof *d);
}
