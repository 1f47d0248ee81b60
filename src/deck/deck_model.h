/* deck_model.h: the model part of a deck (units, gravity, materials, sections, bodies,
   beams, joints, forces) as plain data, read from YAML by deck_model.c.

   The parser does every check that needs one object only (types, ranges, degenerate axes,
   zero-length segments, inertia positive semi-definite with the triangle inequality, mass
   zero with non-zero inertia) and converts readable input to one form: orientations to a
   rotation matrix, section shapes to A, Iy, Iz, J, nu to G, axes to unit vectors. Names
   that refer to other objects (material, section, nodes) are kept as strings with their
   deck position; model_build resolves them and reports what is missing.

   Vectors are global (deck) axes unless a field says otherwise. Units: SI (m, kg, s, N,
   rad). Rotation matrices are row-major 3x3, R[3*i + j]; their columns are the local
   axes in global coordinates (local -> global). Positions are 1-based line and column. */
#ifndef MB_DECK_MODEL_H
#define MB_DECK_MODEL_H

#include <stddef.h>

typedef struct deck_pos { size_t line, col; } deck_pos;  /* 0, 0: not given */

/* materials: NAME: { E, nu | G, rho, alpha?, beta? } */
typedef struct deck_material {
  char *name;
  double E;            /* Young's modulus [Pa], > 0 */
  double G;            /* shear modulus [Pa], > 0 (from E / (2 (1 + nu)) when nu is given) */
  double rho;          /* density [kg/m^3], >= 0 */
  double alpha, beta;  /* Rayleigh damping R = alpha M + beta K [1/s], [s]; >= 0, default 0 */
  deck_pos pos;        /* the name key */
  deck_pos pos_E, pos_rho;  /* their values, for the plausibility warnings */
} deck_material;

/* sections: NAME: { A, Iy, Iz, J } or { shape: rectangle, y, z } or { shape: circle,
   diameter } or { shape: tube, outer_diameter, wall }. Local axes: x along the beam, y and
   z the section axes; Iy = integral of z^2 dA (bending about y), Iz = integral of y^2 dA. */
typedef struct deck_section {
  char *name;
  double A, Iy, Iz, J;  /* [m^2], [m^4]; all > 0 */
  deck_pos pos;
  /* Timoshenko (deck_beam_theory.c): shear areas for shear along local y and z [m^2] (0:
     not given), or shear_factor k (Asy = Asz = k A; 0: not given); shear_default is the
     shape's own k (rectangle 5/6, circle 9/10, tube 1/2; 0 for given properties) */
  double Asy, Asz, shear_factor, shear_default;
  int shape;            /* 0 given properties, 1 rectangle (dim: y, z), 2 circle (diameter),
                           3 tube (outer_diameter, wall) (for tapers: beam_taper.c) */
  double dim[2];
} deck_section;

/* spin: { axis?: v, speed: rad/s | rpm: rev/min } of a body or beam (deck_spin.c): the
   part turns at a constant speed about the axis; the linear model about that steady spin
   gets its gyroscopic matrix (src/model/spin.c). given = 0: no spin key. */
typedef struct deck_spin {
  int given;
  int has_axis;
  double axis[3];   /* unit, global axes; the spin vector is speed * axis */
  double speed;     /* [rad/s], signed (rpm converted) */
  deck_pos pos;     /* the spin value, for messages */
} deck_spin;

/* bodies: NAME: { mass, inertia?, position, orientation? } -- one node at the centre of
   mass. mass = 0 with inertia 0 is a massless connection point. */
typedef struct deck_body {
  char *name;
  double mass;      /* [kg], >= 0 */
  double J[9];      /* inertia tensor about the centre of mass in body axes [kg m^2],
                       symmetric, positive semi-definite, triangle inequality holds */
  double x[3];      /* centre of mass [m] */
  double R[9];      /* body axes -> global; identity when orientation is not given */
  deck_pos pos;     /* the name key */
  deck_spin spin;   /* spin?: (deck_spin.c) */
} deck_body;

