# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DLC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtxt", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dlc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%dlc_src_root", config.dlc_src_root))

llvm_config.with_system_environment(
    ["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "DLC_MODELS_DIR",
     "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]
)
llvm_config.use_default_substitutions()
# `not`, `count`, ... at the start of a RUN line are found on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.dlc_tools_dir, config.llvm_tools_dir]
tools = ["dlc-opt", "dlc-translate", "dlc", "dlc-snowflake-sim",
         "dlc-inferentia-sim"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# MLIR's runtime support libraries, for tests that run lowered IR with
# mlir-runner (`--shared-libs=%mlir_lib_dir/libmlir_runner_utils.so`).
config.substitutions.append(
    ("%mlir_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

# The SW26010 athread emulation (runtime/sunway): tests compile C with the
# compiler the Sunway executor uses (the system one; a sanitizer build's
# clang with its sanitizers) against its headers and link its static library.
config.substitutions.append(("%cc", config.sunway_emulation_cc))
config.substitutions.append(
    ("%sunway_cflags", "-std=c99 -Wall -Wextra -Werror "
     + config.sunway_emulation_cflags + " -I"
     + os.path.join(config.dlc_src_root, "runtime", "sunway", "include")))
config.substitutions.append(
    ("%sunway_libs", os.path.join(config.dlc_obj_root, "lib", "libDLCSunwayEmulation.a")
     + " -lpthread -lm -ldl"))
