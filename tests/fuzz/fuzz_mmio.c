/* fuzz_mmio.c: libFuzzer target: mmio_parse on arbitrary bytes must fail cleanly or be valid. */
#include "linalg/mmio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parses data[0..size) as a Matrix Market file. Any input may be rejected, but a crash, a
   leak, a read past size (the bytes are not NUL-terminated) or an accepted matrix with an
   index out of range or a non-finite value is a bug: abort so libFuzzer keeps the input. */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  spm *A = NULL;
  mb_err err;
  mb_err_init (&err);
  int rc = mmio_parse ((const char *) data, size, "fuzz.mtx", &A, &err);
  if (rc == 0) {
    if (!A || A->nrows < 1 || A->ncols < 1 || A->nnz < 0 || A->nnz > A->nzmax) abort ();
    for (long k = 0; k < A->nnz; k++)
      if (A->row[k] < 0 || A->row[k] >= A->nrows || A->col[k] < 0 || A->col[k] >= A->ncols
          || !isfinite (A->val[k]))
        abort ();
  } else {
    /* a rejected input leaves *A alone and always says what and where */
    if (A || err.code != rc || err.msg[0] == '\0') abort ();
    if (rc == MB_EDECK && strncmp (err.where, "fuzz.mtx:", 9) != 0) abort ();
  }
  spm_free (A);
  return 0;
}
