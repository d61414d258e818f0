//===- ckpt-run.cpp - run a function on deterministic inputs --------------===//
//
// Compiles a module with ckpt-cpu-pipeline (or ckpt-gpu-pipeline for
// --backend=cuda), JIT-runs one entry function on deterministic pseudo-random
// inputs of its argument types and reports the median step time, the peak
// bytes measured by libckpt_runtime (device bytes measured by
// libckpt_cuda_runtime) and bit-exact checksums of the outputs. With --compare,
// it does so without and with remat in one process and checks the remat build:
// outputs bit-identical, measured peak within the budget.
//
//===----------------------------------------------------------------------===//

#include "EntryModule.h"
#include "HostTarget.h"
#include "RuntimeLibrary.h"
#include "ckpt/Analysis/TensorBytes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Remat/RematOptions.h"
#include "ckpt/Runtime/CkptRuntime.h"
#include "ckpt/Support/LargeStack.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unistd.h>
#include <vector>

using namespace mlir;

namespace cl = llvm::cl;

static cl::OptionCategory runCategory("ckpt-run options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::Required, cl::cat(runCategory));
static cl::opt<std::string> entryName("entry", cl::desc("Function to run"),
                                      cl::Required, cl::cat(runCategory));
static cl::opt<std::string>
    backend("backend",
            cl::desc("Execution backend: cpu, or cuda (ckpt-gpu-pipeline, "
                     "libckpt_cuda_runtime; needs a CUDA driver and GPU)"),
            cl::init("cpu"), cl::cat(runCategory));
static cl::opt<unsigned>
    threads("num-threads",
            cl::desc("CPU backend: threads the step runs on, its GEMMs "
                     "(--gemm=blas) and its parallel loops (above 1: OpenMP, "
                     "libomp loaded into the JIT)"),
            cl::init(1), cl::cat(runCategory));
static cl::opt<bool> gpuMapping(
    "gpu-mapping",
    cl::desc("CPU backend: map linalg ops to GPU blocks and threads as the "
             "CUDA pipeline does and run those loops on the CPU (checks the "
             "kernels' indexing and reductions without a GPU)"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<std::string>
    gemm("gemm",
         cl::desc("CPU backend: how f32/f64 matmul-like ops run, 'codegen' "
                  "(loops) or 'blas' (oneDNN and OpenBLAS through "
                  "libckpt_blas_runtime; "
                  "ckpt-cpu-pipeline's gemm option)"),
         cl::init("codegen"), cl::cat(runCategory));
static cl::opt<bool>
    libmMath("libm-math",
             cl::desc("CPU backend: f32 exp, log, log1p, expm1, tanh and erf "
                      "through libm (one call per element) instead of "
                      "vectorized polynomial approximations"),
             cl::init(false), cl::cat(runCategory));
static cl::opt<unsigned> iterations("iterations",
                                    cl::desc("Timed runs (median reported)"),
                                    cl::init(5), cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the input values"),
                              cl::init(1), cl::cat(runCategory));
static cl::opt<bool> compare(
    "compare",
    cl::desc("Run without remat and with --remat-budget (several budgets "
             "separated by commas) in one process; print the peak and "
             "step-time ratios and whether the outputs "
             "are bit-identical; fail unless they are and the measured peak "
             "is within the budget"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<bool>
    raw("raw",
        cl::desc("Print the outputs only as the machine-readable lines "
                 "(`output #N TYPE checksum=... sum=...`), without the named "
                 "values and norms above them"),
        cl::init(false), cl::cat(runCategory));
static cl::list<std::string> sharedLibs(
    "shared-libs",
    cl::desc("Libraries the module calls into (default: the MLIR runner "
             "utilities, for printMemref and friends)"),
    cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level of the JIT, 0 to 3 (default 2, as "
             "ckpt-compile; 0 compiles fastest, for checks of outputs and "
             "peaks rather than of speed)"),
    cl::init(2), cl::cat(runCategory));
static cl::opt<std::string>
    dumpOutputs("dump-outputs",
                cl::desc("Write the raw bytes of every output to this file"),
                cl::init(""), cl::cat(runCategory));
/// ckpt-remat's options as --remat-KEY (RematOptions.def).
static mlir::ckpt::RematCommandLineFlags rematFlags(runCategory);

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "ckpt-run: error: " << message << "\n";
  std::exit(1);
}

/// splitmix64: a small, well-mixed deterministic generator.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1), exactly representable in f32.
  double symmetric() { return ((next() >> 40) * 0x1.0p-24) * 2.0 - 1.0; }
};

/// One tensor argument or result as a memref descriptor: allocated and
/// aligned pointers, offset, sizes and strides (identity layout).
struct Descriptor {
  void *allocated = nullptr;
  void *aligned = nullptr;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
};

/// FNV-1a over bytes: equal checksums mean bit-identical outputs.
uint64_t fnv1a(const uint8_t *data, size_t size) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 0x100000001B3ull;
  return hash;
}

void fillDeterministic(void *data, RankedTensorType type, SplitMix64 &rng) {
  int64_t count = type.getNumElements();
  Type element = type.getElementType();
  for (int64_t i = 0; i < count; ++i) {
    if (element.isF32())
      static_cast<float *>(data)[i] = static_cast<float>(rng.symmetric());
    else if (element.isF64())
      static_cast<double *>(data)[i] = rng.symmetric();
    else if (element.isInteger(1) || element.isInteger(8))
      static_cast<uint8_t *>(data)[i] = rng.next() % 2;
    else if (element.isInteger(32))
      static_cast<int32_t *>(data)[i] = rng.next() % 16;
    else if (element.isInteger(64) || element.isIndex())
      static_cast<int64_t *>(data)[i] = rng.next() % 16;
    else
      fail(llvm::formatv("unsupported argument element type in {0}", type));
  }
}

/// What one compiled build measured.
struct Measurement {
  std::vector<double> seconds;
  int64_t peakBytes = 0;
  std::vector<uint64_t> checksums;
  std::vector<double> sums;
  /// L2 norm and largest magnitude of each floating-point output.
  std::vector<double> norms, maxima;
  /// Raw bytes of the outputs of the last iteration (with --dump-outputs).
  std::string dump;

  double medianSeconds() const {
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
  double minSeconds() const {
    return *std::min_element(seconds.begin(), seconds.end());
  }
};

/// How the measured program's memory is allocated, freed and measured: the
/// host runtime (libckpt_runtime, linked) or the CUDA runtime
/// (libckpt_cuda_runtime, loaded at run time so that ckpt-run itself does not
/// need a CUDA driver).
struct RuntimeHooks {
  void *(*allocateInput)(size_t bytes);
  void (*free)(void *ptr);
  int64_t (*peakBytes)();
  void (*reset)();
  int64_t (*unknownFrees)();
  /// Libraries the JIT resolves the program's runtime calls from.
  std::vector<std::string> libraries;
};

RuntimeHooks getHostHooks() {
  RuntimeHooks hooks;
  hooks.allocateInput = [](size_t bytes) {
    return _mlir_memref_to_llvm_aligned_alloc(ckpt::kBufferAlignmentBytes,
                                              ckpt::getAllocationBytes(bytes));
  };
  hooks.free = _mlir_memref_to_llvm_free;
  hooks.peakBytes = ckpt_runtime_peak_bytes;
  hooks.reset = ckpt_runtime_reset;
  hooks.unknownFrees = ckpt_runtime_unknown_free_count;
  if (gemm == "blas") {
#ifdef CKPT_BLAS_RUNTIME_LIBRARY
    hooks.libraries.push_back(
        mlir::ckpt::tools::locateRuntimeLibrary(CKPT_BLAS_RUNTIME_LIBRARY));
#else
    fail("--gemm=blas: this ckpt-run was built without OpenBLAS (no "
         "libckpt_blas_runtime)");
#endif
  }
  if (threads > 1) {
#ifdef CKPT_OPENMP_LIBRARY
    hooks.libraries.push_back(CKPT_OPENMP_LIBRARY);
#else
    fail("--num-threads=" + std::to_string(threads) +
         ": this ckpt-run was built without LLVM's libomp");
#endif
  }
  return hooks;
}

#ifdef CKPT_CUDA_RUNTIME_LIBRARY
} // namespace
/// The CUDA driver's stream type, opaque here: the pointer types below must
/// be the runtime's exact function types (UBSan checks calls through them).
struct CUstream_st;
namespace {
/// `mgpuMemAlloc` and `mgpuMemFree` as the CUDA runtime defines them.
using CudaAlloc = void *(*)(uint64_t, CUstream_st *, bool);
using CudaFree = void (*)(void *, CUstream_st *);
CudaAlloc cudaAlloc;
CudaFree cudaFree;
#endif

/// Loads libckpt_cuda_runtime (which needs libcuda.so.1) and returns its
/// hooks; fails with a message naming what is missing.
RuntimeHooks getCudaHooks() {
#ifndef CKPT_CUDA_RUNTIME_LIBRARY
  fail("--backend=cuda: this ckpt-run was built without a CUDA toolkit "
       "(no libckpt_cuda_runtime)");
#else
  static const std::string runtimePath =
      mlir::ckpt::tools::locateRuntimeLibrary(CKPT_CUDA_RUNTIME_LIBRARY);
  std::string error;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      runtimePath.c_str(), &error);
  if (!library.isValid())
    fail("--backend=cuda: cannot load the CUDA runtime (" + error +
         "); a CUDA driver (libcuda.so.1) and a GPU are needed");
  auto symbol = [&](const char *name) {
    void *address = library.getAddressOfSymbol(name);
    if (!address)
      fail(llvm::Twine("--backend=cuda: ") + runtimePath + " has no '" + name +
           "'");
    return address;
  };
  cudaAlloc = reinterpret_cast<CudaAlloc>(symbol("mgpuMemAlloc"));
  cudaFree = reinterpret_cast<CudaFree>(symbol("mgpuMemFree"));
  RuntimeHooks hooks;
  // Managed memory: the host fills the inputs and reads the results.
  hooks.allocateInput = [](size_t bytes) {
    return cudaAlloc(bytes, nullptr, /*isHostShared=*/true);
  };
  hooks.free = [](void *ptr) { cudaFree(ptr, nullptr); };
  hooks.peakBytes =
      reinterpret_cast<int64_t (*)()>(symbol("ckpt_cuda_peak_bytes"));
  hooks.reset = reinterpret_cast<void (*)()>(symbol("ckpt_cuda_reset"));
  hooks.unknownFrees =
      reinterpret_cast<int64_t (*)()>(symbol("ckpt_cuda_unknown_free_count"));
  hooks.libraries = {runtimePath};
  return hooks;
#endif
}

/// The hooks of --backend, loaded once.
const RuntimeHooks &getRuntimeHooks() {
  static const RuntimeHooks hooks =
      backend == "cuda" ? getCudaHooks() : getHostHooks();
  return hooks;
}

/// The entry's signature.
struct Signature {
  SmallVector<RankedTensorType> args, results;
  /// Each result's `ckpt.name` (empty where it has none).
  SmallVector<std::string> names;
};

/// While it lives, an abort inside the compiled step (a failed `cf.assert`
/// of the program, e.g. torch-mlir's check that a class index is below the
/// class count, which ckpt-run's generated integers, 0 to 15, may break)
/// ends ckpt-run with the assertion's message and a one-line error instead
/// of LLVM's crash report.
class StepAbortGuard {
public:
  StepAbortGuard() {
    struct sigaction action = {};
    action.sa_handler = &onAbort;
    sigemptyset(&action.sa_mask);
    sigaction(SIGABRT, &action, &previous);
  }
  ~StepAbortGuard() { sigaction(SIGABRT, &previous, nullptr); }
  StepAbortGuard(const StepAbortGuard &) = delete;
  StepAbortGuard &operator=(const StepAbortGuard &) = delete;

private:
  static void onAbort(int) {
    // The assertion's message was written to stdout (buffered in a pipe).
    std::fflush(stdout);
    static const char message[] =
        "ckpt-run: error: the step aborted: an assertion of the program "
        "failed on ckpt-run's generated inputs (integers are 0 to 15; its "
        "message is on stdout)\n";
    ssize_t written = ::write(STDERR_FILENO, message, sizeof(message) - 1);
    (void)written;
    std::_Exit(1);
  }
  struct sigaction previous = {};
};

/// Compiles `module` with ckpt-cpu-pipeline (remat to `budget` unless empty,
/// its report to `report`), JIT-runs the entry --iterations times on inputs
/// from --seed and measures it. std::nullopt when the pipeline fails (its
/// diagnostics are printed) and `mayFail`; otherwise that is fatal.
std::optional<Measurement> compileAndRun(ModuleOp module,
                                         const Signature &signature,
                                         StringRef budget, StringRef report,
                                         bool mayFail = false) {
  const RuntimeHooks &runtime = getRuntimeHooks();
  PassManager pm(module.getContext());
  ckpt::RematOptions remat = rematFlags.get(entryName);
  remat.budget = budget.str();
  remat.report = report.str();
  if (backend == "cuda") {
    ckpt::GpuPipelineOptions pipelineOptions;
    pipelineOptions.remat.set(remat);
    ckpt::buildGpuPipeline(pm, pipelineOptions);
  } else {
    ckpt::CpuPipelineOptions pipelineOptions;
    pipelineOptions.remat.set(remat);
    pipelineOptions.gemm = gemm;
    pipelineOptions.gpuMapping = gpuMapping;
    pipelineOptions.threads = threads;
    pipelineOptions.libmMath = libmMath;
    ckpt::buildCpuPipeline(pm, pipelineOptions);
  }
  if (failed(pm.run(module))) {
    if (mayFail)
      return std::nullopt;
    fail("ckpt-" + std::string(backend == "cuda" ? "gpu" : "cpu") +
         "-pipeline failed on '" + inputFilename + "'");
  }

  ExecutionEngineOptions engineOptions;
  std::vector<std::string> libraries(sharedLibs.begin(), sharedLibs.end());
  if (libraries.empty())
    libraries = {CKPT_MLIR_LIB_DIR "/libmlir_c_runner_utils.so",
                 CKPT_MLIR_LIB_DIR "/libmlir_runner_utils.so"};
  libraries.insert(libraries.end(), runtime.libraries.begin(),
                   runtime.libraries.end());
  std::vector<StringRef> libraryRefs(libraries.begin(), libraries.end());
  engineOptions.sharedLibPaths = libraryRefs;
  // The IR is optimized for the host (as ckpt-compile's objects are): the
  // vectorizers see the host's vector widths.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> hostMachine =
      mlir::ckpt::tools::createHostTargetMachine();
  if (!hostMachine)
    fail(llvm::toString(hostMachine.takeError()));
  auto transformer =
      makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, hostMachine->get());
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(optLevel.getValue());
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, engineOptions);
  if (!engine)
    fail("cannot JIT the module: " + llvm::toString(engine.takeError()));
  // As ckpt-compile's glue does: the team's threads wait 1 ms, not libomp's
  // 200, for the next loop or GEMM.
  if (threads > 1)
    if (void *setBlocktime =
            llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
                "kmp_set_blocktime"))
      reinterpret_cast<void (*)(int)>(setBlocktime)(1);

  // Inputs: allocated through the runtime (so they count like a caller's
  // buffers), filled deterministically from --seed.
  SplitMix64 rng{seed};
  std::vector<Descriptor> inputs;
  for (RankedTensorType type : signature.args) {
    Descriptor d;
    int64_t bytes = *ckpt::getStaticBytes(type);
    d.allocated = d.aligned = runtime.allocateInput(bytes);
    if (!d.allocated)
      fail("cannot allocate an input");
    fillDeterministic(d.aligned, type, rng);
    d.sizes.assign(type.getShape().begin(), type.getShape().end());
    d.strides.assign(type.getRank(), 1);
    for (int64_t i = type.getRank() - 2; i >= 0; --i)
      d.strides[i] = d.strides[i + 1] * type.getDimSize(i + 1);
    inputs.push_back(std::move(d));
  }

  // The packed calling convention: one pointer per LLVM-level argument (the
  // five fields of each memref descriptor, sizes and strides expanded), then
  // one pointer to the result storage (the descriptors of all results, which
  // are made of pointer- and i64-sized fields only).
  ArrayRef<RankedTensorType> resultTypes = signature.results;
  size_t resultWords = 0;
  for (RankedTensorType type : resultTypes)
    resultWords += 3 + 2 * type.getRank();
  std::vector<int64_t> resultStorage(std::max<size_t>(resultWords, 1));

  Measurement measured;
  measured.checksums.resize(resultTypes.size());
  measured.sums.resize(resultTypes.size());
  measured.norms.resize(resultTypes.size());
  measured.maxima.resize(resultTypes.size());
  runtime.reset();
  for (unsigned iteration = 0; iteration < iterations; ++iteration) {
    std::vector<void *> packed;
    for (Descriptor &d : inputs) {
      packed.push_back(&d.allocated);
      packed.push_back(&d.aligned);
      packed.push_back(&d.offset);
      for (int64_t &size : d.sizes)
        packed.push_back(&size);
      for (int64_t &stride : d.strides)
        packed.push_back(&stride);
    }
    packed.push_back(resultStorage.data());

    runtime.reset();
    std::chrono::duration<double> elapsed;
    {
      // Installed outside the timed call.
      StepAbortGuard abortIsAnError;
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error error = (*engine)->invokePacked(entryName, packed))
        fail("running '@" + entryName +
             "' failed: " + llvm::toString(std::move(error)));
      elapsed = std::chrono::steady_clock::now() - start;
    }
    measured.seconds.push_back(elapsed.count());
    measured.peakBytes = std::max(measured.peakBytes, runtime.peakBytes());

    // Read the results, checksum them, and free what the call allocated.
    size_t word = 0;
    for (auto [index, type] : llvm::enumerate(resultTypes)) {
      void *allocated = reinterpret_cast<void *>(resultStorage[word]);
      auto *aligned = reinterpret_cast<uint8_t *>(resultStorage[word + 1]);
      int64_t offset = resultStorage[word + 2];
      word += 3 + 2 * type.getRank();
      int64_t elementBytes = *ckpt::getElementBytes(type.getElementType());
      const uint8_t *data = aligned + offset * elementBytes;
      size_t bytes = *ckpt::getStaticBytes(type);
      uint64_t checksum = fnv1a(data, bytes);
      if (iteration > 0 && checksum != measured.checksums[index])
        fail(llvm::formatv("output #{0} differs between runs", index));
      measured.checksums[index] = checksum;
      double sum = 0, squares = 0, largest = 0;
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        double value = 0;
        if (type.getElementType().isF32())
          value = reinterpret_cast<const float *>(data)[i];
        else if (type.getElementType().isF64())
          value = reinterpret_cast<const double *>(data)[i];
        sum += value;
        squares += value * value;
        largest = std::max(largest, std::abs(value));
      }
      measured.sums[index] = sum;
      measured.norms[index] = std::sqrt(squares);
      measured.maxima[index] = largest;
      if (iteration + 1 == iterations && !dumpOutputs.empty())
        measured.dump.append(reinterpret_cast<const char *>(data), bytes);
      bool isInput = llvm::any_of(inputs, [&](const Descriptor &d) {
        return d.allocated == allocated;
      });
      bool seenBefore = false;
      for (size_t w = 0, i = 0; i < index; ++i) {
        seenBefore |= reinterpret_cast<void *>(resultStorage[w]) == allocated;
        w += 3 + 2 * resultTypes[i].getRank();
      }
      if (!isInput && !seenBefore)
        runtime.free(allocated);
    }
  }
  if (runtime.unknownFrees())
    fail("the program freed memory the runtime did not allocate");
  for (Descriptor &d : inputs)
    runtime.free(d.allocated);
  return measured;
}

