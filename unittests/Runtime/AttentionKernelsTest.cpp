//===- AttentionKernelsTest.cpp - the CUDA attention kernels on the CPU ---===//
//
// Runs the device code of lib/Runtime/CUDA/AttentionKernels.cu on the host:
// the file is compiled as C++ with the few CUDA constructs it uses defined
// here (thread and block indices per host thread, one shared-memory array
// per block, __syncthreads as a barrier), and every block runs as its
// threads on host threads. The results are compared with a direct
// evaluation of the attention formulas in double precision, for every head
// width the kernels exist for, causal and not, with key masks (also rows
// that see no key), more keys than queries, value widths unlike the key's
// and strided (transposed) operands. No GPU is needed: what a GPU adds
// (registers, occupancy, launch limits) is checked by the GPU package.
//
//===----------------------------------------------------------------------===//

#include "AttentionParams.h"

#include <gtest/gtest.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace emulated {

struct Index {
  unsigned x = 0, y = 0, z = 0;
};
thread_local Index threadIdx;
thread_local Index blockIdx;

namespace {
/// The block's shared memory (the kernels' `extern __shared__` array, in
/// the same unnamed namespace as they are): blocks run one at a time.
alignas(16) float shared[64 * 1024];
} // namespace

pthread_barrier_t barrier;
inline void __syncthreads() { pthread_barrier_wait(&barrier); }

struct float4 {
  float x, y, z, w;
};
using std::min;

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(threads)
#define __shared__

// The kernels, as host functions (their `extern "C"` names stay).
#include "AttentionKernels.cu"

#undef __global__
#undef __device__
#undef __forceinline__
#undef __launch_bounds__
#undef __shared__

/// Runs `kernel` over (gridX, gridY) blocks of `threads` host threads.
void launch(void (*kernel)(ckpt_attention_params), unsigned gridX,
            unsigned gridY, unsigned threads,
            const ckpt_attention_params &params) {
  for (unsigned by = 0; by < gridY; ++by) {
    for (unsigned bx = 0; bx < gridX; ++bx) {
      std::memset(shared, 0xff, sizeof(shared)); // stale data must not matter
      pthread_barrier_init(&barrier, nullptr, threads);
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
          threadIdx.x = t;
          blockIdx.x = bx;
          blockIdx.y = by;
          kernel(params);
        });
      }
      for (std::thread &worker : workers)
        worker.join();
      pthread_barrier_destroy(&barrier);
    }
  }
}

} // namespace emulated

namespace {

using emulated::ckpt_attention_forward_128;
using emulated::ckpt_attention_forward_256;
using emulated::ckpt_attention_forward_32;
using emulated::ckpt_attention_forward_64;
using emulated::ckpt_attention_key_value_grad_128;
using emulated::ckpt_attention_key_value_grad_256;
using emulated::ckpt_attention_key_value_grad_32;
using emulated::ckpt_attention_key_value_grad_64;
using emulated::ckpt_attention_query_grad_128;
using emulated::ckpt_attention_query_grad_256;
using emulated::ckpt_attention_query_grad_32;
using emulated::ckpt_attention_query_grad_64;

using Kernel = void (*)(ckpt_attention_params);

/// The kernels of one head width and the rows of their blocks (as
/// Attention.cpp picks them).
struct Kernels {
  int width;
  unsigned rows;
  Kernel forward, queryGrad, keyValueGrad;
};
const Kernels kKernels[] = {
    {32, 64, ckpt_attention_forward_32, ckpt_attention_query_grad_32,
     ckpt_attention_key_value_grad_32},
    {64, 64, ckpt_attention_forward_64, ckpt_attention_query_grad_64,
     ckpt_attention_key_value_grad_64},
    {128, 64, ckpt_attention_forward_128, ckpt_attention_query_grad_128,
     ckpt_attention_key_value_grad_128},
    {256, 32, ckpt_attention_forward_256, ckpt_attention_query_grad_256,
     ckpt_attention_key_value_grad_256},
};

const Kernels &kernelsFor(int64_t width) {
  for (const Kernels &kernels : kKernels)
    if (kernels.width >= width)
      return kernels;
  ADD_FAILURE() << "no kernel for width " << width;
  return kKernels[0];
}

/// A [B, H, rows, cols] tensor stored with its own axis order: `order`
/// lists the axes from outermost to innermost in memory.
struct Tensor {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  std::vector<float> data;

  Tensor(std::vector<int64_t> shape, std::vector<int> order) : sizes(shape) {
    strides.assign(shape.size(), 0);
    int64_t stride = 1;
    for (int i = static_cast<int>(order.size()) - 1; i >= 0; --i) {
      strides[order[i]] = stride;
      stride *= shape[order[i]];
    }
    data.assign(stride, NAN);
  }
  static std::vector<int> rowMajor(size_t rank) {
    std::vector<int> order(rank);
    for (size_t i = 0; i < rank; ++i)
      order[i] = static_cast<int>(i);
    return order;
  }
  explicit Tensor(std::vector<int64_t> shape)
      : Tensor(shape, rowMajor(shape.size())) {}

