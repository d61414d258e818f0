/*===- AttentionParams.h - arguments of the attention kernels -----*- C -*-===*\
|*                                                                            *|
|* What Attention.cpp passes (by value) to every kernel of                    *|
|* AttentionKernels.cu: the operands as [batch, heads, rows, columns] views   *|
|* (strides in elements; row views such as the log-sum-exp use the first      *|
|* three) and the sizes. Plain C so that nvcc and the host compiler agree on  *|
|* its layout.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_LIB_RUNTIME_CUDA_ATTENTIONPARAMS_H
#define CKPT_LIB_RUNTIME_CUDA_ATTENTIONPARAMS_H

#include <stdint.h>

/** One operand: the address of its element (0, 0, 0, 0) and its strides. */
typedef struct ckpt_attention_view {
  void *data;
  int64_t strides[4];
} ckpt_attention_view;

/** Operands and sizes of one attention (forward or gradient). Views a kernel
 * does not use are left zero; `key_mask.data` is null without a mask. */
typedef struct ckpt_attention_params {
  ckpt_attention_view query, key, value, out, lse, key_mask;
  ckpt_attention_view grad_out, grad_query, grad_key, grad_value;
  int64_t heads;       /* H: blockIdx.y is b * H + h */
  int64_t queries;     /* Sq */
  int64_t keys;        /* Sk */
  int64_t width;       /* D, of the query and the key */
  int64_t value_width; /* Dv, of the value and the output */
  float scale;
  int32_t causal;
} ckpt_attention_params;

#endif /* CKPT_LIB_RUNTIME_CUDA_ATTENTIONPARAMS_H */
