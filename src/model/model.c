/* model.c: the model from a deck: nodes (bodies, meshed beams), node names, material and
   section references; joints and forces are resolved by joint.c and force.c. */
#include "model.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"
#include "spin.h"

#define MAX_NODES (INT_MAX / 6 - 1)   /* 6 nnodes must fit an int */

/* An alias under construction: owns name; pos is where the deck gave it (for the
   duplicate-name message). */
typedef struct alias_tmp { char *name; int node; deck_pos pos; } alias_tmp;

/* A new copy of s ("" for NULL); caller frees; NULL when out of memory. */
static char *copy_string (const char *s)
{
  if (!s) s = "";
  size_t n = strlen (s) + 1;
  char *c = mb_calloc (n, 1);
  if (c) memcpy (c, s, n);
  return c;
}

/* Returns a new string "beam.suffix" (caller frees), NULL when out of memory. */
static char *node_label (const char *beam, const char *suffix)
{
  size_t n = strlen (beam) + strlen (suffix) + 2;
  char *s = mb_calloc (n, 1);
  if (s) snprintf (s, n, "%s.%s", beam, suffix);
  return s;
}

/* A new string "beam.i" (caller frees), NULL when out of memory. */
static char *node_label_index (const char *beam, int i)
{
  char num[24];
  snprintf (num, sizeof num, "%d", i);
  return node_label (beam, num);
}

/* qsort order of aliases: by name, then by deck line (the later one is the duplicate). */
static int alias_cmp (const void *pa, const void *pb)
{
  const alias_tmp *a = pa, *b = pb;
  int c = strcmp (a->name, b->name);
  if (c) return c;
  return (a->pos.line > b->pos.line) - (a->pos.line < b->pos.line);
}

const char *model_dof_label (int q)
{
  static const char *const label[6] = { "dx", "dy", "dz", "rx", "ry", "rz" };
  return q >= 0 && q < 6 ? label[q] : "?";
}

/* Appends name number i of a list "(kind: a, b, c)" to buf (len bytes used so far);
   i = -1 closes the list, count = 0 writes "(no kind are defined)". */
static void list_append (char *buf, size_t size, size_t *len, const char *kind, int i,
                         int count, const char *name)
{
  if (*len >= size) return;
  int w;
  if (count == 0) w = snprintf (buf, size, "(no %s are defined)", kind);
  else if (i == 0) w = snprintf (buf + *len, size - *len, "(%s: %s", kind, name);
  else if (i < 0) w = snprintf (buf + *len, size - *len, ")");
  else if (i == 12) w = snprintf (buf + *len, size - *len, ", ...");
  else if (i > 12) w = 0;
  else w = snprintf (buf + *len, size - *len, ", %s", name);
  *len += w > 0 ? (size_t) w : 0;
}

/* "(materials: a, b)" into buf */
static void list_materials (const deck_model *dm, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  if (dm->nmaterials == 0) { list_append (buf, size, &len, "materials", 0, 0, ""); return; }
  for (int i = 0; i < dm->nmaterials; i++)
    list_append (buf, size, &len, "materials", i, 1, dm->materials[i].name);
  list_append (buf, size, &len, "materials", -1, 1, "");
}

/* "(sections: a, b)" into buf */
static void list_sections (const deck_model *dm, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  if (dm->nsections == 0) { list_append (buf, size, &len, "sections", 0, 0, ""); return; }
  for (int i = 0; i < dm->nsections; i++)
    list_append (buf, size, &len, "sections", i, 1, dm->sections[i].name);
  list_append (buf, size, &len, "sections", -1, 1, "");
}

/* ---- bodies and beams ---- */

/* Nodes 0 .. nbodies - 1 and the bodies: J = R J_body R^T (global axes). */
static int build_bodies (const deck_model *dm, model *m)
{
  for (int i = 0; i < dm->nbodies; i++) {
    const deck_body *db = &dm->bodies[i];
    model_body *b = &m->bodies[i];
    model_node *nd = &m->nodes[i];
    b->name = copy_string (db->name);
    nd->name = copy_string (db->name);
    if (!b->name || !nd->name) return MB_ENOMEM;
    b->node = i;
    b->pos = db->pos;
    b->mass = db->mass;
    double RJ[9], Rt[9];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) Rt[3 * r + c] = db->R[3 * c + r];
    mat_mul (db->R, db->J, RJ);
    mat_mul (RJ, Rt, b->J);                 /* J = R J_body R^T */
    spin_body_init (db, b);                 /* spin speed and axis (spin.c) */
    memcpy (nd->x, db->x, sizeof nd->x);
    memcpy (nd->R, db->R, sizeof nd->R);
    nd->body = i;
    nd->beam = -1;
    nd->beam_index = 0;
  }
  return 0;
}