  float &at(std::initializer_list<int64_t> index) {
    int64_t offset = 0, d = 0;
    for (int64_t i : index)
      offset += i * strides[d++];
    return data[offset];
  }
  ckpt_attention_view view() {
    ckpt_attention_view v;
    std::memset(&v, 0, sizeof(v));
    v.data = data.data();
    for (size_t d = 0; d < strides.size(); ++d)
      v.strides[d] = strides[d];
    return v;
  }
  void fill(std::mt19937 &random) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float &x : data)
      x = uniform(random);
  }
};

struct Case {
  int64_t batch, heads, queries, keys, width, valueWidth;
  bool causal, masked, transposed;
};

std::string describe(const Case &c) {
  return "B" + std::to_string(c.batch) + " H" + std::to_string(c.heads) +
         " Sq" + std::to_string(c.queries) + " Sk" + std::to_string(c.keys) +
         " D" + std::to_string(c.width) + " Dv" + std::to_string(c.valueWidth) +
         (c.causal ? " causal" : "") + (c.masked ? " masked" : "") +
         (c.transposed ? " transposed" : "");
}

/// Runs forward and gradient kernels on random inputs and compares every
/// output with the formulas evaluated in double precision.
void check(const Case &c) {
  SCOPED_TRACE(describe(c));
  std::mt19937 random(1234);
  int64_t B = c.batch, H = c.heads, Sq = c.queries, Sk = c.keys, D = c.width,
          Dv = c.valueWidth;
  // Transposed: stored [B, S, H, D] as PyTorch's heads split leaves them.
  std::vector<int> order =
      c.transposed ? std::vector<int>{0, 2, 1, 3} : Tensor::rowMajor(4);
  Tensor q({B, H, Sq, D}, order), k({B, H, Sk, D}, order),
      v({B, H, Sk, Dv}, order), o({B, H, Sq, Dv}), lse({B, H, Sq}),
      gradOut({B, H, Sq, Dv}, order), dq({B, H, Sq, D}), dk({B, H, Sk, D}),
      dv({B, H, Sk, Dv});
  q.fill(random);
  k.fill(random);
  v.fill(random);
  gradOut.fill(random);
  std::vector<unsigned char> mask(B * H * Sk, 1);
  if (c.masked)
    for (unsigned char &bit : mask)
      bit = random() % 3 != 0; // a third of the keys are padding
  // With a mask, batch 0's first key is padding: under `causal` its first
  // query sees no key at all (zero output, -inf lse, zero gradient).
  if (c.masked)
    mask[0] = 0;
  float scale = 1.0f / std::sqrt(static_cast<float>(D));

  ckpt_attention_params p;
  std::memset(&p, 0, sizeof(p));
  p.query = q.view();
  p.key = k.view();
  p.value = v.view();
  p.out = o.view();
  p.lse = lse.view();
  p.grad_out = gradOut.view();
  p.grad_query = dq.view();
  p.grad_key = dk.view();
  p.grad_value = dv.view();
  if (c.masked) {
    p.key_mask.data = mask.data();
    p.key_mask.strides[0] = H * Sk;
    p.key_mask.strides[1] = Sk;
    p.key_mask.strides[2] = 1;
  }
  p.heads = H;
  p.queries = Sq;
  p.keys = Sk;
  p.width = D;
  p.value_width = Dv;
  p.scale = scale;
  p.causal = c.causal;

  const Kernels &kernels = kernelsFor(std::max(D, Dv));
  unsigned bh = static_cast<unsigned>(B * H);
  auto blocks = [&](int64_t rows) {
    return static_cast<unsigned>((rows + kernels.rows - 1) / kernels.rows);
  };
  emulated::launch(kernels.forward, blocks(Sq), bh, kernels.rows, p);
  emulated::launch(kernels.keyValueGrad, blocks(Sk), bh, kernels.rows, p);
  emulated::launch(kernels.queryGrad, blocks(Sq), bh, kernels.rows, p);

  double worst = 0.0;
  auto compare = [&](double expected, float actual, const char *what) {
    double error = std::abs(expected - actual) / (1.0 + std::abs(expected));
    worst = std::max(worst, error);
    if (!(error <= 1e-5))
      ADD_FAILURE() << what << ": " << actual << ", expected " << expected;
  };
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < H; ++h) {
      auto visible = [&](int64_t i, int64_t j) {
        return mask[(b * H + h) * Sk + j] && (!c.causal || j <= i);
      };
      // P, the row log-sum-exps, dP and dS in double precision.
      std::vector<double> P(Sq * Sk, 0.0), dS(Sq * Sk, 0.0);
      for (int64_t i = 0; i < Sq; ++i) {
        std::vector<double> s(Sk, -INFINITY);
        double m = -INFINITY;
        for (int64_t j = 0; j < Sk; ++j) {
          if (!visible(i, j))
            continue;
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += double(q.at({b, h, i, d})) * k.at({b, h, j, d});
          s[j] = dot * scale;
          m = std::max(m, s[j]);
        }
        double sum = 0;
        for (int64_t j = 0; j < Sk; ++j)
          sum += std::isinf(s[j]) ? 0.0 : std::exp(s[j] - m);
        double rowLse = sum > 0 ? m + std::log(sum) : -INFINITY;
        if (sum > 0)
          compare(rowLse, lse.at({b, h, i}), "lse");
        else
          EXPECT_EQ(lse.at({b, h, i}), -INFINITY) << "lse of an empty row";
        for (int64_t j = 0; j < Sk; ++j)
          P[i * Sk + j] = std::isinf(s[j]) ? 0.0 : std::exp(s[j] - rowLse);
        double delta = 0;
        for (int64_t e = 0; e < Dv; ++e) {
          double out = 0;
          for (int64_t j = 0; j < Sk; ++j)
            out += P[i * Sk + j] * v.at({b, h, j, e});
          compare(out, o.at({b, h, i, e}), "out");
          delta += out * gradOut.at({b, h, i, e});
        }
        for (int64_t j = 0; j < Sk; ++j) {
          double dp = 0;
          for (int64_t e = 0; e < Dv; ++e)
            dp += double(gradOut.at({b, h, i, e})) * v.at({b, h, j, e});
          dS[i * Sk + j] = P[i * Sk + j] * (dp - delta);
        }
      }
      for (int64_t i = 0; i < Sq; ++i) {
        for (int64_t d = 0; d < D; ++d) {
          double sum = 0;
          for (int64_t j = 0; j < Sk; ++j)
            sum += dS[i * Sk + j] * k.at({b, h, j, d});
          compare(sum * scale, dq.at({b, h, i, d}), "dq");
        }
      }
      for (int64_t j = 0; j < Sk; ++j) {
        for (int64_t d = 0; d < D; ++d) {
          double sum = 0;
          for (int64_t i = 0; i < Sq; ++i)
            sum += dS[i * Sk + j] * q.at({b, h, i, d});
          compare(sum * scale, dk.at({b, h, j, d}), "dk");
        }
        for (int64_t e = 0; e < Dv; ++e) {
          double sum = 0;
          for (int64_t i = 0; i < Sq; ++i)
            sum += P[i * Sk + j] * gradOut.at({b, h, i, e});
          compare(sum, dv.at({b, h, j, e}), "dv");
        }
      }
    }
  }
  ::testing::Test::RecordProperty("max_error", std::to_string(worst));
}

