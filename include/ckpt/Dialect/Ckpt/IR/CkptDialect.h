//===- CkptDialect.h - ckpt dialect -----------------------------*- C++ -*-===//
//
// The ckpt dialect: gradient checkpointing (rematerialization) as IR.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H
#define CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h.inc"
#include "ckpt/Dialect/Ckpt/IR/CkptEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H