/// The figures of ckpt-remat's report on the entry.
struct RematFigures {
  int64_t budgetBytes = 0;
  int64_t estimatedPeakBytes = 0;
  int64_t recomputeCount = 0;
  int64_t extraFlops = 0;
  int64_t baselineFlops = 0;
  /// Planner schedules the IR could not take (0 without a planner).
  int64_t unappliablePlans = 0;
  std::string solver;
};

RematFigures readRematReport(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    fail("cannot read the remat report '" + path + "'");
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    fail("malformed remat report: " + llvm::toString(json.takeError()));
  RematFigures figures;
  if (const llvm::json::Object *root = json->getAsObject())
    if (const llvm::json::Array *functions = root->getArray("functions"))
      for (const llvm::json::Value &value : *functions) {
        const llvm::json::Object *function = value.getAsObject();
        if (!function || function->getString("name") != entryName)
          continue;
        figures.budgetBytes = function->getInteger("budget_bytes").value_or(0);
        figures.estimatedPeakBytes =
            function->getInteger("peak_bytes").value_or(0);
        figures.recomputeCount =
            function->getInteger("recompute_count").value_or(0);
        figures.extraFlops = function->getInteger("extra_flops").value_or(0);
        figures.baselineFlops =
            function->getInteger("baseline_flops").value_or(0);
        figures.solver = function->getString("solver").value_or("").str();
        if (const llvm::json::Object *model =
                function->getObject("planner_model"))
          figures.unappliablePlans =
              model->getInteger("unappliable_plans").value_or(0);
        return figures;
      }
  fail("the remat report has no entry for '@" + entryName + "'");
}

