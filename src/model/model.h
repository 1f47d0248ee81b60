/* model.h: the multibody model built from a deck: nodes with 6 DOFs each, bodies, beam
   elements, joints and forces resolved to node indices, and their element matrices in the
   global 6-DOF-per-node space (DESIGN.md "Coordinates").

   DOFs: node i owns rows 6i .. 6i+5 = (dx, dy, dz, rx, ry, rz): translation increment and
   spatial rotation increment, both in global axes. Node numbering: bodies in deck order,
   then the nodes of each beam in deck order, along the beam (start -> end). Ground is not
   a node (index MODEL_GROUND).

   Ownership: a model owns everything it points to; model_clear frees it. The deck it was
   built from is borrowed only during model_build (names are copied). */
#ifndef MB_MODEL_H
#define MB_MODEL_H

#include <complex.h>
#include "../deck/deck.h"
#include "../deck/deck_model.h"
#include "../error.h"
#include "../linalg/sparse.h"

enum { MODEL_GROUND = -1 };

typedef struct model_node {
  char *name;        /* body name, or "BEAM.<index>"; user names of beam nodes are aliases */
  double x[3];       /* position [m] */
  double R[9];       /* orientation, local -> global (body axes; identity for beam nodes) */
  int body;          /* index into bodies, or -1 */
  int beam;          /* index into beams, or -1 */
  int beam_index;    /* position along its beam, 0 .. nelements */
} model_node;

/* A name that refers to a node: body names, user beam-node names, BEAM.start/end/<i>. */
typedef struct model_alias { char *name; int node; } model_alias;

typedef struct model_body {
  char *name;
  int node;
  double mass;       /* [kg] */
  double J[9];       /* inertia about the centre of mass, global axes: R J_body R^T */
  deck_pos pos;      /* deck position of its name, for messages */
  double spin;       /* spin speed [rad/s] about spin_axis (spin.c); 0: not spinning */
  double spin_axis[3];   /* unit, global axes at the deck pose */
} model_body;

typedef struct model_beam {
  char *name;
  int first_node;    /* nodes first_node .. first_node + nelements, consecutive */
  int nelements;     /* element e joins nodes first_node + e and first_node + e + 1 */
  double E, G, rho, alpha, beta;   /* from its material */
  double A, Iy, Iz, J;             /* from its section */
  double Asy, Asz;                 /* shear areas [m^2] along local y and z: a Timoshenko
                                      beam (shear and rotary inertia); 0: Euler-Bernoulli */
  double q[3];                     /* line load [N/m] per deck length (beam_load.c) */
  int q_body;                      /* 1: a follower load, turning with the nodes */
  double *esec;                    /* NULL: A .. Asz above for every element; else 6 per
                                      element (A, Iy, Iz, J, Asy, Asz): stepped or tapered
                                      (beam_taper.c); owned */
  double y_axis[3];                /* unit, as in the deck; without y_axis in the deck the
                                      default normal of its first element (beam_default_y) */
  int y_given;                     /* 1: y_axis came from the deck; 0: each element picks
                                      a global axis not parallel to it (Iy == Iz only) */
  deck_pos pos;                    /* deck position of its name, for messages */
  double spin;                     /* spin speed [rad/s] about the beam's own axis, positive
                                      when along start -> end (spin.c); 0: not spinning */
} model_beam;

/* A joint resolved: a and b node indices (MODEL_GROUND allowed for one), frame at x with
   axes R (local -> global), and the rows it contributes: nrows relative DOFs given as
   unit vectors in global axes (rows[k] 0..5 picks translation or rotation, dir[k] the
   direction). distance: one row along dir from pA to pB (see deck_model.h). */
typedef struct model_joint {
  char *name;
  joint_type type;
  int a, b;
  double x[3], R[9];
  double pa[3], pb[3];   /* distance: the two points; other types: both = x */
  int nrows;             /* 1 .. 6 */
  int is_rotation[6];    /* 0: relative translation row, 1: relative rotation row */
  double dir[6][3];      /* unit direction of each row, global axes */
  int frame_axis[6];     /* the frame axis e1..e3 (0..2) of each row; -1: distance */
  int first_row;         /* its rows in Cq: first_row .. first_row + nrows - 1 */
  deck_pos pos;          /* deck position of its name, for messages */
} model_joint;

