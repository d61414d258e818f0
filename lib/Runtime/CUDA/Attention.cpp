//===- Attention.cpp - fused attention calls of the CUDA runtime ----------===//
//
// The library calls ckpt-attention-to-cuda emits for ckpt.attention and
// ckpt.attention_grad on f32 buffers (see include/ckpt/Runtime/
// CkptCudaRuntime.h): each checks the operand shapes, picks the kernels of
// AttentionKernels.cu sized for the head width, launches them on the
// runtime's attention stream and waits for them, like the cuBLAS GEMMs. The
// kernels allocate nothing: a step's device memory stays what the compiled
// code allocates.
//
//===----------------------------------------------------------------------===//

#include "AttentionParams.h"
#include "CudaSupport.h"

#include "ckpt/Runtime/CkptCudaRuntime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

// The fatbin of AttentionKernels.cu (bin2c, see CMakeLists.txt).
#include "AttentionFatbin.inc"

namespace {

/// The head widths the kernels are built for and the rows of a block.
struct KernelWidth {
  int width;
  int rows;
};
constexpr KernelWidth kWidths[] = {{32, 64}, {64, 64}, {128, 64}, {256, 32}};
constexpr int kNumWidths = sizeof(kWidths) / sizeof(kWidths[0]);

enum Kernel { Forward, QueryGrad, KeyValueGrad, NumKernels };
constexpr const char *kKernelNames[NumKernels] = {"forward", "query_grad",
                                                  "key_value_grad"};

/// The module, its kernels and the stream they run on, loaded on first use.
struct AttentionState {
  CUmodule module = nullptr;
  CUfunction functions[kNumWidths][NumKernels] = {};
  CUstream stream = nullptr;
};

/// Shared bytes a kernel of `width` uses: two tiles of rows x width floats
/// and two rows of floats (see AttentionKernels.cu).
size_t sharedBytes(const KernelWidth &width) {
  return (2 * static_cast<size_t>(width.rows) * width.width + 2 * width.rows) *
         sizeof(float);
}

AttentionState &getState() {
  static AttentionState state;
  static std::once_flag once;
  ckpt::cuda::ensureContext();
  std::call_once(once, [] {
    // The driver reads the image as 8-byte words; bin2c's array is bytes.
    std::vector<uint64_t> image((sizeof(ckpt_attention_fatbin) + 7) / 8);
    std::memcpy(image.data(), ckpt_attention_fatbin,
                sizeof(ckpt_attention_fatbin));
    ckpt::cuda::check(cuModuleLoadData(&state.module, image.data()),
                      "cuModuleLoadData (attention kernels)");
    for (int w = 0; w < kNumWidths; ++w) {
      for (int k = 0; k < NumKernels; ++k) {
        char name[64];
        std::snprintf(name, sizeof(name), "ckpt_attention_%s_%d",
                      kKernelNames[k], kWidths[w].width);
        CUfunction function;
        ckpt::cuda::check(cuModuleGetFunction(&function, state.module, name),
                          "cuModuleGetFunction (attention kernels)");
        ckpt::cuda::check(
            cuFuncSetAttribute(function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(sharedBytes(kWidths[w]))),
            "cuFuncSetAttribute (attention shared memory)");
        state.functions[w][k] = function;
      }
    }
    ckpt::cuda::check(cuStreamCreate(&state.stream, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate");
  });
  return state;
}

/// A descriptor of rank `rank` (4 for rows of width, 3 for rows) as a view.
template <typename Descriptor>
ckpt_attention_view view(const Descriptor *descriptor, int rank,
                         int64_t elementBytes) {
  ckpt_attention_view result;
  std::memset(&result, 0, sizeof(result));
  result.data = static_cast<char *>(descriptor->aligned) +
                descriptor->offset * elementBytes;
  for (int d = 0; d < rank; ++d)
    result.strides[d] = descriptor->strides[d];
  return result;
}

[[noreturn]] void shapeError(const char *what, const char *detail) {
  char message[256];
  std::snprintf(message, sizeof(message), "attention %s: %s", what, detail);
  ckpt::cuda::fail(message);
}

/// Checks that `d` is [B, H, rows, width] (width < 0: any).
void expectRows(const CkptMemRef4D *d, const int64_t *batch, int64_t rows,
                int64_t width, const char *what, const char *operand) {
  bool agrees = d->sizes[0] == batch[0] && d->sizes[1] == batch[1] &&
                d->sizes[2] == rows && (width < 0 || d->sizes[3] == width);
  if (!agrees)
    shapeError(what, operand);
}

void expectRowVector(const CkptMemRef3D *d, const int64_t *batch, int64_t rows,
                     const char *what, const char *operand) {
  if (d->sizes[0] != batch[0] || d->sizes[1] != batch[1] || d->sizes[2] != rows)
    shapeError(what, operand);
}

/// Fills the sizes of `params` from Q [B, H, Sq, D], K [B, H, Sk, D] and
/// V [B, H, Sk, Dv], checking that they agree.
void describeInputs(ckpt_attention_params &params, const CkptMemRef4D *q,
                    const CkptMemRef4D *k, const CkptMemRef4D *v,
                    const CkptMemRef3D *keyMask, const char *what) {
  params.heads = q->sizes[1];
  params.queries = q->sizes[2];
  params.width = q->sizes[3];
  params.keys = k->sizes[2];
  params.value_width = v->sizes[3];
  expectRows(k, q->sizes, params.keys, params.width, what,
             "key shape does not match the query's");
  expectRows(v, q->sizes, params.keys, -1, what,
             "value shape does not match the key's");
  params.query = view(q, 4, 4);
  params.key = view(k, 4, 4);
  params.value = view(v, 4, 4);
  if (keyMask) {
    expectRowVector(keyMask, q->sizes, params.keys, what,
                    "key mask shape does not match the key's");
    params.key_mask = view(keyMask, 3, 1);
  }
}

/// Launches `kernel` over (rows / block rows, B * H) blocks and waits.
void launch(ckpt_attention_params &params, Kernel kernel, int64_t rows,
            int64_t batches, const char *what) {
  int64_t widest =
      params.width > params.value_width ? params.width : params.value_width;
  int w = 0;
  while (w < kNumWidths && kWidths[w].width < widest)
    ++w;
  if (w == kNumWidths)
    shapeError(what, "head width above 256 (no kernel)");
  if (batches > 65535)
    shapeError(what, "more than 65535 batch and head entries");
  if (rows == 0 || batches == 0)
    return;
  AttentionState &state = getState();
  const KernelWidth &width = kWidths[w];
  unsigned gridX = static_cast<unsigned>((rows + width.rows - 1) / width.rows);
  void *arguments[] = {&params};
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Launch);
  ckpt::cuda::check(cuLaunchKernel(state.functions[w][kernel], gridX,
                                   static_cast<unsigned>(batches), 1,
                                   width.rows, 1, 1,
                                   static_cast<unsigned>(sharedBytes(width)),
                                   state.stream, arguments, nullptr),
                    "cuLaunchKernel (attention)");
  // Kernels launched next run on other streams: the results must be there.
  ckpt::cuda::check(cuStreamSynchronize(state.stream), "cuStreamSynchronize");
}

/// Fills `params` for an attention of Q, K, V (and the key mask) with
/// output `out` and log-sum-exp `lse`, checking that the shapes agree.
void describeAttention(ckpt_attention_params &params, CkptMemRef4D *q,
                       CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
                       CkptMemRef3D *lse, CkptMemRef3D *keyMask, int32_t causal,
                       double scale, const char *what) {
  std::memset(&params, 0, sizeof(params));
  describeInputs(params, q, k, v, keyMask, what);
  expectRows(out, q->sizes, params.queries, params.value_width, what,
             "output shape does not match the query and value");
  expectRowVector(lse, q->sizes, params.queries, what,
                  "log-sum-exp shape does not match the query's");
  params.out = view(out, 4, 4);
  params.lse = view(lse, 3, 4);
  params.scale = static_cast<float>(scale);
  params.causal = causal;
}

void attention(CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v,
               CkptMemRef4D *out, CkptMemRef3D *lse, CkptMemRef3D *keyMask,
               int32_t causal, double scale) {
  const char *what = "forward";
  ckpt_attention_params params;
  describeAttention(params, q, k, v, out, lse, keyMask, causal, scale, what);
  launch(params, Forward, params.queries, q->sizes[0] * q->sizes[1], what);
}

void attentionGrad(CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v,
                   CkptMemRef4D *out, CkptMemRef3D *lse, CkptMemRef4D *gradOut,
                   CkptMemRef4D *gradQuery, CkptMemRef4D *gradKey,
                   CkptMemRef4D *gradValue, CkptMemRef3D *keyMask,
                   int32_t causal, double scale) {
  const char *what = "gradient";
  ckpt_attention_params params;
  describeAttention(params, q, k, v, out, lse, keyMask, causal, scale, what);
  expectRows(gradOut, q->sizes, params.queries, params.value_width, what,
             "output gradient shape does not match the output's");
  expectRows(gradQuery, q->sizes, params.queries, params.width, what,
             "query gradient shape does not match the query's");
  expectRows(gradKey, q->sizes, params.keys, params.width, what,
             "key gradient shape does not match the key's");
  expectRows(gradValue, q->sizes, params.keys, params.value_width, what,
             "value gradient shape does not match the value's");
  params.grad_out = view(gradOut, 4, 4);
  params.grad_query = view(gradQuery, 4, 4);
  params.grad_key = view(gradKey, 4, 4);
  params.grad_value = view(gradValue, 4, 4);
  int64_t batches = q->sizes[0] * q->sizes[1];
  launch(params, KeyValueGrad, params.keys, batches, what);
  launch(params, QueryGrad, params.queries, batches, what);
}

} // namespace

extern "C" {

void _mlir_ciface_ckpt_cuda_attention_f32(CkptMemRef4D *q, CkptMemRef4D *k,
                                          CkptMemRef4D *v, CkptMemRef4D *out,
                                          CkptMemRef3D *lse, int32_t causal,
                                          double scale) {
  attention(q, k, v, out, lse, nullptr, causal, scale);
}

void _mlir_ciface_ckpt_cuda_attention_masked_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef3D *keyMask, int32_t causal, double scale) {
  attention(q, k, v, out, lse, keyMask, causal, scale);
}

void _mlir_ciface_ckpt_cuda_attention_grad_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef4D *gradOut, CkptMemRef4D *gradQuery,
    CkptMemRef4D *gradKey, CkptMemRef4D *gradValue, int32_t causal,
    double scale) {
  attentionGrad(q, k, v, out, lse, gradOut, gradQuery, gradKey, gradValue,
                nullptr, causal, scale);
}

void _mlir_ciface_ckpt_cuda_attention_grad_masked_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef4D *gradOut, CkptMemRef4D *gradQuery,
    CkptMemRef4D *gradKey, CkptMemRef4D *gradValue, CkptMemRef3D *keyMask,
    int32_t causal, double scale) {
  attentionGrad(q, k, v, out, lse, gradOut, gradQuery, gradKey, gradValue,
                keyMask, causal, scale);
}

} // extern "C"