/// The outputs as a user reads them: each by its `ckpt.name` (or its
/// number), a single float by its value, a floating-point tensor by its
/// norm and largest magnitude.
void printNamedOutputs(const Signature &signature,
                       const Measurement &measured) {
  size_t width = 0;
  for (const std::string &name : signature.names)
    width = std::max(width, name.size());
  for (auto [index, type] : llvm::enumerate(signature.results)) {
    std::string name = signature.names[index];
    if (name.empty())
      name = llvm::formatv("output #{0}", index).str();
    name.resize(std::max<size_t>({width, name.size(), 9}), ' ');
    llvm::outs() << name << " = ";
    if (!type.getElementType().isF32() && !type.getElementType().isF64())
      llvm::outs() << type << " (not a float: checksum below)\n";
    else if (type.getNumElements() == 1)
      llvm::outs() << llvm::format("%.7g\n", measured.sums[index]);
    else
      llvm::outs() << llvm::formatv("{0}  norm {1:e4}  max |x| {2:e4}\n", type,
                                    measured.norms[index],
                                    measured.maxima[index]);
  }
}

void printOutputs(const Signature &signature, const Measurement &measured) {
  for (auto [index, type] : llvm::enumerate(signature.results))
    llvm::outs() << llvm::formatv("output #{0} {1} checksum=0x{2:x-16} "
                                  "sum={3:e6}\n",
                                  index, type, measured.checksums[index],
                                  measured.sums[index]);
}