TEST(AttentionKernels, Width32CausalAcrossTiles) {
  check({1, 2, 130, 130, 16, 16, true, false, false});
}

TEST(AttentionKernels, Width64MaskedMoreKeys) {
  check({2, 3, 50, 70, 40, 24, false, true, false});
}

TEST(AttentionKernels, Width64CausalMaskedTransposed) {
  // Rows with no visible key (the first query of batch 0) get zeros.
  check({2, 2, 67, 67, 64, 64, true, true, true});
}

TEST(AttentionKernels, Width128FewerKeys) {
  check({1, 2, 40, 9, 96, 100, false, false, true});
}

TEST(AttentionKernels, Width256Causal) {
  check({1, 1, 45, 45, 200, 72, true, false, false});
}

TEST(AttentionKernels, SingleKey) {
  check({1, 1, 3, 1, 8, 8, false, false, false});
}

/// The same inputs give the same bits (no sum depends on thread timing):
/// a recomputed attention is bit-identical.
TEST(AttentionKernels, Deterministic) {
  Case c{1, 2, 70, 70, 32, 32, true, false, false};
  auto run = [&] {
    std::mt19937 random(7);
    Tensor q({1, 2, 70, 32}), o({1, 2, 70, 32}), lse({1, 2, 70}),
        dq({1, 2, 70, 32}), dk({1, 2, 70, 32}), dv({1, 2, 70, 32});
    q.fill(random);
    ckpt_attention_params p;
    std::memset(&p, 0, sizeof(p));
    p.query = p.key = p.value = p.grad_out = q.view();
    p.out = o.view();
    p.lse = lse.view();
    p.grad_query = dq.view();
    p.grad_key = dk.view();
    p.grad_value = dv.view();
    p.heads = 2;
    p.queries = p.keys = 70;
    p.width = p.value_width = 32;
    p.scale = 0.125f;
    p.causal = c.causal;
    emulated::launch(ckpt_attention_forward_32, 2, 2, 64, p);
    emulated::launch(ckpt_attention_key_value_grad_32, 2, 2, 64, p);
    emulated::launch(ckpt_attention_query_grad_32, 2, 2, 64, p);
    std::vector<float> all = o.data;
    for (const Tensor *t : {&lse, &dq, &dk, &dv})
      all.insert(all.end(), t->data.begin(), t->data.end());
    return all;
  };
  std::vector<float> first = run(), second = run();
  ASSERT_EQ(first.size(), second.size());
  EXPECT_EQ(
      std::memcmp(first.data(), second.data(), first.size() * sizeof(float)),
      0);
}

} // namespace
