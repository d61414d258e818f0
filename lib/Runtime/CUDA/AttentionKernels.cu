//===- AttentionKernels.cu - fused f32 attention kernels ------------------===//
//
// The device code behind ckpt.attention and ckpt.attention_grad on CUDA
// (Attention.cpp launches it): flash attention's forward (online softmax,
// the row log-sum-exp kept) and its backward recomputing the probabilities
// tile by tile, so that nothing with two sequence dimensions exists.
//
// Every thread owns one row: the forward and the query-gradient kernel one
// query, the key/value-gradient kernel one key. Tiles of the other operand
// are staged in shared memory and read by all threads of a block at the
// same address (broadcasts, four floats per load). The backward runs as two
// kernels (dK/dV over all queries, dQ over all keys) instead of one with
// atomic additions: every sum is taken in a fixed order, so results do not
// depend on scheduling and a recomputed attention reproduces its bits.
//
// Compiled by nvcc into a fatbin that libckpt_cuda_runtime embeds; the
// kernels have C names `ckpt_attention_<kernel>_<width>` with <width> the
// head width the registers are sized for (32, 64, 128 or 256).
//
//===----------------------------------------------------------------------===//

#include "AttentionParams.h"

#include <math.h>

namespace {

/// Element `(b, h, row, col)` of a [B, H, S, D] view.
__device__ __forceinline__ int64_t at(const ckpt_attention_view &view,
                                      int64_t b, int64_t h, int64_t row,
                                      int64_t col) {
  return b * view.strides[0] + h * view.strides[1] + row * view.strides[2] +
         col * view.strides[3];
}

/// Element `(b, h, row)` of a [B, H, S] view.
__device__ __forceinline__ int64_t rowAt(const ckpt_attention_view &view,
                                         int64_t b, int64_t h, int64_t row) {
  return b * view.strides[0] + h * view.strides[1] + row * view.strides[2];
}

/// Whether key `key` may be attended to at all (in range, not padding).
__device__ __forceinline__ bool keyVisible(const ckpt_attention_params &p,
                                           int64_t b, int64_t h, int64_t key) {
  if (key >= p.keys)
    return false;
  if (!p.key_mask.data)
    return true;
  const unsigned char *mask =
      static_cast<const unsigned char *>(p.key_mask.data);
  return mask[rowAt(p.key_mask, b, h, key)] != 0;
}

/// Copies rows [first, first + T) of `view` (width `width`, zero past the
/// end and past `width`) into `tile[T][W]`; every thread of the block
/// takes part.
template <int T, int W>
__device__ __forceinline__ void
loadRows(float *tile, const ckpt_attention_view &view, int64_t b, int64_t h,
         int64_t first, int64_t rows, int64_t width) {
  const float *data = static_cast<const float *>(view.data);
  for (int e = threadIdx.x; e < T * W; e += T) {
    int r = e / W, c = e % W;
    int64_t row = first + r;
    tile[e] = (row < rows && c < width) ? data[at(view, b, h, row, c)] : 0.0f;
  }
}

/// sum_c own[c] * tile[c], with `tile` a shared-memory row of W floats.
template <int W>
__device__ __forceinline__ float dotRow(const float (&own)[W],
                                        const float *tile) {
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < W; c += 4) {
    float4 t = *reinterpret_cast<const float4 *>(tile + c);
    sum +=
        own[c] * t.x + own[c + 1] * t.y + own[c + 2] * t.z + own[c + 3] * t.w;
  }
  return sum;
}

/// acc[c] += weight * tile[c].
template <int W>
__device__ __forceinline__ void axpyRow(float (&acc)[W], float weight,
                                        const float *tile) {
#pragma unroll
  for (int c = 0; c < W; c += 4) {
    float4 t = *reinterpret_cast<const float4 *>(tile + c);
    acc[c] += weight * t.x;
    acc[c + 1] += weight * t.y;
    acc[c + 2] += weight * t.z;
    acc[c + 3] += weight * t.w;
  }
}

/// Reads row `row` of `view` (zero past `width`) into registers, times
/// `factor`.
template <int W>
__device__ __forceinline__ void
loadOwn(float (&own)[W], const ckpt_attention_view &view, int64_t b, int64_t h,
        int64_t row, int64_t width, float factor) {
  const float *data = static_cast<const float *>(view.data);
#pragma unroll
  for (int c = 0; c < W; ++c)
    own[c] = c < width ? data[at(view, b, h, row, c)] * factor : 0.0f;
}

/// Writes the first `width` entries of `own` times `factor` to row `row`.
template <int W>
__device__ __forceinline__ void
storeOwn(const float (&own)[W], const ckpt_attention_view &view, int64_t b,
         int64_t h, int64_t row, int64_t width, float factor) {
  float *data = static_cast<float *>(view.data);
#pragma unroll
  for (int c = 0; c < W; ++c)
    if (c < width)
      data[at(view, b, h, row, c)] = own[c] * factor;
}

constexpr float kNegInf = -INFINITY;

