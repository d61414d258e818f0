# -*- Python -*-
"""lit configuration for the ckpt regression and execution tests."""

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CKPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ckpt_obj_root, "test")
# Unit/ has its own configuration (GoogleTest format) and is found through its
# own site config in the build tree; Inputs/ hold data files, not tests.
config.excludes = ["Inputs", "Unit", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "compare-peak.py", "count-gpu.py", "gradcheck.py",
                   "philox-reference.py", "remat-difftest.py", "sanitizer_env.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.shlib_ext))
config.substitutions.append(("%ckpt_src_root", config.ckpt_src_root))
config.substitutions.append(("%ckpt_tools_dir", config.ckpt_tools_dir))
config.substitutions.append(("%ckpt_obj_root", config.ckpt_obj_root))
# Configures a fresh build tree of the sources (cmake ... -S src -B dir).
config.substitutions.append(("%cmake_configure",
                             f"{config.cmake} {config.cmake_configure_args}"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

import sys
sys.path.insert(0, os.path.dirname(__file__))
import sanitizer_env  # noqa: E402
sanitizer_env.configure(config, getattr(config, "ckpt_sanitize", ""), config.llvm_tools_dir)
llvm_config.use_default_substitutions()
# lit substitutes `not` and `count` only after a pipe; Debian keeps them in the
# LLVM tools directory, off PATH, so put it on PATH (as upstream suites do).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Project tools first, then the LLVM/MLIR tools of the installation we build
# against (Debian installs only versioned names on PATH).
tool_dirs = [config.ckpt_tools_dir, config.llvm_tools_dir]
tools = [
    "ckpt-opt",
    "ckpt-run",
    "ckpt-plan",
    "ckpt-compile",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
    ToolSubst("llvm-nm", unresolved="fatal"),
    ToolSubst("mlir-translate", unresolved="fatal"),
    ToolSubst("llvm-readelf", unresolved="fatal"),
    ToolSubst("%clang", command="clang", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Libraries the execution tests load into mlir-runner.
config.substitutions.append(
    ("%ckpt_runtime", os.path.join(config.ckpt_libs_dir, "libckpt_runtime" + config.shlib_ext)))
config.substitutions.append(
    ("%ckpt_plugin", os.path.join(config.ckpt_libs_dir, "CkptPlugin" + config.shlib_ext)))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils" + config.shlib_ext)))
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_runner_utils" + config.shlib_ext)))

# Execution on the CPU: lower with ckpt-cpu-pipeline, then run with
# mlir-runner, loading the ckpt runtime (allocation accounting) and the
# upstream printers.
config.substitutions.append(
    ("%run_cpu",
     "mlir-runner -e main -entry-point-result=void "
     "-shared-libs=%ckpt_runtime,%mlir_c_runner_utils,%mlir_runner_utils"))
# Estimated (ckpt-report) against measured (libckpt_runtime) peak.
config.substitutions.append(
    ("%compare_peak",
     "python3 " + os.path.join(config.ckpt_src_root, "test", "Integration",
                               "compare-peak.py")))
# Gradient-check driver generator for ckpt-autodiff tests.
config.substitutions.append(
    ("%gradcheck",
     "python3 " + os.path.join(config.ckpt_src_root, "test", "Autodiff",
                               "gradcheck.py")))
# Kernels, cuBLAS calls and host work of a ckpt-gpu-pipeline module.
config.substitutions.append(
    ("%count_gpu",
     "python3 " + os.path.join(config.ckpt_src_root, "test", "Pipelines",
                               "count-gpu.py")))
# %run_cpu expands to other substitutions.
config.recursiveExpansionLimit = 4

# The C API test compiles C against MLIR's headers and static C API.
config.substitutions.append(
    ("%mlir_include_dir", os.path.join(os.path.dirname(config.mlir_lib_dir.rstrip("/")), "include")))
config.substitutions.append(("%ckpt_libs_dir", config.ckpt_libs_dir))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(
    ("%capi_sanitize", "-fsanitize=address -shared-libasan"
     if getattr(config, "ckpt_sanitize", "") else ""))

# The CUDA runtime library is built where a CUDA toolkit exists (no GPU
# needed): tests that link host code against it need it.
if config.ckpt_cuda_runtime_built:
    config.available_features.add("cuda-runtime")
# IREE's compiler and runtime tools (iree-base-compiler/-runtime from the
# package index, scripts/setup-deps.sh): ckpt's output through IREE.
if shutil.which("iree-compile") and shutil.which("iree-run-module"):
    config.available_features.add("iree")
# HiGHS (highspy, scripts/setup-deps.sh) in the python3 the tests run: the
# independent Checkmate MILP of benchmarks/planner/checkmate_highs.py.
if subprocess.run(["python3", "-c", "import highspy"],
                  capture_output=True).returncode == 0:
    config.available_features.add("highspy")
# libckpt_blas_runtime with its f32 GEMMs over oneDNN's dnnl_sgemm.
if config.ckpt_blas_dnnl:
    config.available_features.add("dnnl")
# libckpt_blas_runtime (oneDNN, OpenBLAS): ckpt-cpu-pipeline{gemm=blas} and --gemm=blas.
if config.ckpt_blas_runtime_built:
    config.available_features.add("blas")
    config.substitutions.append(("%cuda_lib_dir", config.cuda_library_dir))
    config.substitutions.append(
        ("%cuda_stub_dir", os.path.join(config.cuda_library_dir, "stubs")))
    # Links a host object compiled from ckpt-gpu-pipeline output into an
    # executable: the ckpt runtimes, the upstream printers, the CUDA driver
    # (the stub where no driver is installed).
    config.substitutions.append(
        ("%link_cuda",
         "%clang -L" + config.ckpt_libs_dir +
         " -lckpt_cuda_runtime -lckpt_runtime %mlir_runner_utils %mlir_c_runner_utils"
         " -L%cuda_stub_dir -lcuda -Wl,-rpath," + config.ckpt_libs_dir +
         " -Wl,-rpath," + config.mlir_lib_dir +
         # Sanitizer builds: the ckpt libraries need the ASan runtime.
         (" -fsanitize=address -shared-libasan"
          if getattr(config, "ckpt_sanitize", "") else "")))

    # %fake_cuda DIR builds stand-ins for libcuda.so.1 and cuBLAS (under the
    # soname and symbol version the toolkit's cuBLAS has) into DIR: CUDA
    # builds then run their host side without a GPU (test/Runtime/Inputs).
    import glob
    cublas = sorted(glob.glob(os.path.join(config.cuda_library_dir, "libcublas.so.[0-9]*")),
                    key=len)
    cublas_soname = os.path.basename(cublas[0]) if cublas else "libcublas.so"
    inputs = os.path.join(config.ckpt_src_root, "test", "Runtime", "Inputs")
    config.substitutions.append(
        ("%fake_cuda",
         "env CUDA_HOME=" + os.path.dirname(config.cuda_library_dir.rstrip("/")) +
         " CC=%clang bash " + os.path.join(inputs, "build-fake-cuda.sh") + " " +
         cublas_soname))

# GPU execution tests need a CUDA device; build machines and CI have none.
if shutil.which("nvidia-smi") and os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")