void writeDump(const Measurement &measured) {
  if (dumpOutputs.empty())
    return;
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> out =
      openOutputFile(dumpOutputs, &errorMessage);
  if (!out)
    fail(errorMessage);
  out->os() << measured.dump;
  out->keep();
}

} // namespace

namespace {
/// The tool, run on a large stack by main.
int runTool(int argc, char **argv) {
  // --help lists this tool's options, not LLVM's.
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ckpt-run: run a function on deterministic inputs and report time, "
      "peak bytes and output checksums\n");
  llvm::Expected<ckpt::tools::Backend> target =
      ckpt::tools::parseBackend(backend);
  if (!target)
    fail(llvm::toString(target.takeError()));
  if (llvm::Error error = ckpt::tools::checkGemm(gemm, *target))
    fail(llvm::toString(std::move(error)));
  if (gpuMapping && backend != "cpu")
    fail("--gpu-mapping runs the GPU mapping on the CPU: it needs "
         "--backend=cpu");
  if (libmMath && backend != "cpu")
    fail("--libm-math is for --backend=cpu");
  if (llvm::Error error = ckpt::tools::checkThreads(threads, *target))
    fail(llvm::toString(std::move(error)));
  if (threads > 1 && gpuMapping)
    fail("--gpu-mapping runs its block and thread loops on one thread: it "
         "takes no --num-threads above 1");
  if (iterations == 0)
    fail("--iterations must be at least 1");
  if (optLevel > 3)
    fail("--opt-level must be 0, 1, 2 or 3");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  ckpt::registerCkptDialects(registry);
  MLIRContext context(registry);
  // Diagnostics are the located message and its notes, not the IR.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  llvm::Expected<ckpt::tools::EntryModule> loaded =
      ckpt::tools::loadEntryModule(context, sourceMgr, inputFilename,
                                   entryName);
  if (!loaded)
    fail(llvm::toString(loaded.takeError()));
  OwningOpRef<ModuleOp> module = std::move(loaded->module);
  SmallVector<RankedTensorType> argTypes = loaded->arguments,
                                resultTypes = loaded->results;