/* A name given to one node of a beam: beams.B.nodes: { NAME: start | end | index } */
typedef struct deck_beam_node {
  char *name;
  int index;        /* 0 .. number of elements; "end" is stored as -1 (model_build resolves) */
  deck_pos pos;     /* the name key */
} deck_beam_node;

/* beams: NAME: { material, section, points: [[x,y,z] | {at: [x,y,z], name?: NAME}, ...]
   | from: p, to: p,
   elements: N | [N1, N2, ...] (per segment), y_axis: v, nodes?: {...} } */
typedef struct deck_beam {
  char *name;
  char *material, *section;   /* names, resolved by model_build */
  deck_pos pos_material, pos_section;
  int npoints;                /* >= 2 polyline vertices */
  double *points;             /* 3 * npoints [m]; consecutive points differ (checked) */
  int *elements;              /* npoints - 1 entries, each >= 1: elements per segment */
  int has_y_axis;             /* 0: not given (allowed only for sections with Iy == Iz;
                                 model_build then picks any normal) */
  double y_axis[3];           /* unit vector: the section's local y axis is the part of it
                                 normal to each element (not parallel to any segment) */
  deck_pos pos_y_axis;
  int nnamed;
  deck_beam_node *named;      /* user names of nodes (polyline vertices named in points:
                                 included, after those of nodes:) */
  int nvnamed;                /* while parsing: vertices named in points: (deck_points.c), */
  deck_beam_node *vnamed;     /* index = the vertex; moved into named once the elements
                                 are known */
  deck_pos pos;               /* the name key */
  deck_spin spin;             /* spin?: (deck_spin.c) */
  int theory;                 /* BEAM_THEORY_*: 0 not given, euler_bernoulli, timoshenko */
  deck_pos pos_theory;
  int has_line_load;          /* line_load given: */
  double line_load[3];        /*   [N/m] per deck length, global axes at the deck */
  int line_load_body;         /*   1: a follower (turns with the sections), 0: global */
  int nseg_sections;          /* section: a list, one entry per segment (0: one name) */
  char **seg_sections;        /* 2 per entry: the sections at the segment's start and end
                                 (the same name twice when not tapered) */
  deck_pos *seg_pos;          /* each entry's position */
} deck_beam;

enum { BEAM_THEORY_DEFAULT, BEAM_THEORY_EB, BEAM_THEORY_TIMOSHENKO };

/* A reference to a node by name ("ground" is the ground; body name; beam node name given
   in nodes:, or BEAM.start, BEAM.end, BEAM.<index>). */
typedef struct deck_ref {
  char *name;       /* never NULL in a parsed deck */
  deck_pos pos;     /* the scalar */
} deck_ref;

typedef enum {
  JOINT_WELD, JOINT_REVOLUTE, JOINT_SPHERICAL, JOINT_PRISMATIC, JOINT_CYLINDRICAL,
  JOINT_UNIVERSAL, JOINT_PLANAR, JOINT_DISTANCE, JOINT_LOCK
} joint_type;

/* lock: which relative DOFs are locked, in the joint frame (bit i: x y z rx ry rz) */
enum { LOCK_X = 1, LOCK_Y = 2, LOCK_Z = 4, LOCK_RX = 8, LOCK_RY = 16, LOCK_RZ = 32 };

