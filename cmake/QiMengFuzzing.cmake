# Fuzzing (fuzz/, docs/fuzzing.md).
#
# QIMENG_BUILD_FUZZERS (default ON; OFF for QIMENG_STATIC_MLIR): build the
# fuzz targets. In a normal
# build each is a plain executable with fuzz/StandaloneMain.cpp as its driver
# (runs a corpus and seeded mutations of it; test/Fuzz uses that).
#
# QIMENG_LIBFUZZER (clang only, default OFF): the targets are libFuzzer
# binaries (-fsanitize=fuzzer), and the whole project is compiled with
# -fsanitize=fuzzer-no-link,address,undefined, so libFuzzer sees the
# coverage of QiMeng's own code and memory errors and undefined behaviour
# stop it. scripts/fuzz.sh configures such a build in build-fuzz/.

# A static build ships tools; it builds no fuzz targets unless asked.
if(QIMENG_STATIC_MLIR)
  set(_qimeng_fuzz_default OFF)
else()
  set(_qimeng_fuzz_default ON)
endif()
option(QIMENG_BUILD_FUZZERS "Build the fuzz targets (fuzz/)"
  ${_qimeng_fuzz_default})
option(QIMENG_LIBFUZZER
  "Build the fuzz targets with libFuzzer and the project with coverage, \
ASan and UBSan (clang only)" OFF)

if(QIMENG_LIBFUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "QIMENG_LIBFUZZER=ON needs clang (e.g. "
      "-DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22); "
      "this build uses ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT QIMENG_BUILD_FUZZERS)
    message(FATAL_ERROR "QIMENG_LIBFUZZER=ON needs QIMENG_BUILD_FUZZERS=ON")
  endif()
  if(QIMENG_STATIC_MLIR)
    message(FATAL_ERROR "QIMENG_LIBFUZZER=ON works with the shared libMLIR.so "
      "only (QIMENG_STATIC_MLIR=OFF)")
  endif()
  # Every QiMeng object file: coverage for libFuzzer, ASan, and UBSan that
  # stops at the first finding. The upstream libMLIR.so is not instrumented.
  set(QIMENG_SANITIZE_FLAGS
    -fsanitize=fuzzer-no-link,address,undefined
    -fno-sanitize-recover=all
    -fno-omit-frame-pointer
    -gline-tables-only)
  add_compile_options(${QIMENG_SANITIZE_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()

# The lit regression test runs the standalone drivers.
if(QIMENG_BUILD_FUZZERS AND NOT QIMENG_LIBFUZZER)
  set(QIMENG_FUZZ_REGRESSION ON)
else()
  set(QIMENG_FUZZ_REGRESSION OFF)
endif()
