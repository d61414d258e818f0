/*===- MemRefDescriptors.h - memref descriptors as C sees them ---*- C -*-===//
 *
 * The descriptors MLIR's C interface (`llvm.emit_c_interface`) passes by
 * pointer for the memref arguments of the runtimes' GEMMs and attention calls.
 *
 *===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_MEMREFDESCRIPTORS_H
#define CKPT_RUNTIME_MEMREFDESCRIPTORS_H

#include <stdint.h>

/** A rank-2 memref descriptor as MLIR lays it out. */
typedef struct CkptMemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} CkptMemRef2D;

/** A rank-3 memref descriptor (leading batch dimension). */
typedef struct CkptMemRef3D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[3];
  int64_t strides[3];
} CkptMemRef3D;

/** A rank-4 memref descriptor ([batch, heads, rows, columns] views). */
typedef struct CkptMemRef4D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[4];
  int64_t strides[4];
} CkptMemRef4D;

#endif /* CKPT_RUNTIME_MEMREFDESCRIPTORS_H */