/* joints: NAME: { type, nodes: [A, B], at?: p, axis?: v, axes?: [v1, v2], frame?: orientation,
   dofs?: [dx, dy, dz, rx, ry, rz] (x, y, z: old names), points?: [pA, pB] }
   A lock may also name nodes: [A, B, C, ...] or beam: NAME: one lock per locked node once
   parsed (deck_lock.h), so a parsed deck has only 2-node joints.
   Joint frame (origin at, axes = columns of R, local -> global):
     revolute, prismatic, cylindrical: e3 = axis (required), e1, e2 completed;
     planar: e3 = axis = the plane's normal (required);
       (completion, deterministic: g = the global axis with the smallest |e3 . g|, the
       first of x, y, z on ties; e1 = unit(g - (g . e3) e3); e2 = e3 x e1)
     universal: axes = [a1 on A, a2 on B], not parallel; e3 = unit(a1 x a2) (the locked
       relative rotation); e1 = a1, e2 = e3 x e1;
     weld, spherical, lock: R = frame (identity when absent);
     distance: no frame; points = [pA, pB] on A and B (default: the nodes' positions),
       at least 1e-9 m apart (checked by model_build when defaulted).
   Relative motion of B with respect to A at the origin: v = v_B(at) - v_A(at),
   w = w_B - w_A; a joint locks (in frame axes): weld v1 v2 v3 w1 w2 w3; revolute v1 v2 v3
   w1 w2; spherical v1 v2 v3; prismatic v1 v2 w1 w2 w3; cylindrical v1 v2 w1 w2;
   universal v1 v2 v3 w3; planar v3 w1 w2; lock the chosen DOFs; distance
   (pB - pA)^T (v_B(pB) - v_A(pA)) / |pB - pA|. */
typedef struct deck_joint {
  char *name;
  joint_type type;
  deck_ref node[2];     /* A, B; either (not both) may be "ground" */
  int has_at;
  double at[3];         /* frame origin [m]; default: position of node B (A if B is ground) */
  double R[9];          /* frame axes as above */
  int lock_mask;        /* lock only: LOCK_* bits, at least one */
  int has_points;
  double points[6];     /* distance only: pA, pB [m] */
  deck_pos pos;         /* the name key */
  deck_pos pos_axis;    /* axis/axes/frame value, for messages about the frame; 0 if absent */
  deck_pos pos_at;      /* the at value; 0 if absent */
  int nmore;            /* lock on several nodes (deck_lock.c): nodes[2..] of the list, */
  deck_ref *more;       /*   owned; expanded into one lock per node by deck_model_finish */
  deck_ref beam;        /* lock `beam: NAME` (deck_lock.c): name NULL when absent */
} deck_joint;

typedef enum {
  FORCE_SPRING,             /* translational spring-damper between two points */
  FORCE_ROTATIONAL_SPRING,  /* rotational spring-damper about an axis */
  FORCE_BUSHING,            /* linear 6x6 stiffness and damping in a frame */
  FORCE_POINT,              /* point force on one node */
  FORCE_TORQUE              /* point torque on one node */
} force_type;

/* forces: NAME: { type: spring, nodes: [A, B], points?: [pA, pB], k, c?, free_length?,
                   preload? }
                 { type: rotational_spring, nodes: [A, B], axis, k, c?, preload? }
                 { type: bushing, nodes: [A, B], at?, frame?, stiffness: [6] | 6x6,
                   damping?: [6] | 6x6 }
                 { type: force, node: A, at?: p, value: [fx, fy, fz], frame?: global | body }
                 { type: torque, node: A, value: [tx, ty, tz], frame?: global | body } */
typedef struct deck_force {
  char *name;
  force_type type;
  int nnodes;            /* 2 for spring, rotational_spring, bushing; 1 for force, torque */
  deck_ref node[2];      /* ground allowed for one of two */
  int has_points;
  double points[6];      /* spring: attachment points pA, pB [m] (default node positions;
                            required for a ground end) */
  double k, c;           /* spring [N/m], [N s/m]; rotational [N m/rad], [N m s/rad]; >= 0 */
  int has_free_length;
  double free_length;    /* [m], >= 0; default: the current distance (no elastic force) */
  double preload;        /* spring: tension [N] at the free length (force = preload +
                            k (L - L0)); rotational: torque [N m]; default 0 */
  double axis[3];        /* rotational spring: unit axis; the spring acts on w_B - w_A
                            along it; its preload torque acts on B about it, -on A */
  int has_at;
  double at[3];          /* bushing frame origin / force point [m]; default: node (B) */
  double R[9];           /* bushing frame (local -> global); identity when not given */
  double K6[36], C6[36]; /* bushing: row-major 6x6 in frame axes on (v1 v2 v3 w1 w2 w3) of
                            B relative to A; K6 symmetric positive semi-definite */
  double value[3];       /* force [N] or torque [N m] */
  int body_fixed;        /* 1: value is in the node's axes and turns with it (follower) */
  deck_pos pos;          /* the name key */
} deck_force;

