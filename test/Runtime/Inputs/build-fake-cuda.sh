#!/usr/bin/env bash
# Builds the fake CUDA driver and cuBLAS (fake-cuda-driver.c, fake-cublas.c)
# into DIR as libcuda.so.1 and CUBLAS_SONAME, with the symbol version the
# real cuBLAS exports so executables linked against it bind to the fake.
#   build-fake-cuda.sh CUBLAS_SONAME DIR
set -euo pipefail
soname=$1 dir=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
cc=${CC:-clang-22}
mkdir -p "$dir"
echo "$soname { global: *; };" > "$dir/cublas.map"
# No sanitizers: these load into uninstrumented test processes too.
"$cc" -shared -fPIC -O1 -I"$cuda/include" -Wl,-soname,libcuda.so.1 \
  "$here/fake-cuda-driver.c" -o "$dir/libcuda.so.1"
"$cc" -shared -fPIC -O1 -I"$cuda/include" -Wl,-soname,"$soname" \
  -Wl,--version-script,"$dir/cublas.map" "$here/fake-cublas.c" -o "$dir/$soname"
