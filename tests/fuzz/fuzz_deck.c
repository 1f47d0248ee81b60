/* fuzz_deck.c: libFuzzer target: deck_parse on arbitrary bytes must fail cleanly or succeed. */
#include "deck/deck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parses data[0..size) as a YAML deck (the bytes are not NUL-terminated), then clears the
   deck, also after a failure, as deck.h asks. A crash, a leak or an error without a message
   is a bug: abort so libFuzzer keeps the input. */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  deck d;
  mb_err err;
  memset (&d, 0, sizeof d);
  mb_err_init (&err);
  int rc = deck_parse ((const char *) data, size, "fuzz/deck.yaml", &d, &err);
  if (rc < 0 && (err.code != rc || err.msg[0] == '\0')) abort ();
  deck_clear (&d);
  return 0;
}
