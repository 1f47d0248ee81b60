/* deck_yaml.h: internal to src/deck: the YAML walking helpers that deck.c (schema, scalars,
   keys) and deck_model.c (model sections) share. Not for other modules. */
#ifndef MB_DECK_YAML_H
#define MB_DECK_YAML_H

#include <stddef.h>
#include <yaml.h>

#include "deck.h"

/* One parse: the loaded document, the deck under construction and the error sink. */
typedef struct deck_ctx {
  yaml_document_t *doc;
  const char *path;             /* deck path for messages, never NULL */
  size_t dirlen;                /* length of path's folder prefix, '/' included; 0: none */
  mb_err *err;
  deck *d;                      /* deck under construction */
  const yaml_node_t *cplx_key;  /* key of complex.enabled when given, else NULL */
} deck_ctx;

/* How a key's value is read (deck_walk). */
enum deck_ftype {
  F_TEXT,   /* string, may be empty (null -> NULL) */
  F_STR,    /* non-empty string */
  F_PATH,   /* non-empty string, resolved against the deck's folder unless absolute */
  F_NAME,   /* non-empty string without '/' */
  F_BOOL, F_INT, F_REAL,
  F_PAIR,   /* [real, real] */
  F_MAP,    /* nested mapping read by .section */
  F_FN,     /* any value, converted by .parse */
  F_SKIP    /* accepted and left alone (read before the walk, e.g. a 'type' key) */
};

typedef struct deck_field deck_field;

/* reads the nested mapping map of key sec */
typedef int (*deck_section_fn) (deck_ctx *c, const yaml_node_t *map, const char *sec);
/* converts f->v (key f->k) into f->dst; sec is the message prefix as in deck_walk */
typedef int (*deck_value_fn) (deck_ctx *c, const char *sec, deck_field *f);

/* One key of a mapping, as a table row. */
struct deck_field {
  const char *key;
  int type;                 /* enum deck_ftype */
  void *dst;                /* char **, int *, double *, double[2], or what .parse wants */
  int required;             /* 1: a missing key is an error */
  int no_null;              /* F_MAP: an empty value is an error even when not required */
  double lo, hi;            /* F_INT, F_REAL, F_PAIR: accepted range */
  int lo_open, hi_open;     /* 1: lo (hi) itself is excluded */
  const char *range;        /* the range in words, for messages */
  deck_section_fn section;  /* F_MAP */
  deck_value_fn parse;      /* F_FN */
  const char *unused;       /* non-NULL: a known key that this object does not take, e.g.
                               "a weld joint" -> "'axis' is not used by a weld joint" */
  const yaml_node_t *k, *v; /* set by deck_walk: key and value nodes, NULL when absent */
};

/* Message context ("sec") passed to the helpers: NULL at the top level; a section name
   such as "modal" (messages "modal: ...", "unknown key 'x' in 'modal'"); or an object
   label holding a quote such as "body 'tip'" or "body 'tip': orientation" (messages
   "body 'tip': unknown key 'x'"). */

/* n bytes (at least 1) or NULL, through the test countdown; caller frees */
void *deck_alloc (size_t n);
/* count * size zeroed bytes or NULL (also on overflow); caller frees */
void *deck_calloc (size_t count, size_t size);
/* new copy of s[0..n) with a NUL; NULL when out of memory; caller frees */
char *deck_dup (const char *s, size_t n);

/* "path:line:col: message" at node n (its start mark); returns MB_EDECK */
int deck_fail_at (deck_ctx *c, const yaml_node_t *n, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* as deck_fail_at at a deck position */
int deck_fail_pos (deck_ctx *c, deck_pos p, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* MB_ENOMEM with the deck named */
int deck_no_memory (deck_ctx *c);

/* node i of the document, NULL when out of range */
yaml_node_t *deck_node (deck_ctx *c, int i);
/* 1-based position of a node's start */
deck_pos deck_pos_of (const yaml_node_t *n);
/* 1: plain scalar */
int deck_is_plain (const yaml_node_t *v);
/* 1: YAML null (empty plain scalar, ~, null) */
int deck_is_null (const yaml_node_t *v);
/* 1: scalar v equals s, ASCII case ignored */
int deck_same_nocase (const yaml_node_t *v, const char *s);
/* 1: scalar v equals s exactly */
int deck_same (const yaml_node_t *v, const char *s);
/* at most 40 bytes of s[0..n) for a message, into buf (size >= 44): controls shown as '?',
   a longer text cut before a whole UTF-8 character and followed by "..."; returns buf */
const char *deck_shown_bytes (const unsigned char *s, size_t n, char *buf, size_t size);
/* deck_shown_bytes of scalar v */
const char *deck_shown (const yaml_node_t *v, char *buf, size_t size);
/* "a mapping", "a sequence", "an empty value", "'x'", "the quoted string 'x'" */
const char *deck_describe (const yaml_node_t *v, char *buf, size_t size);
/* Levenshtein distance of a (n bytes) and b, capped at 3 */
int deck_distance (const unsigned char *a, size_t n, const char *b);
/* "sec: " (or "" for NULL) into buf */
void deck_prefix (char *buf, size_t size, const char *sec);

/* "sec: 'name' must be WHAT (got ...)" at v, or at f->k when v is empty; MB_EDECK */
int deck_type_error (deck_ctx *c, const char *sec, const deck_field *f, const yaml_node_t *v,
                     const char *what, const char *name);
/* scalar v -> finite double within f's range; name is the key shown in messages */
int deck_get_real (deck_ctx *c, const char *sec, deck_field *f, const yaml_node_t *v,
                   const char *name, double *out);
/* scalar f->v -> int within f's range into *(int *) f->dst */
int deck_get_int (deck_ctx *c, const char *sec, deck_field *f);
/* scalar f->v -> new string into *(char **) f->dst (rules of F_TEXT..F_NAME) */
int deck_get_text (deck_ctx *c, const char *sec, deck_field *f);

/* Reads the pairs of mapping map in document order: each key must be one of f[0..nf-1],
   appear once and not be marked unused; its value is converted into f[i].dst. Then
   checks the required keys. */
int deck_walk (deck_ctx *c, const yaml_node_t *map, const char *sec, deck_field *f, int nf);

/* ---- deck_model.c: the model keys of the root mapping ---- */

int deck_model_units (deck_ctx *c, const char *sec, deck_field *f);    /* units: SI */
int deck_model_gravity (deck_ctx *c, const char *sec, deck_field *f);  /* [gx, gy, gz] */
int deck_model_materials (deck_ctx *c, const yaml_node_t *map, const char *sec);
int deck_model_sections (deck_ctx *c, const yaml_node_t *map, const char *sec);
int deck_model_bodies (deck_ctx *c, const yaml_node_t *map, const char *sec);
int deck_model_beams (deck_ctx *c, const yaml_node_t *map, const char *sec);
int deck_model_joints (deck_ctx *c, const yaml_node_t *map, const char *sec);
int deck_model_forces (deck_ctx *c, const yaml_node_t *map, const char *sec);
/* After the root walk of a model deck: 'units' given (units_key), at least one body or
   beam, names of bodies, beams and beam nodes unique; sets model.present. root is the
   root mapping (position for missing keys). */
int deck_model_finish (deck_ctx *c, const yaml_node_t *root, const yaml_node_t *units_key);
/* Frees what the model sections allocated and zeroes *m. */
void deck_model_clear (deck_model *m);

#endif
