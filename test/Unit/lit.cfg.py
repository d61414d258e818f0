# -*- Python -*-
"""Runs the GoogleTest executables (names ending in "Tests") under lit."""

import os

import lit.formats

config.name = "CKPT-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.ckpt_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(config.llvm_build_mode, "Tests")

import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import sanitizer_env  # noqa: E402
sanitizer_env.configure(config, getattr(config, "ckpt_sanitize", ""))