typedef struct model_force {
  char *name;
  force_type type;
  int a, b;              /* nodes; b unused (-2) for force and torque; ground allowed */
  double pa[3], pb[3];   /* attachment points [m] (spring); force point (pa) */
  double k, c, free_length, preload;
  double axis[3];
  double x[3], R[9];     /* bushing frame */
  double K6[36], C6[36];
  double value[3];
  int body_fixed;
  deck_pos pos;
} model_force;

/* A point mass (deck masses:) on a node: its centre of mass at node + R r (a rigid,
   massless arm), its own inertia R J R^T about that centre, R the node's orientation
   (local -> global) wherever the node is; r and J are kept in the node's axes so that
   they turn with it. point_mass.c. */
typedef struct model_mass {
  char *name;
  int node;          /* never ground */
  double mass;       /* [kg] > 0 */
  double J[9];       /* [kg m^2], node axes (R_deck^T J_deck R_deck) */
  double r[3];       /* [m] offset from the node, node axes (R_deck^T offset) */
  deck_pos pos;      /* deck position of its name, for messages */
} model_mass;

struct model_state;

/* Where a model placed at an equilibrium came from (model_place): copies of its deck poses
   and inertia, and the equilibrium, so that element matrices there (the tangent the eigen
   stages use) can still be evaluated. Owned by the model (model_clear frees it); the names
   in nodes and bodies are borrowed from the model's own. */
typedef struct model_equilibrium {
  struct model_node *nodes;     /* nnodes: the deck poses, as model_build made them */
  struct model_body *bodies;    /* nbodies: the deck inertia */
  struct model_state *state;    /* the equilibrium: node poses and joint reactions gamma */
} model_equilibrium;

typedef struct model {
  int nnodes;
  model_node *nodes;
  int naliases;
  model_alias *aliases;   /* every name a deck may use for a node, sorted by name */
  int nbodies, nbeams, njoints, nforces;
  model_body *bodies;
  model_beam *beams;
  model_joint *joints;
  model_force *forces;
  int nconstraints;       /* m = sum of joint rows */
  double gravity[3];
  model_equilibrium *eq;  /* NULL, or the equilibrium the nodes were placed at (model_place) */
  int nplanar;            /* the last nplanar joints are planar:'s locks (planar.c) */
  int nmasses;            /* point masses (point_mass.c), deck order */
  model_mass *masses;
} model;

/* Builds the model of deck d (d->model.present must be 1): meshes beams, names nodes,
   resolves material, section and node references, computes joint frames and rows.
   Errors name the deck position and the object ("joint 'hinge': unknown node 'tipp'
   (did you mean 'tip'?)"). Returns 0, MB_EDECK or MB_ENOMEM; on failure *m is cleared.
   Collective-free (every rank may build the same model). */
int model_build (const deck *d, model *m, mb_err *err);

/* model_build on the model part of a deck given directly: dm borrowed, path names the
   deck in messages (tests build dm by hand). */
int model_build_deck (const deck_model *dm, const char *path, model *m, mb_err *err);

/* Frees what model_build allocated and zeroes *m; m may be NULL. */
void model_clear (model *m);

/* Node index of a name (alias), or -1 when unknown; "ground" gives MODEL_GROUND - 1 = -2
   is never returned: callers test for "ground" first. */
int model_find_node (const model *m, const char *name);

/* The deck's word for a joint type ("revolute"). Static string. */
const char *model_joint_type_name (joint_type t);

/* What row k of joint j locks, by the DOF names in its frame axes e1 e2 e3: "dx" .. "rz"
   (as a lock joint's dofs), or "distance" for a distance joint; written to buf (size bytes). */
void model_joint_row_name (const model_joint *j, int k, char *buf, size_t size);

/* The label of DOF q (0..5) of a node: "dx" "dy" "dz" "rx" "ry" "rz". Static string. */
const char *model_dof_label (int q);

#endif
