/* test_deck_lock.c: a lock joint on a list of nodes or on a whole beam (src/deck/deck_lock.c):
   the expansion into one lock per node (names, nodes, dofs, frame, the joints around it kept
   in order) and the errors at their positions (columns counted with Python str.index on the
   same text). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"

static const char head[] =
  "units: SI\n"
  "materials: {steel: {E: 2.0e11, nu: 0.3, rho: 7800.0}}\n"
  "sections: {bar: {shape: circle, diameter: 0.02}}\n"
  "bodies:\n"
  "  b1: {mass: 1, inertia: [1, 1, 1], position: [1, 0, 0]}\n"
  "  b2: {mass: 1, inertia: [1, 1, 1], position: [2, 0, 0]}\n"
  "  b3: {mass: 1, inertia: [1, 1, 1], position: [3, 0, 0]}\n"
  "beams:\n"
  "  b: {material: steel, section: bar, points: [[0, 0, 1], [1, 0, 1], [1, 1, 1]],"
  " elements: [2, 3]}\n";

/* parses head + text; returns the status, *d filled (caller clears) */
static int parse (const char *text, deck *d, mb_err *e)
{
  char buf[4096];
  snprintf (buf, sizeof buf, "%s%s", head, text);
  mb_err_init (e);
  return deck_parse (buf, strlen (buf), "t.yaml", d, e);
}

static int joint_is (const deck_joint *j, const char *name, const char *a, const char *b,
                     int mask)
{
  return !strcmp (j->name, name) && !strcmp (j->node[0].name, a) && !strcmp (j->node[1].name, b)
         && j->lock_mask == mask && j->type == JOINT_LOCK && !j->has_at && !j->nmore
         && !j->beam.name;
}

static void test_expand (void)
{
  deck d;
  mb_err e;
  int rc = parse ("joints:\n"
                  "  first: {type: weld, nodes: [ground, b1]}\n"
                  "  rail: {type: lock, nodes: [b1, b2, b3], dofs: [dy, z],"
                  " frame: {axis: [0, 0, 1], degrees: 90}}\n"
                  "  plane: {type: lock, beam: b, dofs: [dz, rx, ry]}\n"
                  "  pair: {type: lock, nodes: [b2, b3], dofs: [rz]}\n", &d, &e);
  CHECK ("a deck with locks on several nodes parses", rc == 0);
  if (rc == 0) {
    const deck_model *m = &d.model;
    CHECK ("1 weld + 2 rail + 6 beam nodes + 1 pair = 10 joints", m->njoints == 10);
    if (m->njoints == 10) {
      CHECK ("the weld first, unchanged", m->joints[0].type == JOINT_WELD
             && !strcmp (m->joints[0].name, "first"));
      CHECK ("rail:b2 locks b2 to b1", joint_is (&m->joints[1], "rail:b2", "b1", "b2",
                                                 LOCK_Y | LOCK_Z));
      CHECK ("rail:b3 locks b3 to b1", joint_is (&m->joints[2], "rail:b3", "b1", "b3",
                                                 LOCK_Y | LOCK_Z));
      CHECK ("rail's frame (turned 90 degrees about z) on each", fabs (m->joints[1].R[0]) < 1e-12
             && !memcmp (m->joints[1].R, m->joints[2].R, sizeof m->joints[1].R));
      int ok = 1;
      for (int i = 0; i < 6; i++) {
        char nm[32], node[16];
        snprintf (nm, sizeof nm, "plane:b.%d", i);
        snprintf (node, sizeof node, "b.%d", i);
        ok &= joint_is (&m->joints[3 + i], nm, "ground", node, LOCK_Z | LOCK_RX | LOCK_RY);
      }
      CHECK ("plane: b.0 .. b.5 (2 + 3 elements) each locked to ground", ok);
      CHECK ("a lock on 2 nodes stays one joint", joint_is (&m->joints[9], "pair", "b2", "b3",
                                                            LOCK_RZ));
    }
  }
  deck_clear (&d);
}

typedef struct bad { const char *text, *where, *msg; } bad;

static void test_bad (void)
{
  const bad bads[] = {
    { "joints: {r: {type: lock, nodes: [b1, ground, b3], dofs: [dx]}}\n", "t.yaml:10:38",
      "'nodes[1]' is ground: a lock on several nodes locks nodes[1..] to nodes[0]" },
    { "joints: {r: {type: lock, nodes: [ground, b1, b2, b1], dofs: [dx]}}\n", "t.yaml:10:50",
      "'nodes' names 'b1' twice" },
    { "joints: {r: {type: lock, beam: nope, dofs: [dx]}}\n", "t.yaml:10:32",
      "'beam' names 'nope', which is not a beam" },
    { "joints: {r: {type: lock, beam: b, at: [0, 0, 0], dofs: [dx]}}\n", "t.yaml:10:35",
      "'at' is for a lock on 2 nodes" },
    { "joints: {r: {type: lock, nodes: [ground, b1, b2], at: [0, 0, 0], dofs: [dx]}}\n",
      "t.yaml:10:51", "'at' is for a lock on 2 nodes" },
    { "joints: {r: {type: lock, beam: b, nodes: [ground, b1], dofs: [dx]}}\n", "t.yaml:10:35",
      "give 'nodes' or 'beam', not both" },
    { "joints: {r: {type: lock, dofs: [dx]}}\n", "t.yaml:10:13",
      "missing required key 'nodes' (or 'beam'" },
    { "joints: {r: {type: weld, beam: b}}\n", "t.yaml:10:26", "'beam' is not used by a weld" },
    { "joints: {r: {type: revolute, nodes: [ground, b1, b2], axis: [0, 0, 1]}}\n",
      "t.yaml:10:37", "'nodes' must name exactly 2 nodes" },
    { "joints: {r: {type: lock, beam: [b], dofs: [dx]}}\n", "t.yaml:10:32",
      "'beam' must be a node name" },
  };
  for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
    deck d;
    mb_err e;
    char descr[96];
    int rc = parse (bads[i].text, &d, &e);
    snprintf (descr, sizeof descr, "bad lock %zu: MB_EDECK at %s", i, bads[i].where);
    CHECK (descr, rc == MB_EDECK && !strcmp (e.where, bads[i].where)
           && strstr (e.msg, bads[i].msg));
    if (rc != MB_EDECK || strcmp (e.where, bads[i].where) || !strstr (e.msg, bads[i].msg))
      printf ("  got %d %s: %s\n  want %s: ...%s...\n", rc, e.where, e.msg, bads[i].where,
              bads[i].msg);
    deck_clear (&d);
  }
}

int main (void)
{
  test_expand ();
  test_bad ();
  return CHECK_DONE ();
}
