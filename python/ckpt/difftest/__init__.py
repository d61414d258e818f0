"""Differential testing of ckpt-remat on seeded random programs.

`ckpt.difftest.generator` builds random loss functions (linalg/tensor ops on
static f32 tensors, `@loss -> tensor<f32>`); `ckpt.difftest.tester` runs
each one, differentiated by ckpt-autodiff, without and with
rematerialization at several budgets and compares outputs and peaks.
Command lines: `python3 -m ckpt.difftest --help` (the tester) and
`python3 -m ckpt.difftest.generator --help` (print one program).
"""
