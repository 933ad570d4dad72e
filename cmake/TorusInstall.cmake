# Installation: the public headers, two shared libraries and a CMake package.
#
#   Torus::torus    libtorus.so: tracing, autodiff, compile(), the runtime,
#                   and the Strategy API when it is built.
#   Torus::runtime  libtorus_runtime.so: loads and runs saved programs; no
#                   compiler inside.
#
# In the build tree every layer is a static library (fast incremental builds,
# one copy of each symbol per test); the installed libraries are those
# archives linked whole into shared objects, so a user links one library and
# sees only include/torus/. They depend on Debian's libLLVM/libMLIR (found by
# RPATH) and on abseil, which the installed headers use.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TORUS_LLVM_RPATH "${LLVM_LIBRARY_DIR}")

function(torus_add_installed_library target outputName exportName)
  cmake_parse_arguments(ARG "" "" "WHOLE" ${ARGN})
  file(WRITE ${PROJECT_BINARY_DIR}/${target}_empty.cpp
       "// The library's code comes from the archives linked whole.\n")
  add_library(${target} SHARED ${PROJECT_BINARY_DIR}/${target}_empty.cpp)
  # Every object of these archives goes in; naming the targets afterwards
  # brings their external dependencies (LLVM, MLIR, abseil, fmt) and the
  # build order. (CMake's WHOLE_ARCHIVE feature rejects archives that also
  # appear as transitive dependencies, as these do.)
  set(files)
  foreach(archive ${ARG_WHOLE})
    list(APPEND files $<TARGET_FILE:${archive}>)
  endforeach()
  target_link_libraries(${target} PRIVATE
    -Wl,--whole-archive ${files} -Wl,--no-whole-archive ${ARG_WHOLE})
  target_link_libraries(${target} INTERFACE absl::status absl::statusor)
  target_include_directories(${target} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # The public headers use C++20 (std::span, designated initializers).
  target_compile_features(${target} INTERFACE cxx_std_20)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${outputName}
    EXPORT_NAME ${exportName}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    INSTALL_RPATH "${TORUS_LLVM_RPATH}")
  install(TARGETS ${target} EXPORT TorusTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

set(TORUS_RUNTIME_ARCHIVES
  TorusRuntimeApi TorusAot TorusJit TorusProgramSpecIO TorusExecutor
  TorusCollectives TorusTraceRecorder TorusRuntimeCore TorusProgramSpec
  TorusSupport)
torus_add_installed_library(torus_runtime_shared torus_runtime runtime
  WHOLE ${TORUS_RUNTIME_ARCHIVES})

set(TORUS_ARCHIVES torus ${TORUS_RUNTIME_ARCHIVES} TorusTrace)
if(TARGET TorusDistribute)
  list(PREPEND TORUS_ARCHIVES TorusDistribute)
endif()
torus_add_installed_library(torus_shared torus torus WHOLE ${TORUS_ARCHIVES})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/torus
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(EXPORT TorusTargets NAMESPACE Torus::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Torus)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/TorusConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TorusConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Torus)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/TorusConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TorusConfig.cmake
              ${PROJECT_BINARY_DIR}/TorusConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Torus)

# torus.pc finds its prefix from its own folder (pkg-config's ${pcfiledir}),
# so that `cmake --install --prefix` anywhere, or a moved prefix, works.
file(RELATIVE_PATH TORUS_PC_PREFIX_FROM_PCFILEDIR
     "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" TORUS_PC_PREFIX_FROM_PCFILEDIR
       "${TORUS_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/torus.pc.in
               ${PROJECT_BINARY_DIR}/torus.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/torus.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The command-line tools, finding Debian's LLVM/MLIR by RPATH as the
# libraries do.
foreach(tool torusc torus-run torus-opt)
  set_target_properties(${tool} PROPERTIES INSTALL_RPATH "${TORUS_LLVM_RPATH}")
  install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
# torus-launch starts a multi-worker job's processes (a Python script).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/torus-launch
        DESTINATION ${CMAKE_INSTALL_BINDIR})

# The public headers compile with nothing but std and abseil.
add_library(TorusPublicHeadersCheck OBJECT
  ${PROJECT_SOURCE_DIR}/tests/headers/PublicHeadersCheck.cpp)
target_include_directories(TorusPublicHeadersCheck PRIVATE
  ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(TorusPublicHeadersCheck PRIVATE absl::status
                                                      absl::statusor)

# Install into a temporary prefix and build examples/embedding against it.
add_test(NAME embedding.install-and-build
  COMMAND ${PROJECT_SOURCE_DIR}/tests/embedding/install-and-build.sh
          ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
          ${PROJECT_BINARY_DIR}/embedding-test ${CMAKE_CXX_COMPILER}
          "${CMAKE_CXX_FLAGS}" "${CMAKE_EXE_LINKER_FLAGS}")
set_tests_properties(embedding.install-and-build PROPERTIES
  PASS_REGULAR_EXPRESSION "embedding: pkg-config build from a moved prefix and the installed tools: OK")
