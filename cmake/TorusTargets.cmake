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

# MLIR-facing targets: MLIR's headers, its include dirs and the shared libMLIR.
function(torus_use_mlir name)
  target_include_directories(${name} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  target_compile_definitions(${name} PUBLIC ${LLVM_DEFINITIONS_LIST})
  target_link_libraries(${name} PUBLIC MLIR LLVM)
endfunction()
