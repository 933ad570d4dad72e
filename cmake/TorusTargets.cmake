# Small helpers so every folder declares its targets the same way.

# torus_add_library(Name SOURCES a.cpp ... DEPS lib ...)
function(torus_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PUBLIC_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_DEPS})
endfunction()

# torus_add_gtest(Name SOURCES FooTest.cpp ... DEPS lib ...)
# One executable per unit; ctest runs it as one test.
function(torus_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
    ${PROJECT_BINARY_DIR}/tests/bin)
  add_test(NAME ${name} COMMAND ${name} --gtest_brief=1)
endfunction()

# LLVM-only targets (no MLIR): LLVM's headers and the shared libLLVM.
function(torus_use_llvm name)
  target_include_directories(${name} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS})
  target_compile_definitions(${name} PUBLIC ${LLVM_DEFINITIONS_LIST})
  target_link_libraries(${name} PUBLIC LLVM)
endfunction()

# MLIR-facing targets: MLIR's headers, its include dirs and the shared libMLIR.
function(torus_use_mlir name)
  target_include_directories(${name} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  target_compile_definitions(${name} PUBLIC ${LLVM_DEFINITIONS_LIST})
  target_link_libraries(${name} PUBLIC MLIR LLVM)
endfunction()

# The x86-64 ISA levels generated code is tested at (runtime/jit/CpuTarget.h):
# every level this host can run, so a run on any machine covers the levels
# below its own. x86-64-v2 and -v3 run everywhere the suite runs; AVX-512
# (v4) where the host has it, then v4 with the host's BF16 and FP16
# instructions: both on Sapphire Rapids, BF16 alone on Zen 4 and Cooper
# Lake. Read from /proc/cpuinfo at configure time: CI configures on the
# machine it tests on.
function(torus_host_isa_levels out)
  set(levels x86-64-v2 x86-64-v3)
  if(EXISTS /proc/cpuinfo)
    file(STRINGS /proc/cpuinfo flags REGEX "^flags" LIMIT_COUNT 1)
    set(v4 TRUE)
    foreach(f avx512f avx512bw avx512dq avx512vl avx512cd)
      if(NOT flags MATCHES " ${f}( |$)")
        set(v4 FALSE)
      endif()
    endforeach()
    if(v4)
      list(APPEND levels x86-64-v4)
      set(half "")
      if(flags MATCHES " avx512_bf16( |$)")
        string(APPEND half ",+avx512bf16")
      endif()
      if(flags MATCHES " avx512_fp16( |$)")
        string(APPEND half ",+avx512fp16")
      endif()
      if(half)
        list(APPEND levels "x86-64-v4${half}")
      endif()
    endif()
  endif()
  set(${out} ${levels} PARENT_SCOPE)
endfunction()

# Runs the gtest `name` again at every ISA level of torus_host_isa_levels,
# as `name.x86-64-v3` and so on (TORUS_TARGET tells compile() the CPU).
function(torus_test_at_isa_levels name)
  torus_host_isa_levels(levels)
  foreach(level IN LISTS levels)
    string(REGEX REPLACE "[,+]+" "-" suffix "${level}")
    add_test(NAME ${name}.${suffix} COMMAND ${name} --gtest_brief=1)
    set_tests_properties(${name}.${suffix} PROPERTIES
                         ENVIRONMENT "TORUS_TARGET=${level}")
  endforeach()
endfunction()
