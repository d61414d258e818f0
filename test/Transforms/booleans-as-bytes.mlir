// RUN: ckpt-opt %s --ckpt-booleans-as-bytes | FileCheck %s

// i1 loads read the byte and truncate it; i1 stores zero-extend and write a
// byte; other accesses (and vector ones) are left as they are.
// CHECK-LABEL: llvm.func @masks
// CHECK:      %[[BYTE:.*]] = llvm.load %arg0 {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK-NEXT: %[[BIT:.*]] = llvm.trunc %[[BYTE]] : i8 to i1
// CHECK-NEXT: %[[SEL:.*]] = llvm.select %[[BIT]], %arg2, %arg3 : i1, f32
// CHECK-NEXT: %[[WIDE:.*]] = llvm.zext %[[BIT]] : i1 to i8
// CHECK-NEXT: llvm.store %[[WIDE]], %arg1 : i8, !llvm.ptr
// CHECK-NEXT: llvm.store %[[SEL]], %arg1 : f32, !llvm.ptr
// CHECK-NEXT: llvm.load %arg0 : !llvm.ptr -> vector<4xi1>
llvm.func @masks(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: f32, %arg3: f32) {
  %b = llvm.load %arg0 {alignment = 1 : i64} : !llvm.ptr -> i1
  %s = llvm.select %b, %arg2, %arg3 : i1, f32
  llvm.store %b, %arg1 : i1, !llvm.ptr
  llvm.store %s, %arg1 : f32, !llvm.ptr
  %v = llvm.load %arg0 : !llvm.ptr -> vector<4xi1>
  llvm.return
}
