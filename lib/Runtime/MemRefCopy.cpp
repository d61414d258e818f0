//===- MemRefCopy.cpp - memref.copy for ahead-of-time builds --------------===//
//
// The LLVM lowering turns a `memref.copy` between memrefs that are not both
// contiguous (a strided view, e.g. a slice of a padded buffer) into a call to
// `memrefCopy`, which the JIT resolves from MLIR's C runner utilities. An
// ahead-of-time build carries no MLIR library, so the project runtimes
// define it: the same C ABI (element size, then the source and destination
// as unranked memref descriptors), a plain strided copy. Buffers may be
// host memory or CUDA managed memory (host code reads and writes both).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/MemRefCopy.h"

#include <cstring>

namespace {

/// A ranked descriptor's fields, addressed through an unranked one.
struct DescriptorView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  DescriptorView(int64_t rank, void *descriptor) {
    auto *words = static_cast<int64_t *>(descriptor);
    aligned = reinterpret_cast<char *>(words[1]);
    offset = words[2];
    sizes = words + 3;
    strides = words + 3 + rank;
  }
};

/// Whether the elements are laid out densely in row-major order.
bool isContiguous(int64_t rank, const DescriptorView &view) {
  int64_t expected = 1;
  for (int64_t dim = rank - 1; dim >= 0; --dim) {
    if (view.sizes[dim] != 1 && view.strides[dim] != expected)
      return false;
    expected *= view.sizes[dim];
  }
  return true;
}

} // namespace

extern "C" void memrefCopy(int64_t elementBytes, CkptUnrankedMemRef *source,
                           CkptUnrankedMemRef *destination) {
  int64_t rank = source->rank;
  DescriptorView from(rank, source->descriptor);
  DescriptorView to(rank, destination->descriptor);
  int64_t count = 1;
  for (int64_t dim = 0; dim < rank; ++dim)
    count *= from.sizes[dim];
  if (count == 0)
    return;
  char *src = from.aligned + from.offset * elementBytes;
  char *dst = to.aligned + to.offset * elementBytes;
  if (isContiguous(rank, from) && isContiguous(rank, to)) {
    std::memmove(dst, src, count * elementBytes);
    return;
  }
  // Walk the index space in row-major order with an odometer.
  int64_t index[16] = {0};
  if (rank > 16)
    return; // Memrefs of higher rank do not occur in lowered ckpt programs.
  int64_t srcOffset = 0, dstOffset = 0;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(dst + dstOffset * elementBytes, src + srcOffset * elementBytes,
                elementBytes);
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      srcOffset += from.strides[dim];
      dstOffset += to.strides[dim];
      if (++index[dim] < from.sizes[dim])
        break;
      srcOffset -= from.strides[dim] * from.sizes[dim];
      dstOffset -= to.strides[dim] * from.sizes[dim];
      index[dim] = 0;
    }
  }
}
