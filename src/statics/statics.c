/* statics.c: the static stage's entry: the method the deck asks for. */
#include "statics.h"

int statics_solve (MPI_Comm comm, const statics_problem *p, const deck_statics *par,
                   FILE *log, statics_result *res, mb_err *err)
{
  if (par->method == STATICS_MKEAM) return statics_mkeam (comm, p, par, log, res, err);
  return statics_fim (comm, p, par, par->max_num_iter, 0, log, res, err);
}