/* The deck material called name, or NULL. */
static const deck_material *find_material (const deck_model *dm, const char *name)
{
  for (int i = 0; i < dm->nmaterials; i++)
    if (name && !strcmp (dm->materials[i].name, name)) return &dm->materials[i];
  return NULL;
}

/* The deck section called name, or NULL. */
static const deck_section *find_section (const deck_model *dm, const char *name)
{
  for (int i = 0; i < dm->nsections; i++)
    if (name && !strcmp (dm->sections[i].name, name)) return &dm->sections[i];
  return NULL;
}

/* Resolves material and section of deck beam db into b; checks the y axis. */
static int beam_properties (const deck_model *dm, const deck_beam *db, const char *path,
                            model_beam *b, mb_err *err)
{
  char list[512];
  const deck_material *mat = find_material (dm, db->material);
  if (!mat) {
    list_materials (dm, list, sizeof list);
    return mb_fail_at (err, MB_EDECK, path, db->pos_material.line, db->pos_material.col,
                       "beam '%s': unknown material '%s' %s", db->name,
                       db->material ? db->material : "", list);
  }
  const deck_section *sec = find_section (dm, db->section);
  if (!sec) {
    list_sections (dm, list, sizeof list);
    return mb_fail_at (err, MB_EDECK, path, db->pos_section.line, db->pos_section.col,
                       "beam '%s': unknown section '%s' %s", db->name,
                       db->section ? db->section : "", list);
  }
  b->E = mat->E; b->G = mat->G; b->rho = mat->rho;
  b->alpha = mat->alpha; b->beta = mat->beta;
  b->A = sec->A; b->Iy = sec->Iy; b->Iz = sec->Iz; b->J = sec->J;
  MB_TRY (spin_beam_init (db, path, b, err));   /* spin (spin.c): Iy = Iz */
  MB_TRY (beam_shear_areas (db, sec, path, b, err));
  if (db->has_line_load) memcpy (b->q, db->line_load, sizeof b->q);
  b->q_body = db->line_load_body;
  b->y_given = db->has_y_axis;
  if (db->has_y_axis) {
    double n = vec_norm (db->y_axis);
    for (int k = 0; k < 3; k++) b->y_axis[k] = n > 0 ? db->y_axis[k] / n : 0;
    for (int s = 0; s + 1 < db->npoints; s++) {
      double d[3], c[3];
      vec_sub (db->points + 3 * (s + 1), db->points + 3 * s, d);
      vec_cross (d, b->y_axis, c);
      if (!(vec_norm (c) > 1e-9 * vec_norm (d))) {
        deck_pos p = db->pos_y_axis.line ? db->pos_y_axis : db->pos;
        return mb_fail_at (err, MB_EDECK, path, p.line, p.col,
                           "beam '%s': y_axis is parallel to segment %d", db->name, s + 1);
      }
    }
  } else {
    if (fabs (sec->Iy - sec->Iz) > 1e-12 * fmax (sec->Iy, sec->Iz))
      return mb_fail_at (err, MB_EDECK, path, db->pos.line, db->pos.col,
                         "beam '%s': y_axis is required: section '%s' has Iy != Iz "
                         "(Iy = %g, Iz = %g)", db->name, sec->name, sec->Iy, sec->Iz);
    double d[3];
    vec_sub (db->points + 3, db->points, d);
    double L = vec_norm (d);
    for (int k = 0; k < 3; k++) d[k] /= L;
    beam_default_y (d, b->y_axis);
  }
  return 0;
}

/* Meshes beam db into nodes first .. first + nelements: per segment, elements[s] equal
   elements, node j at p_s + (p_{s+1} - p_s) j / n_s; vertices shared and exact. */
static int beam_mesh (const deck_beam *db, int ib, int first, model *m)
{
  int idx = 0;
  for (int s = 0; s + 1 < db->npoints; s++) {
    const double *p0 = db->points + 3 * s, *p1 = db->points + 3 * (s + 1);
    int ns = db->elements[s];
    for (int j = 0; j < ns; j++, idx++) {
      model_node *nd = &m->nodes[first + idx];
      for (int k = 0; k < 3; k++) nd->x[k] = j == 0 ? p0[k] : p0[k] + (p1[k] - p0[k]) * j / ns;
    }
  }
  const double *pl = db->points + 3 * (db->npoints - 1);
  memcpy (m->nodes[first + idx].x, pl, 3 * sizeof *pl);
  for (int i = 0; i <= idx; i++) {
    model_node *nd = &m->nodes[first + i];
    memset (nd->R, 0, sizeof nd->R);
    nd->R[0] = nd->R[4] = nd->R[8] = 1.0;
    nd->body = -1;
    nd->beam = ib;
    nd->beam_index = i;
    nd->name = node_label_index (db->name, i);
    if (!nd->name) return MB_ENOMEM;
  }
  return 0;
}