  ckpt::registerCkptPassesAndPipelines();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  Signature signature{argTypes, resultTypes, {}};
  for (unsigned index = 0; index < resultTypes.size(); ++index) {
    auto name = loaded->entry.getResultAttrOfType<StringAttr>(
        index, ckpt::CkptDialect::getNameAttrName());
    signature.names.push_back(name ? name.str() : "");
  }

  SmallVector<StringRef> budgets;
  StringRef(rematFlags.budget)
      .split(budgets, ',', /*MaxSplit=*/-1,
             /*KeepEmpty=*/false);
  if (!compare) {
    if (budgets.size() > 1)
      fail("several budgets need --compare");
    Measurement measured = *compileAndRun(*module, signature, rematFlags.budget,
                                          rematFlags.report);
    llvm::outs() << llvm::formatv(
        "ckpt-run: @{0} on {1}, {2} iteration(s), seed {3}\n", entryName,
        backend, iterations, seed.getValue());
    llvm::outs() << llvm::formatv(
        "median_step_time_s={0:e3} min_step_time_s={1:e3}\n",
        measured.medianSeconds(), measured.minSeconds());
    llvm::outs() << llvm::formatv("peak_bytes={0}\n", measured.peakBytes);
    if (!raw)
      printNamedOutputs(signature, measured);
    printOutputs(signature, measured);
    writeDump(measured);
    return 0;
  }

