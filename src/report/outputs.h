/* outputs.h: the files a run reads and writes, checked before any stage runs: output
   folders made and found writable, no output over an input, paths of any length. */
#ifndef MB_OUTPUTS_H
#define MB_OUTPUTS_H

#include "../deck/deck.h"
#include "../error.h"

/* Before any stage of a run: records the run's inputs as protected (writer_protect): the
   deck file deck_path and, for a matrix deck, its K, M, R and Cq files; then checks
   (writer_check_folder) the output folder outdir for the reports of the enabled stages,
   NAME.static.yaml (a model deck with a statics section), NAME.modal.yaml and
   NAME.complex.yaml (NAME = d->output.name), with NAME.STAGE.vtu
   for a model deck with output.vtk and NAME.STAGE.csv with output.csv, and, when export_dir is not NULL, the export folder
   for K.mtx, M.mtx, R.mtx, Cq.mtx, dofs.csv, constraints.csv and deck.yaml. Each folder
   is created (mkdir -p), must take a new file, and no output may be an input. Ignores
   SIGXFSZ (a file-size limit then fails a write with a message, exit 5).
   d is borrowed. Returns 0, MB_EIO naming the path and the reason (a file where the
   folder should be, read-only, a name too long, an output that is an input), or
   MB_ENOMEM. Rank 0 only (the only writer). */
int outputs_prepare (const deck *d, const char *deck_path, const char *outdir,
                     const char *export_dir, mb_err *err);

/* outdir/NAME.STAGE.EXT, e.g. "out/beam.modal.yaml", as a new string (caller frees), of
   any length; NULL when out of memory. */
char *outputs_path (const char *outdir, const char *name, const char *stage, const char *ext);

#endif