/* masses: NAME: { node: REF, mass, inertia?, offset? } -- a point mass (with its own
   rotational inertia) rigidly attached to a node: its centre of mass at node + offset
   (global axes, a massless rigid arm). Read by deck_masses.c. */
typedef struct deck_mass {
  char *name;
  deck_ref node;    /* a body or beam node, not ground */
  double mass;      /* [kg], > 0 */
  double J[9];      /* inertia about its centre of mass, global axes [kg m^2]; zero by
                       default; checked as a body's */
  double offset[3]; /* [m], from the node to the centre of mass, global axes; 0 default */
  deck_pos pos;     /* the name key */
} deck_mass;

typedef struct deck_model {
  int present;                   /* 1: the deck describes a model (not matrices) */
  int has_damping;               /* 1: a material with alpha or beta > 0, a spring or
                                    rotational spring with c > 0, or a bushing with a
                                    non-zero damping entry, or a body or beam spinning
                                    at a non-zero speed (deck_spin.c: its gyroscopic
                                    matrix enters R) (the complex stage's default) */
  double gravity[3];             /* [m/s^2], default 0 */
  int nmaterials, nsections, nbodies, nbeams, njoints, nforces;
  deck_material *materials;
  deck_section *sections;
  deck_body *bodies;
  deck_beam *beams;
  deck_joint *joints;
  deck_force *forces;
  int nmasses;                   /* masses: (deck_masses.c) */
  deck_mass *masses;
  int planar;                    /* planar: 0 none; PLANAR_XY, PLANAR_YZ, PLANAR_ZX
                                    (deck_masses.c): every node stays in that plane */
  deck_pos pos_planar;           /* the planar value, for messages */
} deck_model;

/* planar: the plane a whole model moves in; its normal's translation and the two
   rotations about in-plane axes are locked at every node (model_build, planar.c). */
enum { PLANAR_NONE = 0, PLANAR_XY = 1, PLANAR_YZ = 2, PLANAR_ZX = 3 };

/* ---- for deck.c: the readers of the model keys of the root mapping (deck_model.c) ----
   They take deck_yaml.h's parse context and field row (declared there; only src/deck
   calls these). Each returns 0, MB_EDECK or MB_ENOMEM with the error in the context. */

struct deck_ctx;
struct deck_field;
struct yaml_node_s;

/* units: SI (F_FN) */
int deck_model_units (struct deck_ctx *c, const char *sec, struct deck_field *f);
/* gravity: [gx, gy, gz] [m/s^2] into (double *) f->dst (F_FN) */
int deck_model_gravity (struct deck_ctx *c, const char *sec, struct deck_field *f);
/* materials, sections, bodies, beams, joints, forces: NAME -> object mappings (F_MAP);
   each array is owned by the deck (deck_model_clear frees it) */
int deck_model_materials (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
int deck_model_sections (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
int deck_model_bodies (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
int deck_model_beams (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
int deck_model_joints (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
int deck_model_forces (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);
/* After the root walk of a model deck: 'units' given (units_key), at least one body or
   beam, names of bodies, beams and beam nodes unique; sets model.present. root is the
   root mapping (position for missing keys). */
int deck_model_finish (struct deck_ctx *c, const struct yaml_node_s *root,
                       const struct yaml_node_s *units_key);
/* Frees what the model sections allocated and zeroes *m. */
void deck_model_clear (deck_model *m);

#endif