/* Beams in deck order: properties, then their nodes after the bodies'. */
static int build_beams (const deck_model *dm, const char *path, model *m, mb_err *err)
{
  int next = dm->nbodies;
  for (int ib = 0; ib < dm->nbeams; ib++) {
    const deck_beam *db = &dm->beams[ib];
    model_beam *b = &m->beams[ib];
    b->name = copy_string (db->name);
    if (!b->name) return MB_ENOMEM;
    b->pos = db->pos;
    MB_TRY (beam_properties (dm, db, path, b, err));
    int ne = 0;
    for (int s = 0; s + 1 < db->npoints; s++) ne += db->elements[s];
    b->first_node = next;
    b->nelements = ne;
    MB_TRY (beam_taper_build (dm, db, path, b, err));
    MB_TRY (beam_mesh (db, ib, next, m));
    next += ne + 1;
  }
  return 0;
}

/* ---- aliases ---- */

/* a[*n++] = (name, node, pos); name is owned by a from here (NULL: out of memory). */
static int alias_push (alias_tmp *a, int *n, char *name, int node, deck_pos pos)
{
  if (!name) return MB_ENOMEM;
  a[*n].name = name;
  a[*n].node = node;
  a[*n].pos = pos;
  (*n)++;
  return 0;
}

/* Fills a with every name of a node: bodies, BEAM.<i>, BEAM.start, BEAM.end, user
   names (checked against the beam's range). */
static int alias_collect (const deck_model *dm, const char *path, model *m, alias_tmp *a,
                          int *n, mb_err *err)
{
  for (int i = 0; i < dm->nbodies; i++)
    MB_TRY (alias_push (a, n, copy_string (dm->bodies[i].name), i, dm->bodies[i].pos));
  for (int ib = 0; ib < dm->nbeams; ib++) {
    const deck_beam *db = &dm->beams[ib];
    const model_beam *b = &m->beams[ib];
    for (int i = 0; i <= b->nelements; i++)
      MB_TRY (alias_push (a, n, node_label_index (b->name, i), b->first_node + i, db->pos));
    MB_TRY (alias_push (a, n, node_label (b->name, "start"), b->first_node, db->pos));
    MB_TRY (alias_push (a, n, node_label (b->name, "end"), b->first_node + b->nelements,
                        db->pos));
    for (int k = 0; k < db->nnamed; k++) {
      const deck_beam_node *nn = &db->named[k];
      int idx = nn->index == -1 ? b->nelements : nn->index;
      if (idx < 0 || idx > b->nelements)
        return mb_fail_at (err, MB_EDECK, path, nn->pos.line, nn->pos.col,
                           "beam '%s': node '%s' has index %d, but the beam's nodes are "
                           "0 .. %d", b->name, nn->name, nn->index, b->nelements);
      MB_TRY (alias_push (a, n, copy_string (nn->name), b->first_node + idx, nn->pos));
    }
  }
  return 0;
}

/* m->aliases: every node name, sorted for model_find_node; a name given twice is an
   error at the later one. */
static int build_aliases (const deck_model *dm, const char *path, model *m, long count,
                          mb_err *err)
{
  alias_tmp *a = mb_calloc ((size_t) count, sizeof *a);
  if (!a) return MB_ENOMEM;
  int n = 0, rc = alias_collect (dm, path, m, a, &n, err);
  if (!rc) {
    qsort (a, (size_t) n, sizeof *a, alias_cmp);
    for (int i = 1; i < n && !rc; i++)
      if (!strcmp (a[i - 1].name, a[i].name))
        rc = mb_fail_at (err, MB_EDECK, path, a[i].pos.line, a[i].pos.col,
                         "node name '%s' is used twice (also at line %zu)", a[i].name,
                         a[i - 1].pos.line);
  }
  if (!rc) {
    m->aliases = mb_calloc ((size_t) n, sizeof *m->aliases);
    if (!m->aliases) rc = MB_ENOMEM;
  }
  if (!rc) {
    for (int i = 0; i < n; i++) {
      m->aliases[i].name = a[i].name;
      m->aliases[i].node = a[i].node;
    }
    m->naliases = n;
  } else {
    for (int i = 0; i < n; i++) free (a[i].name);
  }
  free (a);
  return rc;
}

/* ---- the whole model ---- */