/// Stages key and value rows [tile, tile + T) and whether each key takes
/// part into shared memory; every thread of the block takes part.
template <int T, int W>
__device__ __forceinline__ void
stageKeys(const ckpt_attention_params &p, int64_t b, int64_t h, int64_t tile,
          float *keys, float *values, float *visible) {
  __syncthreads();
  loadRows<T, W>(keys, p.key, b, h, tile, p.keys, p.width);
  loadRows<T, W>(values, p.value, b, h, tile, p.keys, p.value_width);
  visible[threadIdx.x] = keyVisible(p, b, h, tile + threadIdx.x) ? 1.f : 0.f;
  __syncthreads();
}

/// The keys the T queries from `first` attend to: all, or (causal) those up
/// to the last of them.
template <int T>
__device__ __forceinline__ int64_t keysSeen(const ckpt_attention_params &p,
                                            int64_t first) {
  return p.causal ? min(p.keys, first + T) : p.keys;
}

/// Keys whose scores a thread keeps in registers at once.
constexpr int kChunk = 16;

/// out[i] = softmax(scale q_i K^T) V and lse[i]: one thread per query,
/// blocks of T queries, key tiles of T rows in shared memory.
template <int T, int W>
__device__ void forward(const ckpt_attention_params &p) {
  extern __shared__ float shared[];
  float *keys = shared;            // [T][W]
  float *values = shared + T * W;  // [T][W]
  float *visible = values + T * W; // [T]: 1 where the key takes part
  int64_t b = blockIdx.y / p.heads, h = blockIdx.y % p.heads;
  int64_t first = static_cast<int64_t>(blockIdx.x) * T;
  int64_t query = first + threadIdx.x;
  bool active = query < p.queries;

  float q[W], acc[W];
  if (active)
    loadOwn(q, p.query, b, h, query, p.width, p.scale);
#pragma unroll
  for (int c = 0; c < W; ++c)
    acc[c] = 0.0f;
  float maximum = kNegInf, sum = 0.0f;

  for (int64_t tile = 0; tile < keysSeen<T>(p, first); tile += T) {
    stageKeys<T, W>(p, b, h, tile, keys, values, visible);
    if (!active)
      continue;
    for (int chunk = 0; chunk < T; chunk += kChunk) {
      float scores[kChunk];
      float chunkMax = kNegInf;
#pragma unroll
      for (int r = 0; r < kChunk; ++r) {
        int64_t key = tile + chunk + r;
        bool takes = visible[chunk + r] != 0.f && (!p.causal || key <= query);
        scores[r] = takes ? dotRow(q, keys + (chunk + r) * W) : kNegInf;
        chunkMax = fmaxf(chunkMax, scores[r]);
      }
      if (chunkMax == kNegInf)
        continue;
      float newMax = fmaxf(maximum, chunkMax);
      float correction = expf(maximum - newMax);
      sum *= correction;
#pragma unroll
      for (int c = 0; c < W; ++c)
        acc[c] *= correction;
#pragma unroll
      for (int r = 0; r < kChunk; ++r) {
        float weight = expf(scores[r] - newMax);
        sum += weight;
        axpyRow(acc, weight, values + (chunk + r) * W);
      }
      maximum = newMax;
    }
  }
  if (!active)
    return;
  storeOwn(acc, p.out, b, h, query, p.value_width,
           sum > 0.0f ? 1.0f / sum : 0.0f);
  float *lse = static_cast<float *>(p.lse.data);
  lse[rowAt(p.lse, b, h, query)] = sum > 0.0f ? maximum + logf(sum) : kNegInf;
}

/// The probability P[query, key] = exp(score - lse) of a key the query
/// attends to; zero where the query sees no key at all (lse = -inf).
__device__ __forceinline__ float probability(float score, float lse) {
  return lse != kNegInf ? expf(score - lse) : 0.0f;
}

/// dQ: one thread per query, key and value tiles in shared memory.
/// dQ[i] = scale sum_j P[i,j] (dO_i . V_j - dO_i . O_i) K_j.
template <int T, int W>
__device__ void queryGradient(const ckpt_attention_params &p) {
  extern __shared__ float shared[];
  float *keys = shared;
  float *values = shared + T * W;
  float *visible = values + T * W;
  int64_t b = blockIdx.y / p.heads, h = blockIdx.y % p.heads;
  int64_t first = static_cast<int64_t>(blockIdx.x) * T;
  int64_t query = first + threadIdx.x;
  bool active = query < p.queries;

  float q[W], gradOut[W], gradQuery[W];
  float lse = kNegInf, delta = 0.0f;
  if (active) {
    loadOwn(q, p.query, b, h, query, p.width, p.scale);
    loadOwn(gradOut, p.grad_out, b, h, query, p.value_width, 1.0f);
    // The row term dO_i . O_i, in registers: O is read once.
    const float *out = static_cast<const float *>(p.out.data);
#pragma unroll
    for (int c = 0; c < W; ++c)
      if (c < p.value_width)
        delta += gradOut[c] * out[at(p.out, b, h, query, c)];
    lse = static_cast<const float *>(p.lse.data)[rowAt(p.lse, b, h, query)];
  }
#pragma unroll
  for (int c = 0; c < W; ++c)
    gradQuery[c] = 0.0f;

  for (int64_t tile = 0; tile < keysSeen<T>(p, first); tile += T) {
    stageKeys<T, W>(p, b, h, tile, keys, values, visible);
    if (!active)
      continue;
    for (int r = 0; r < T; ++r) {
      int64_t key = tile + r;
      bool takes = visible[r] != 0.f && (!p.causal || key <= query);
      if (!takes)
        continue;
      float prob = probability(dotRow(q, keys + r * W), lse);
      float gradScore = prob * (dotRow(gradOut, values + r * W) - delta);
      axpyRow(gradQuery, gradScore, keys + r * W);
    }
  }
  if (active)
    storeOwn(gradQuery, p.grad_query, b, h, query, p.width, p.scale);
}

