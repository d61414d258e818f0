//===- CGlue.h - C sources around an ahead-of-time compiled entry -*- C++
//-*-===//
//
// ckpt-compile compiles the entry function to an object exposing MLIR's C
// interface (`_mlir_ciface_<entry>`, memref descriptors by pointer). These
// functions write the C that surrounds it: a header describing the entry
// (argument order, shapes, element types) with a plain C ABI over contiguous
// buffers, its implementation, and the driver `main` of an executable.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TOOLS_CKPTCOMPILE_CGLUE_H
#define CKPT_TOOLS_CKPTCOMPILE_CGLUE_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace ckpt::aot {

/// Where the compiled entry runs.
enum class Backend {
  /// Host code; buffers come from libckpt_runtime's allocation hooks.
  Cpu,
  /// Host code launching CUDA kernels; buffers are managed memory from
  /// libckpt_cuda_runtime (`mgpuMemAlloc`), counted as device memory.
  Cuda,
};

/// `cpu` or `cuda`.
llvm::StringRef getBackendName(Backend backend);

/// The entry as the C sources see it.
struct EntrySignature {
  std::string name;
  llvm::SmallVector<mlir::RankedTensorType> arguments, results;
  Backend backend = Backend::Cpu;
  /// The CPU build's thread count (its OpenMP team above 1).
  unsigned threads = 1;
};

/// Returns the C element type for `type` (`float`, `double`, `int8_t`,
/// `int32_t`, `int64_t`), or an empty string when it has none.
std::string getCElementType(mlir::Type type);

/// Writes `ckpt_<entry>.h`: sizes, ranks, shapes and element types of the
/// arguments and results, and
///   int ckpt_<entry>(const void *const *inputs, void *const *outputs);
/// which reads each input from a contiguous row-major buffer, writes each
/// output into a caller-provided buffer of its size and returns 0. For the
/// CUDA backend the buffers may be host or device memory (the runtime copies
/// between them), and the header also declares `ckpt_<entry>_device`, which
/// reads inputs in place from memory kernels can reach (device or managed)
/// instead of staging them.
void writeHeader(llvm::raw_ostream &os, const EntrySignature &entry);

/// Writes the implementation of the header's function (it builds memref
/// descriptors, calls `_mlir_ciface_<entry>`, copies the results out and
/// frees what the call allocated through the runtime; on CUDA it stages the
/// inputs into managed memory first).
void writeGlue(llvm::raw_ostream &os, const EntrySignature &entry,
               llvm::StringRef headerName);

/// Writes a `main` that does what `ckpt-run` does: fills the inputs from a
/// seed with the same generator (allocated through the runtime, so they
/// count), runs the entry N times (`--iterations=N --seed=S` on its command
/// line) and prints the median step time, the peak bytes the runtime
/// measured and each output's FNV-1a checksum and sum, in ckpt-run's format.
/// `--dump-outputs=FILE` writes the outputs' bytes, in order, to FILE;
/// `--signature` prints the entry's JSON description and exits.
void writeDriver(llvm::raw_ostream &os, const EntrySignature &entry);

} // namespace ckpt::aot

#endif // CKPT_TOOLS_CKPTCOMPILE_CGLUE_H