/* Counts nodes and aliases; MB_EDECK when the model is empty or too large. */
static int count_nodes (const deck_model *dm, const char *path, long *nodes, long *aliases,
                        mb_err *err)
{
  long nn = dm->nbodies, na = dm->nbodies;
  for (int ib = 0; ib < dm->nbeams; ib++) {
    const deck_beam *db = &dm->beams[ib];
    long ne = 0;
    if (db->npoints < 2 || !db->points || !db->elements)
      return mb_fail_at (err, MB_EDECK, path, db->pos.line, db->pos.col,
                         "beam '%s': needs at least 2 points", db->name);
    for (int s = 0; s + 1 < db->npoints; s++) {
      if (db->elements[s] < 1)
        return mb_fail_at (err, MB_EDECK, path, db->pos.line, db->pos.col,
                           "beam '%s': segment %d has %d elements", db->name, s + 1,
                           db->elements[s]);
      ne += db->elements[s];
      if (ne > MAX_NODES) break;
    }
    nn += ne + 1;
    na += ne + 3 + db->nnamed;
    if (nn > MAX_NODES)
      return mb_fail_at (err, MB_EDECK, path, db->pos.line, db->pos.col,
                         "the model has too many nodes (more than %d)", MAX_NODES);
  }
  if (nn == 0)
    return mb_fail_at (err, MB_EDECK, path, 0, 0,
                       "the model has no nodes: give bodies or beams");
  *nodes = nn;
  *aliases = na;
  return 0;
}

/* Everything model_build makes; on failure the caller clears the partial model. */
static int build_all (const deck_model *dm, const char *path, model *m, mb_err *err)
{
  long nn = 0, na = 0;
  MB_TRY (count_nodes (dm, path, &nn, &na, err));
  m->nnodes = (int) nn;
  m->nbodies = dm->nbodies;
  m->nbeams = dm->nbeams;
  m->nodes = mb_calloc ((size_t) nn, sizeof *m->nodes);
  m->bodies = mb_calloc ((size_t) dm->nbodies, sizeof *m->bodies);
  m->beams = mb_calloc ((size_t) dm->nbeams, sizeof *m->beams);
  m->joints = mb_calloc ((size_t) dm->njoints, sizeof *m->joints);
  m->forces = mb_calloc ((size_t) dm->nforces, sizeof *m->forces);
  if (!m->nodes || !m->bodies || !m->beams || !m->joints || !m->forces || mb_fault ("model"))
    return MB_ENOMEM;
  memcpy (m->gravity, dm->gravity, sizeof m->gravity);
  MB_TRY (build_bodies (dm, m));
  MB_TRY (build_beams (dm, path, m, err));
  MB_TRY (build_aliases (dm, path, m, na, err));
  int row = 0;
  for (int i = 0; i < dm->njoints; i++) {
    m->njoints = i + 1;                      /* so model_clear frees what was copied */
    MB_TRY (joint_build (m, &dm->joints[i], path, &m->joints[i], err));
    m->joints[i].first_row = row;
    row += m->joints[i].nrows;
  }
  m->nconstraints = row;
  MB_TRY (planar_build (dm, path, m, err));
  MB_TRY (point_mass_build (dm, path, m, err));
  for (int i = 0; i < dm->nforces; i++) {
    m->nforces = i + 1;
    MB_TRY (force_build (m, &dm->forces[i], path, &m->forces[i], err));
  }
  return 0;
}

int model_build_deck (const deck_model *dm, const char *path, model *m, mb_err *err)
{
  memset (m, 0, sizeof *m);
  if (!path) path = "";
  int rc = build_all (dm, path, m, err);
  if (rc == MB_ENOMEM) mb_fail (err, MB_ENOMEM, "out of memory while building the model");
  if (rc) model_clear (m);
  return rc;
}

int model_build (const deck *d, model *m, mb_err *err)
{
  return model_build_deck (&d->model, d->path, m, err);
}

void model_clear (model *m)
{
  if (!m) return;
  if (m->nodes)
    for (int i = 0; i < m->nnodes; i++) free (m->nodes[i].name);
  if (m->aliases)
    for (int i = 0; i < m->naliases; i++) free (m->aliases[i].name);
  if (m->bodies)
    for (int i = 0; i < m->nbodies; i++) free (m->bodies[i].name);
  if (m->beams)
    for (int i = 0; i < m->nbeams; i++) {
      free (m->beams[i].name);
      free (m->beams[i].esec);
    }
  if (m->joints)
    for (int i = 0; i < m->njoints; i++) free (m->joints[i].name);
  if (m->forces)
    for (int i = 0; i < m->nforces; i++) free (m->forces[i].name);
  if (m->eq) {  /* names borrowed from the model's own */
    free (m->eq->nodes);
    free (m->eq->bodies);
    model_state_clear (m->eq->state);
    free (m->eq->state);
    free (m->eq);
  }
  free (m->nodes);
  free (m->aliases);
  free (m->bodies);
  free (m->beams);
  free (m->joints);
  free (m->forces);
  point_mass_clear (m);
  memset (m, 0, sizeof *m);
}
