//===- ckpt-compile.cpp - ahead-of-time builds of training steps ----------===//
//
// Compiles one entry function of a module (optionally rematerialized) with
// ckpt-cpu-pipeline or ckpt-gpu-pipeline into a host object, and links it
// with the project runtime into an executable that runs it like ckpt-run, or
// a shared library with a plain C ABI and a generated header. What it
// produces depends on no LLVM or MLIR library at run time: libc, libm and
// libstdc++ only, plus the CUDA driver and cuBLAS for --backend=cuda (the
// kernels are cubins inside the host object).
//
//===----------------------------------------------------------------------===//

#include "CGlue.h"

#include "EntryModule.h"
#include "HostTarget.h"
#include "IreeBackend.h"
#include "RuntimeLibrary.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Remat/RematOptions.h"
#include "ckpt/Support/LargeStack.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("ckpt-compile options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::Required,
                                          cl::cat(compileCategory));
static cl::opt<std::string> entryName("entry", cl::desc("Function to compile"),
                                      cl::Required, cl::cat(compileCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"), cl::Required,
                                           cl::cat(compileCategory));
static cl::opt<std::string>
    backend("backend",
            cl::desc("Target: cpu (ckpt-cpu-pipeline), cuda "
                     "(ckpt-gpu-pipeline: kernels embedded as cubins, cuBLAS "
                     "GEMMs, managed buffers counted as device memory), "
                     "iree-cpu (iree-compile's CPU backend: an IREE module, "
                     "the budget held in IREE's measured peak) or iree-cuda "
                     "(iree-compile's CUDA backend, the same way; measured "
                     "where a GPU is)"),
            cl::init("cpu"), cl::cat(compileCategory));
static cl::opt<std::string>
    chip("chip", cl::desc("GPU architecture of the cubins (--backend=cuda)"),
         cl::init("sm_90"), cl::cat(compileCategory));
static cl::opt<std::string>
    gemm("gemm",
         cl::desc("--backend=cpu: how f32/f64 matmul-like ops run, 'codegen' "
                  "(loops) or 'blas' (oneDNN and OpenBLAS, linked into the "
                  "build)"),
         cl::init("codegen"), cl::cat(compileCategory));
static cl::opt<unsigned>
    threads("num-threads",
            cl::desc("--backend=cpu: threads the step runs on, its GEMMs "
                     "(--gemm=blas) and its parallel loops (above 1: OpenMP, "
                     "libomp linked into the build)"),
            cl::init(1), cl::cat(compileCategory));
static cl::opt<bool>
    libmMath("libm-math",
             cl::desc("--backend=cpu: f32 exp, log, log1p, expm1, tanh and "
                      "erf through libm (one call per element) instead of "
                      "vectorized polynomial approximations"),
             cl::init(false), cl::cat(compileCategory));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to produce: exe (a driver that runs the entry like "
                  "ckpt-run), lib (a shared library with a C ABI and a "
                  "header), obj (the host object only)"),
         cl::init("exe"), cl::cat(compileCategory));