/// dK and dV: one thread per key, query and output-gradient tiles in
/// shared memory (with each query's lse and row term).
/// dV[j] = sum_i P[i,j] dO_i, dK[j] = scale sum_i dS[i,j] Q_i.
template <int T, int W>
__device__ void keyValueGradient(const ckpt_attention_params &p) {
  extern __shared__ float shared[];
  float *queries = shared;          // [T][W], unscaled
  float *gradOuts = shared + T * W; // [T][W]
  float *lses = gradOuts + T * W;   // [T]
  float *deltas = lses + T;         // [T]
  int64_t b = blockIdx.y / p.heads, h = blockIdx.y % p.heads;
  int64_t first = static_cast<int64_t>(blockIdx.x) * T;
  int64_t key = first + threadIdx.x;
  bool active = keyVisible(p, b, h, key);

  float k[W], v[W], gradKey[W], gradValue[W];
  if (active) {
    loadOwn(k, p.key, b, h, key, p.width, p.scale);
    loadOwn(v, p.value, b, h, key, p.value_width, 1.0f);
  }
#pragma unroll
  for (int c = 0; c < W; ++c)
    gradKey[c] = gradValue[c] = 0.0f;

  // Causal: queries before the block's first key see none of its keys.
  int64_t start = p.causal ? first : 0;
  const float *out = static_cast<const float *>(p.out.data);
  const float *gradOut = static_cast<const float *>(p.grad_out.data);
  const float *lse = static_cast<const float *>(p.lse.data);
  for (int64_t tile = start; tile < p.queries; tile += T) {
    __syncthreads();
    loadRows<T, W>(queries, p.query, b, h, tile, p.queries, p.width);
    loadRows<T, W>(gradOuts, p.grad_out, b, h, tile, p.queries, p.value_width);
    int64_t row = tile + threadIdx.x;
    float rowLse = kNegInf, rowDelta = 0.0f;
    if (row < p.queries) {
      rowLse = lse[rowAt(p.lse, b, h, row)];
      for (int64_t c = 0; c < p.value_width; ++c)
        rowDelta += gradOut[at(p.grad_out, b, h, row, c)] *
                    out[at(p.out, b, h, row, c)];
    }
    lses[threadIdx.x] = rowLse;
    deltas[threadIdx.x] = rowDelta;
    __syncthreads();
    if (!active)
      continue;
    for (int r = 0; r < T; ++r) {
      int64_t query = tile + r;
      bool takes = query < p.queries && (!p.causal || key <= query);
      if (!takes)
        continue;
      float prob = probability(dotRow(k, queries + r * W), lses[r]);
      axpyRow(gradValue, prob, gradOuts + r * W);
      float gradScore = prob * (dotRow(v, gradOuts + r * W) - deltas[r]);
      axpyRow(gradKey, gradScore, queries + r * W);
    }
  }
  if (key < p.keys) {
    // Masked keys get zero gradients: every key row is written.
    storeOwn(gradKey, p.grad_key, b, h, key, p.width, p.scale);
    storeOwn(gradValue, p.grad_value, b, h, key, p.value_width, 1.0f);
  }
}

} // namespace

/// The head widths kernels exist for, with the rows per block each uses
/// (fewer rows for wider heads: the shared tiles stay under 228 KiB).
#define CKPT_ATTENTION_KERNELS(W, T)                                           \
  extern "C" __global__ void __launch_bounds__(T)                              \
      ckpt_attention_forward_##W(ckpt_attention_params p) {                    \
    forward<T, W>(p);                                                          \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(T)                              \
      ckpt_attention_query_grad_##W(ckpt_attention_params p) {                 \
    queryGradient<T, W>(p);                                                    \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(T)                              \
      ckpt_attention_key_value_grad_##W(ckpt_attention_params p) {             \
    keyValueGradient<T, W>(p);                                                 \
  }

CKPT_ATTENTION_KERNELS(32, 64)
CKPT_ATTENTION_KERNELS(64, 64)
CKPT_ATTENTION_KERNELS(128, 64)
CKPT_ATTENTION_KERNELS(256, 32)
