/* vtk.h: mode shapes for ParaView: one XML UnstructuredGrid file (.vtu) per eigen stage. */
#ifndef MB_VTK_H
#define MB_VTK_H

#include "../eigen/eigen.h"
#include "../error.h"
#include "../model/model.h"

/* Writes the modes of r on the model's geometry to path (NAME.modal.vtu or
   NAME.complex.vtu; the folder must exist), replacing it when complete (temporary file
   and rename, writer.c; never over an input of the run). ASCII VTK XML (version 0.1,
   as VTK 9 writes it), numbers with 17 significant digits; ParaView opens it directly.

   Points: the model's nodes in DOF order (position [m]), then one fixed point for each
   ground end of a two-node force element whose attachment point is off its other node.
   Cells: each beam element a VTK_LINE, each body a VTK_VERTEX, each spring, rotational
   spring or bushing a VTK_LINE between its two nodes (to its ground point; a VTK_VERTEX
   when that coincides with the node).
   Cell data: `part` (Int32, 0-based index in model_parts order: bodies, beams, force
   elements), `kind` (Int32: 0 body, 1 beam, 2 force element).
   Point data: `node_id` (Int32, the node index i: DOFs 6i .. 6i+5; -1 on ground points),
   and per mode k (2 digits, more when there are >= 100 modes) with its vector:
   modal `mode_01` (dx, dy, dz) and `mode_01_rotation` (rx, ry, rz); complex
   `mode_01_re`, `mode_01_im`, `mode_01_rotation_re`, `mode_01_rotation_im` (zero on
   ground points). The first translation field is the active vector (Warp By Vector).
   Field data: `mode` (Int32 mode numbers), `frequency_hz` [Hz], `eigenvalue` (modal
   omega^2 [rad^2/s^2]; complex [re, im] [1/s], 2 components), complex stage also
   `damping_ratio` [-] and `damped_frequency_hz` [Hz]; `part_name` and `node_name`
   (String arrays indexed by `part` and `node_id`).
   Non-finite numbers (never in a correct run) are written as 0.
   r->n must be 6 mdl->nnodes. mdl and r are borrowed. Returns 0, MB_EIO naming path
   (cannot write, or a model that does not match r) or MB_ENOMEM. Rank 0 only. */
int vtk_write_modes (const char *path, const model *mdl, const eigen_result *r, mb_err *err);

#endif