static cl::opt<std::string>
    headerFilename("header",
                   cl::desc("Where to write the C header (default: "
                            "ckpt_<entry>.h next to the output)"),
                   cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    compiler("cc",
             cl::desc("C compiler and linker driver for the glue and the "
                      "link (default: the LLVM 22 clang)"),
             cl::init(CKPT_DEFAULT_CC), cl::cat(compileCategory));
static cl::opt<std::string> profileIR(
    "profile-ir",
    cl::desc("--backend=cpu: write the IR before its loop lowering to this "
             "file and build with line tables into it, so that `perf report "
             "--sort srcline` names the op each sample ran in"),
    cl::value_desc("file"), cl::init(""), cl::cat(compileCategory));
static cl::opt<bool> keepTemporaries("keep-temps",
                                     cl::desc("Keep the generated C and the "
                                              "object (prints their paths)"),
                                     cl::init(false), cl::cat(compileCategory));
static cl::opt<std::string> ireeCudaTarget(
    "iree-cuda-target",
    cl::desc("--backend=iree-cuda: the NVIDIA architecture (iree-compile's "
             "--iree-cuda-target; IREE 3.13 knows none newer than sm_89, and "
             "the PTX it embeds runs on newer GPUs)"),
    cl::init("sm_80"), cl::cat(compileCategory));
static cl::opt<std::string>
    ireeCompile("iree-compile",
                cl::desc("--backend=iree-*: the iree-compile to use "
                         "(default: the one on the PATH)"),
                cl::value_desc("path"), cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    ireeRunModule("iree-run-module",
                  cl::desc("--backend=iree-*: the iree-run-module that "
                           "measures each candidate's peak (default: the "
                           "one on the PATH)"),
                  cl::value_desc("path"), cl::init(""),
                  cl::cat(compileCategory));
/// ckpt-remat's options as --remat-KEY (RematOptions.def).
static mlir::ckpt::RematCommandLineFlags rematFlags(compileCategory);

namespace {

/// The temporary directory, removed on exit unless --keep-temps.
std::string temporaryDirectory;

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "ckpt-compile: error: " << message << "\n";
  if (!temporaryDirectory.empty() && !keepTemporaries)
    llvm::sys::fs::remove_directories(temporaryDirectory);
  std::exit(1);
}

/// Creates the temporary directory (removed by finishTemporaries or on
/// failure, unless --keep-temps) and returns its path.
std::string makeTemporaryDirectory() {
  llvm::SmallString<128> directory;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("ckpt-compile", directory))
    fail("cannot create a temporary directory: " + ec.message());
  temporaryDirectory = directory.str().str();
  return temporaryDirectory;
}

/// Removes the temporary directory, or with --keep-temps prints its path.
void finishTemporaries() {
  if (keepTemporaries)
    llvm::outs() << "ckpt-compile: temporaries in " << temporaryDirectory
                 << "\n";
  else
    llvm::sys::fs::remove_directories(temporaryDirectory);
}

void writeFile(llvm::StringRef path,
               llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(path, &errorMessage);
  if (!file)
    fail(errorMessage);
  write(file->os());
  file->keep();
}

/// Lowers `module` to LLVM IR and writes a position-independent object for
/// the host.
void emitObject(ModuleOp module, llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      mlir::ckpt::tools::createHostTargetMachine(llvm::Reloc::PIC_);
  if (!machine)
    fail(llvm::toString(machine.takeError()));

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    fail("cannot translate the lowered module to LLVM IR");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (llvm::Error error = makeOptimizingTransformer(
          /*optLevel=*/2, /*sizeLevel=*/0, machine->get())(llvmModule.get()))
    fail("optimizing the LLVM IR failed: " + llvm::toString(std::move(error)));

  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    fail("cannot write '" + path + "': " + ec.message());
  llvm::legacy::PassManager passes;
  if ((*machine)->addPassesToEmitFile(passes, out, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    fail("the host target cannot emit object files");
  passes.run(*llvmModule);
}

/// Runs `command`, failing with its output on a non-zero exit.
void run(llvm::ArrayRef<std::string> command) {
  llvm::ErrorOr<std::string> program =
      llvm::StringRef(command[0]).contains('/')
          ? llvm::ErrorOr<std::string>(command[0])
          : llvm::sys::findProgramByName(command[0]);
  if (!program || !llvm::sys::fs::can_execute(*program))
    fail("cannot find '" + command[0] + "' (pass --cc=PATH)");
  llvm::SmallVector<llvm::StringRef> args(command.begin(), command.end());
  std::string errorMessage;
  int status = llvm::sys::ExecuteAndWait(*program, args, std::nullopt, {}, 0, 0,
                                         &errorMessage);
  if (status != 0) {
    std::string line;
    for (const std::string &arg : command)
      line += arg + " ";
    fail("'" + line + "' failed" +
         (errorMessage.empty() ? "" : ": " + errorMessage));
  }
}

/// Makes every function of `module` but `entry` private and drops the
/// symbols nothing public uses (symbol-dce).
LogicalResult keepOnlyEntry(ModuleOp module, func::FuncOp entry) {
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (func != entry && !func.isDeclaration())
      func.setPrivate();
  PassManager pm(module.getContext());
  pm.addPass(createSymbolDCEPass());
  return pm.run(module);
}

/// Checks the options of --backend=cpu and cuda; true for cuda.
bool checkNativeOptions() {
  llvm::Expected<mlir::ckpt::tools::Backend> target =
      mlir::ckpt::tools::parseBackend(backend);
  if (!target) {
    llvm::consumeError(target.takeError());
    fail("--backend=" + backend +
         " is not one of cpu, cuda, iree-cpu, iree-cuda");
  }
  bool cuda = *target == mlir::ckpt::tools::Backend::Cuda;
  if (cuda && !profileIR.empty())
    fail("--profile-ir is for --backend=cpu");
  if (cuda && libmMath)
    fail("--libm-math is for --backend=cpu");
#ifndef CKPT_CUDA_RUNTIME_STATIC_LIBRARY
  if (cuda)
    fail("--backend=cuda: this ckpt-compile was built without a CUDA "
         "toolkit (no libckpt_cuda_runtime to link)");
#endif
  if (llvm::Error error = mlir::ckpt::tools::checkGemm(gemm, *target))
    fail(llvm::toString(std::move(error)));
#ifndef CKPT_BLAS_RUNTIME_STATIC_LIBRARY
  if (gemm == "blas")
    fail("--gemm=blas: this ckpt-compile was built without OpenBLAS (no "
         "libckpt_blas_runtime)");
#endif
  if (llvm::Error error = mlir::ckpt::tools::checkThreads(threads, *target))
    fail(llvm::toString(std::move(error)));
#ifndef CKPT_OPENMP_LIBRARY
  if (threads > 1)
    fail("--num-threads=" + std::to_string(threads) +
         ": this ckpt-compile was built without LLVM's libomp");
#endif
  if (emit != "exe" && emit != "lib" && emit != "obj")
    fail("--emit=" + emit + " is not one of exe, lib, obj");
  if (ireeCudaTarget.getNumOccurrences())
    fail("--iree-cuda-target is for --backend=iree-cuda");

  return cuda;
}

/// Checks that no option of the native backends is given with
/// --backend=iree-cpu or iree-cuda (IREE chooses its own code generation,
/// and its output is a module, not a C ABI); false (not cuda).
bool checkIreeOptions() {
  for (const cl::Option *option : std::initializer_list<const cl::Option *>{
           &gemm, &threads, &libmMath, &emit, &headerFilename, &compiler,
           &profileIR, &chip})
    if (option->getNumOccurrences())
      fail("--" + option->ArgStr + " is not for --backend=" + backend +
           " (which writes an IREE module, .vmfb)");
  if (backend == "iree-cpu" && ireeCudaTarget.getNumOccurrences())
    fail("--iree-cuda-target is for --backend=iree-cuda");
  return false;
}

/// Builds the entry of `module` with one of IREE's backends into the output
/// (ckpt-compile --backend=iree-cpu or iree-cuda) and writes the remat
/// report.
int compileWithIree(ModuleOp module,
                    llvm::ArrayRef<RankedTensorType> arguments) {
  llvm::Expected<mlir::ckpt::tools::IreeToolchain> toolchain =
      mlir::ckpt::tools::findIreeToolchain(ireeCompile, ireeRunModule);
  if (!toolchain)
    fail(llvm::toString(toolchain.takeError()));
  mlir::ckpt::registerCkptPassesAndPipelines();
  PassManager pm(module.getContext());
  // IREE has no ckpt.attention: attention as linalg, which IREE fuses on
  // its own.
  mlir::ckpt::TensorPreparationOptions tensorPrep;
  tensorPrep.decomposeAttention = true;
  // IREE vectorizes its reductions into lanes of partial sums; f64
  // accumulators would be buffers of their own in its measured peak.
  tensorPrep.f32MinExtent = 0;
  mlir::ckpt::buildTensorPreparationPipeline(pm, tensorPrep);
  // IREE cannot tile a window read backwards (a convolution's input
  // gradient).
  pm.addNestedPass<func::FuncOp>(mlir::ckpt::createForwardWindowsPass());
  if (failed(pm.run(module)))
    fail("ckpt-tensor-prep failed on '" + inputFilename + "'");

  std::string directory = makeTemporaryDirectory();
  mlir::ckpt::tools::IreeBuildRequest request;
  request.target = backend == "iree-cuda"
                       ? mlir::ckpt::tools::getIreeCudaTarget(ireeCudaTarget)
                       : mlir::ckpt::tools::getIreeCpuTarget();
  request.prepared = module;
  request.entry = entryName;
  request.arguments.assign(arguments.begin(), arguments.end());
  request.remat = rematFlags.get(entryName);
  request.workDirectory = directory;
  request.output = outputFilename;
  std::string reportPath = request.remat.report;
  auto writeReport = [&](llvm::json::Object report) {
    if (reportPath.empty())
      return;
    writeFile(reportPath, [&](llvm::raw_ostream &os) {
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
         << "\n";
    });
  };
  llvm::json::Object failureReport;
  llvm::Expected<llvm::json::Object> report =
      mlir::ckpt::tools::buildWithIree(*toolchain, request, &failureReport);
  if (!report) {
    if (!failureReport.empty())
      writeReport(std::move(failureReport));
    fail(llvm::toString(report.takeError()));
  }
  writeReport(std::move(*report));
  finishTemporaries();
  return 0;
}

} // namespace

namespace {
/// The tool, run on a large stack by main.
int runTool(int argc, char **argv) {
  // --help lists this tool's options, not LLVM's.
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ckpt-compile: ahead-of-time build of a (rematerialized) training "
      "step\n");
  bool iree = backend == "iree-cpu" || backend == "iree-cuda";
  bool cuda = iree ? checkIreeOptions() : checkNativeOptions();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mlir::ckpt::registerCkptDialects(registry);
  MLIRContext context(registry);
  // Diagnostics are the located message and its notes, not the IR.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  llvm::Expected<mlir::ckpt::tools::EntryModule> loaded =
      mlir::ckpt::tools::loadEntryModule(context, sourceMgr, inputFilename,
                                         entryName);
  if (!loaded)
    fail(llvm::toString(loaded.takeError()));
  OwningOpRef<ModuleOp> module = std::move(loaded->module);
  func::FuncOp entry = loaded->entry;
  // The build holds the entry and what it calls: other functions (a @main
  // that prints, helpers calling external declarations) would be compiled
  // and linked for nothing, and fail to load where their callees are not.
  if (failed(keepOnlyEntry(*module, entry)))
    fail("cannot drop the functions '@" + entryName + "' does not call");
  if (iree)
    return compileWithIree(*module, loaded->arguments);

  // The executable's driver defines `main`; a module's own would clash at
  // link time.
  if (emit == "exe" && module->lookupSymbol("main"))
    fail("'" + inputFilename +
         "' defines @main, and so does the executable's driver; build a "
         "library (--emit=lib) or an object (--emit=obj), or rename it");
  ::ckpt::aot::EntrySignature signature;
  signature.name = entryName;
  signature.threads = threads;
  signature.backend =
      cuda ? ::ckpt::aot::Backend::Cuda : ::ckpt::aot::Backend::Cpu;
  // The C glue has a C type for these element types only.
  auto check = [&](RankedTensorType tensor, llvm::StringRef role,
                   SmallVectorImpl<RankedTensorType> &into) {
    if (::ckpt::aot::getCElementType(tensor.getElementType()).empty())
      fail(llvm::formatv("{0} type {1} of '@{2}' has an element type other "
                         "than f32, f64, i1, i8, i32, i64 or index",
                         role, tensor, entryName));
    into.push_back(tensor);
  };
  for (RankedTensorType type : loaded->arguments)
    check(type, "argument", signature.arguments);
  for (RankedTensorType type : loaded->results)
    check(type, "result", signature.results);
  if (signature.results.empty())
    fail("'@" + entryName + "' returns nothing");
  // The LLVM lowering then also emits `_mlir_ciface_<entry>`, which takes
  // memref descriptors by pointer: the glue's calling convention.
  entry->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));

  mlir::ckpt::registerCkptPassesAndPipelines();
  PassManager pm(&context);
  // Both pipelines rematerialize the entry alone, the same way.
  mlir::ckpt::RematOptions remat = rematFlags.get(entryName);
  if (cuda) {
    mlir::ckpt::GpuPipelineOptions options;
    options.remat.set(remat);
    options.chip = chip;
    // The glue copies every result out with the runtime: results can stay
    // in device memory.
    options.resultsOnDevice = true;
    std::string message;
    if (failed(mlir::ckpt::verifyGpuPipelineOptions(options, message)))
      fail(message);
    mlir::ckpt::buildGpuPipeline(pm, options);
  } else {
    mlir::ckpt::CpuPipelineOptions options;
    options.remat.set(remat);
    options.gemm = gemm;
    options.profileIR = profileIR;
    options.threads = threads;
    options.libmMath = libmMath;
    std::string message;
    if (failed(mlir::ckpt::verifyCpuPipelineOptions(options, message)))
      fail(message);
    mlir::ckpt::buildCpuPipeline(pm, options);
  }
  if (failed(pm.run(*module)))
    fail("ckpt-" + std::string(cuda ? "gpu" : "cpu") + "-pipeline failed on '" +
         inputFilename + "'");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  if (emit == "obj") {
    emitObject(*module, outputFilename);
    return 0;
  }

  // Temporaries: the object and the C sources.
  std::string directory = makeTemporaryDirectory();
  auto pathIn = [&](llvm::StringRef name) {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, name);
    return path.str().str();
  };
  std::string headerName = "ckpt_" + entryName + ".h";
  std::string object = pathIn(entryName + ".o");
  std::string glue = pathIn("ckpt_" + entryName + ".c");
  std::string header = pathIn(headerName);
  emitObject(*module, object);
  writeFile(header, [&](llvm::raw_ostream &os) {
    ::ckpt::aot::writeHeader(os, signature);
  });
  writeFile(glue, [&](llvm::raw_ostream &os) {
    ::ckpt::aot::writeGlue(os, signature, headerName);
  });

  std::vector<std::string> link = {compiler, "-O2", "-std=gnu11", "-I",
                                   directory};
  if (emit == "exe") {
    std::string driver = pathIn("main.c");
    writeFile(driver, [&](llvm::raw_ostream &os) {
      ::ckpt::aot::writeDriver(os, signature);
    });
    link.push_back(driver);
  } else {
    // Only the C ABI and the runtime's measurement functions are exported,
    // and the library binds its own symbols: the compiled functions keep
    // their MLIR names (an entry `@step` is a function `step`), which must
    // neither be taken by a process's earlier definitions (glibc has a
    // `step`) nor take theirs, and two ckpt libraries in one process keep
    // their own runtimes.
    std::string versionScript = pathIn("exports.map");
    writeFile(versionScript, [&](llvm::raw_ostream &os) {
      os << "{\n  global:\n";
      for (llvm::StringRef suffix : {"", "_device", "_signature"})
        os << "    ckpt_" << entryName << suffix << ";\n";
      os << "    ckpt_runtime_*;\n    ckpt_cuda_*;\n  local:\n    *;\n};\n";
    });
    link.insert(link.end(), {"-shared", "-fPIC", "-Wl,-Bsymbolic",
                             "-Wl,--version-script=" + versionScript});
    // The header goes next to the library (or where --header says).
    std::string destination = headerFilename;
    if (destination.empty()) {
      llvm::SmallString<128> path(outputFilename);
      llvm::sys::path::remove_filename(path);
      llvm::sys::path::append(path, headerName);
      destination = path.str().str();
    }
    writeFile(destination, [&](llvm::raw_ostream &os) {
      ::ckpt::aot::writeHeader(os, signature);
    });
  }
  link.insert(link.end(), {glue, object});
  if (cuda) {
#ifdef CKPT_CUDA_RUNTIME_STATIC_LIBRARY
    // The driver stub stands in for libcuda.so.1 at link time; cuBLAS is
    // found next to the toolkit (or through LD_LIBRARY_PATH) at run time.
    std::string cudaLibraries = CKPT_CUDA_LIBRARY_DIR;
    link.insert(link.end(), {mlir::ckpt::tools::locateRuntimeLibrary(
                                 CKPT_CUDA_RUNTIME_STATIC_LIBRARY),
                             "-L" + cudaLibraries, "-lcublas",
                             "-L" + cudaLibraries + "/stubs", "-lcuda",
                             "-Wl,-rpath," + cudaLibraries});
#endif
  } else {
    link.push_back(
        mlir::ckpt::tools::locateRuntimeLibrary(CKPT_RUNTIME_STATIC_LIBRARY));
#ifdef CKPT_BLAS_RUNTIME_STATIC_LIBRARY
    // OpenBLAS and oneDNN stay shared libraries of the system's
    // (libopenblas0, libdnnl2).
    if (gemm == "blas") {
      link.insert(link.end(), {mlir::ckpt::tools::locateRuntimeLibrary(
                                   CKPT_BLAS_RUNTIME_STATIC_LIBRARY),
                               CKPT_OPENBLAS_LIBRARY});
      if (llvm::StringRef(CKPT_DNNL_LIBRARY).size())
        link.push_back(CKPT_DNNL_LIBRARY);
    }
#endif
#ifdef CKPT_OPENMP_LIBRARY
    // LLVM's OpenMP runtime (the parallel loops' and the GEMMs' team),
    // found where it is installed at run time too.
    if (threads > 1 || gemm == "blas")
      link.insert(
          link.end(),
          {CKPT_OPENMP_LIBRARY,
           "-Wl,-rpath," +
               llvm::sys::path::parent_path(CKPT_OPENMP_LIBRARY).str()});
#endif
  }
  link.insert(link.end(), {"-lstdc++", "-lm", "-o", outputFilename});
  run(link);
  finishTemporaries();
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Deeply nested malformed input: a diagnostic, not a stack overflow.
  return mlir::ckpt::runOnLargeStack([&] { return runTool(argc, argv); });
}
