/*===- CkptRuntime.h - ckpt runtime C ABI --------------------------*- C
-*-===*\
|*                                                                            *|
|* The ckpt runtime: allocation hooks for code lowered with                   *|
|* finalize-memref-to-llvm{use-generic-functions=true}, with live and peak    *|
|* byte accounting. Tests and tools read the real peak from here.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_CKPTRUNTIME_H
#define CKPT_RUNTIME_CKPTRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How bytes are counted.
 *
 * Every allocation is counted with the size the compiled code requests, which
 * is the memory the program really holds:
 * - `_mlir_memref_to_llvm_aligned_alloc(alignment, size)` (the ckpt pipelines
 *   use `use-aligned-alloc=true`): `size` is the buffer size rounded up to a
 *   multiple of the alignment (64 B for buffers from bufferization), so a
 *   4096 B tensor counts 4096 B and a 100 B one counts 128 B.
 * - `_mlir_memref_to_llvm_alloc(size)` (plain generic allocation): when the
 *   memref has an alignment, MLIR requests size + alignment and aligns the
 *   pointer itself; that padding is counted, since it is held.
 * Bytes are released on `_mlir_memref_to_llvm_free`. Allocator metadata and
 * the host allocator's own rounding are not counted. */

/** Allocation hook called by lowered code (plain generic allocation). */
void *_mlir_memref_to_llvm_alloc(size_t sizeBytes);
/** Allocation hook called by lowered code with `use-aligned-alloc=true`. */
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignmentBytes,
                                         size_t sizeBytes);
/** Deallocation hook called by lowered code. */
void _mlir_memref_to_llvm_free(void *ptr);

/** Highest number of bytes live at once since start or the last reset. */
int64_t ckpt_runtime_peak_bytes(void);
/** Bytes allocated and not yet freed. */
int64_t ckpt_runtime_live_bytes(void);
/** Number of allocations since start or the last reset. */
int64_t ckpt_runtime_allocation_count(void);
/** Number of frees of pointers the runtime did not allocate (a bug). */
int64_t ckpt_runtime_unknown_free_count(void);
/** Starts a new measurement: the peak becomes the bytes live now and the
 * allocation count restarts at zero. Live buffers stay tracked. */
void ckpt_runtime_reset(void);
/** Bytes of freed buffers the runtime keeps for reuse. With
 * CKPT_RUNTIME_CACHE=1, buffers of 64 KiB or more are kept when freed and
 * handed out again for the same size, so a step run again does not map, fault
 * and zero fresh pages; live plus cached bytes never exceed the most bytes
 * live at once so far. Off by default: it makes one-thread CNN steps faster,
 * but two-thread ones were slower in some processes and not in others. */
int64_t ckpt_runtime_cached_bytes(void);
/** Frees every cached buffer. */
void ckpt_runtime_release_cache(void);
/** Prints one report line to stdout:
 * `ckpt-runtime: peak_bytes=P live_bytes=L allocations=A unknown_frees=U`. */
void ckpt_runtime_print_report(void);

/* Setting CKPT_RUNTIME_REPORT prints the same line when the process exits:
 * `stdout` or `1` to standard output, `stderr` to standard error, anything
 * else is a file path the line is appended to. */

#ifdef __cplusplus
}
#endif

#endif /* CKPT_RUNTIME_CKPTRUNTIME_H */