  if (budgets.empty())
    fail("--compare needs --remat-budget");
  if (budgets.size() > 1 && !rematFlags.report.empty())
    fail("--remat-report takes one budget");
  std::string reportPath = rematFlags.report;
  llvm::SmallString<128> temporary;
  if (reportPath.empty()) {
    if (llvm::sys::fs::createTemporaryFile("ckpt-run-remat", "json", temporary))
      fail("cannot create a temporary file for the remat report");
    reportPath = temporary.str().str();
  }
  OwningOpRef<ModuleOp> pristine = module->clone();
  Measurement baseline = *compileAndRun(*module, signature, "", "");
  llvm::outs() << llvm::formatv(
      "ckpt-run: @{0} on {1}, {2} iteration(s), seed {3}, no remat vs "
      "remat to {4} (solver {5})\n",
      entryName, backend, iterations, seed.getValue(), rematFlags.budget,
      rematFlags.solver);
  llvm::outs() << llvm::formatv(
      "baseline: median_step_time_s={0:e3} peak_bytes={1}\n",
      baseline.medianSeconds(), baseline.peakBytes);

  // Each budget: a fresh copy of the input, compiled with remat and run.
  unsigned failures = 0;
  for (StringRef budget : budgets) {
    OwningOpRef<ModuleOp> rematModule = pristine->clone();
    std::optional<Measurement> remat =
        compileAndRun(*rematModule, signature, budget, reportPath,
                      /*mayFail=*/true);
    if (!remat) {
      llvm::outs() << llvm::formatv("remat: budget={0} failed\n", budget);
      ++failures;
      continue;
    }
    RematFigures figures = readRematReport(reportPath);
    bool identical = baseline.checksums == remat->checksums;
    bool withinBudget = remat->peakBytes <= figures.budgetBytes;
    double estimateError =
        remat->peakBytes ? static_cast<double>(figures.estimatedPeakBytes -
                                               remat->peakBytes) /
                               remat->peakBytes
                         : 0.0;
    llvm::outs() << llvm::formatv(
        "remat: budget={0} solver={1} median_step_time_s={2:e3} "
        "peak_bytes={3} budget_bytes={4} estimated_peak_bytes={5} "
        "recompute_count={6} extra_flops={7} unappliable_plans={8}\n",
        budget, figures.solver, remat->medianSeconds(), remat->peakBytes,
        figures.budgetBytes, figures.estimatedPeakBytes, figures.recomputeCount,
        figures.extraFlops, figures.unappliablePlans);
    llvm::outs() << llvm::formatv(
        "peak_ratio={0:f4} step_time_ratio={1:f3} flop_overhead={2:P} "
        "estimate_error={3:P} outputs_identical={4} within_budget={5}\n",
        static_cast<double>(remat->peakBytes) /
            std::max<int64_t>(1, baseline.peakBytes),
        remat->medianSeconds() / baseline.medianSeconds(),
        static_cast<double>(figures.extraFlops) /
            std::max<int64_t>(1, figures.baselineFlops),
        estimateError, identical ? "yes" : "no", withinBudget ? "yes" : "no");
    if (budgets.size() == 1) {
      printOutputs(signature, *remat);
      writeDump(*remat);
    }
    if (!identical) {
      llvm::errs() << "ckpt-run: error: at budget " << budget
                   << ", the outputs with remat differ from those without\n";
      ++failures;
    }
    if (!withinBudget) {
      llvm::errs() << llvm::formatv(
          "ckpt-run: error: at budget {0}, the measured peak {1} B exceeds "
          "the budget {2} B\n",
          budget, remat->peakBytes, figures.budgetBytes);
      ++failures;
    }
  }
  if (!temporary.empty())
    llvm::sys::fs::remove(temporary);
  return failures ? 1 : 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Deeply nested malformed input: a diagnostic, not a stack overflow.
  return mlir::ckpt::runOnLargeStack([&] { return runTool(argc, argv); });
}
