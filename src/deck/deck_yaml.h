/* deck_yaml.h: internal to src/deck: the YAML walking helpers (deck_yaml.c) that deck.c
   (the root schema, eigen and output sections) and deck_model.c (the model sections)
   share; neither of those two uses the other's helpers. Not for other modules. */
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
  const yaml_node_t *reference_key;  /* key of output.reference_point when given, else NULL */
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
  const char *cap;          /* F_INT: non-NULL when hi is a limit of mbmodal rather than of
                               the quantity, and .range does not show it: why it exists,
                               for the message "'modes' must be at most 1000000 (why)" */
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
/* scalar v -> finite double within f's range; name is the key shown in messages. Any
   length: a 90-digit literal is the number strtod reads from it (a text longer than 255
   bytes is copied to the heap for strtod, so MB_ENOMEM is possible). */
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

/* ---- sequences, mappings, numbers ---- */

/* number of items of sequence v */
long deck_seq_len (const yaml_node_t *v);
/* item i of sequence v (NULL when the document is malformed) */
const yaml_node_t *deck_seq_item (deck_ctx *c, const yaml_node_t *v, long i);
/* number of pairs of mapping v */
long deck_map_len (const yaml_node_t *v);
/* the value of the first pair of mapping map whose key is key (its key node into *kn), or
   NULL: for a key read before the walk, such as a joint's 'type' */
const yaml_node_t *deck_map_find (deck_ctx *c, const yaml_node_t *map, const char *key,
                                  const yaml_node_t **kn);
/* the later (in document order) of two nodes */
const yaml_node_t *deck_later (const yaml_node_t *a, const yaml_node_t *b);
/* v, the value of key `key` (key node k, or NULL), -> n finite numbers out[0..n)
   ("key[i]" in messages) */
int deck_get_numbers (deck_ctx *c, const char *sec, const yaml_node_t *k,
                      const yaml_node_t *v, const char *key, int n, double *out);

/* ---- testing hook: the schema as the parser meets it ----
   With a tracer set, deck_walk reports every row of each field table it has walked
   successfully (present or not), and deck_get_int / deck_get_real report every number
   they are about to read, with its range and the byte span of its scalar. A test can so
   list every key of the schema and every numeric value of a deck from the parser's own
   tables, and a key added to a table is listed without changing the test. */
typedef struct deck_trace_row {
  const char *sec;          /* message context of the table (NULL: the root mapping) */
  const char *key;          /* table: the key; number: the name in messages ("axis[2]") */
  int number;               /* 0: a row of a field table; 1: a number about to be read */
  int type;                 /* table: enum deck_ftype; number: F_INT or F_REAL */
  int present, unused;      /* table: key given in the mapping; key marked not used */
  double lo, hi;            /* number: accepted range of the number itself (cross-key rules
                               such as subspace >= modes + 2 come on top) */
  int lo_open, hi_open;
  size_t start, end;        /* number: the scalar's text, mark indexes [start, end) */
  size_t line, col;         /* number: 1-based position */
} deck_trace_row;
typedef void (*deck_trace_fn) (const deck_trace_row *row, void *arg);
/* Sets the tracer (NULL: none, the default). Not thread safe; for tests only. */
void deck_test_trace (deck_trace_fn fn, void *arg);

/* The model sections' readers (deck_model_units ... deck_model_clear) are declared in
   deck_model.h, for deck.c's root table. */

#endif
