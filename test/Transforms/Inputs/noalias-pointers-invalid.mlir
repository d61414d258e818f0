// Positions ckpt-apply-noalias-pointers cannot mark (noalias-pointers.mlir).

// expected-error @below {{ckpt.noalias_pointers names argument 1, which is not a pointer argument}}
llvm.func @not_pointer(%p: !llvm.ptr, %n: i64) attributes {ckpt.noalias_pointers = array<i64: 0, 1>} {
  llvm.return
}

// -----

// expected-error @below {{ckpt.noalias_pointers names argument 2, which is not a pointer argument}}
llvm.func @past_the_end(%p: !llvm.ptr, %q: !llvm.ptr) attributes {ckpt.noalias_pointers = array<i64: 2>} {
  llvm.return
}
