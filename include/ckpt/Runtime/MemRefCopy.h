/*===- MemRefCopy.h - memref.copy entry point of the ckpt runtimes -*- C -*-===*\
|*                                                                            *|
|* `memrefCopy` as lowered MLIR code calls it for copies between memrefs     *|
|* that are not both contiguous. MLIR's C runner utilities define it for     *|
|* the JIT; libckpt_runtime and libckpt_cuda_runtime define it too, so that  *|
|* ahead-of-time builds need no MLIR library.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_MEMREFCOPY_H
#define CKPT_RUNTIME_MEMREFCOPY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An unranked memref as the lowering passes it: the rank and a pointer to
 * the ranked descriptor (allocated, aligned, offset, sizes[rank],
 * strides[rank]). */
typedef struct CkptUnrankedMemRef {
  int64_t rank;
  void *descriptor;
} CkptUnrankedMemRef;

/** Copies every element of `source` into `destination` (same shape, any
 * strides; `elementBytes` per element). Memrefs of rank above 16 are not
 * supported (nothing is copied). */
void memrefCopy(int64_t elementBytes, CkptUnrankedMemRef *source,
                CkptUnrankedMemRef *destination);

#ifdef __cplusplus
}
#endif

#endif /* CKPT_RUNTIME_MEMREFCOPY_H */
