# Clean-build speed (CI builds everything from scratch twice, Release and ASan, on 2 cores):
# - unity batches: every module's sources and every test folder's are compiled a few files per
#   compiler run, so the heavy headers (nlohmann-json, fmt, GoogleTest, Beast) are parsed and their
#   templates instantiated once per batch instead of once per file. File-local names (anonymous
#   namespaces, static functions) must then be unique within a module or a test folder. Configure
#   with -DLLMTRIAGE_UNITY=OFF for one-file-per-compile while editing a module (quicker rebuild of
#   the file touched).
# - precompiled headers: the standard, fmt and nlohmann-json headers (and GoogleTest for the tests)
#   are compiled once per build tree and reused by every module (tests/CMakeLists.txt: every test).
option(LLMTRIAGE_UNITY "Compile modules and tests in unity batches (faster clean builds)" ON)
option(LLMTRIAGE_PCH "Precompile the third-party and standard headers (faster clean builds)" ON)
set(LLMTRIAGE_UNITY_BATCH 6 CACHE STRING "Source files per unity batch")
# The precompiled header of the modules: headers most of src/ includes. Only third-party and
# standard headers: a project header here would rebuild every module when it changes.
set(LLMTRIAGE_SRC_PCH
  <algorithm> <cmath> <cstdint> <functional> <map> <memory> <optional> <string> <string_view>
  <utility> <vector> <fmt/format.h> <nlohmann/json.hpp>)

# llmtriage_module(NAME DEPS dep1 dep2 ... LIBS extlib ...)
# Builds src/NAME/*.cpp into the OBJECT library llmtriage_NAME.
function(llmtriage_module name)
  cmake_parse_arguments(M "" "" "DEPS;LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  if(srcs)
    add_library(llmtriage_${name} OBJECT ${srcs})
    llmtriage_fast_build(llmtriage_${name} SRC)
    set(vis PUBLIC)
  else()
    add_library(llmtriage_${name} INTERFACE)
    set(vis INTERFACE)
  endif()
  target_include_directories(llmtriage_${name} ${vis} ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(llmtriage_${name} ${vis}
    LLMTRIAGE_VERSION="${PROJECT_VERSION}"
    LLMTRIAGE_DATA_DIR="${PROJECT_SOURCE_DIR}/data")
  foreach(d ${M_DEPS})
    target_link_libraries(llmtriage_${name} ${vis} llmtriage_${d})
  endforeach()
  target_link_libraries(llmtriage_${name} ${vis} fmt::fmt nlohmann_json::nlohmann_json ${M_LIBS})
  if(srcs)
    set_property(GLOBAL APPEND PROPERTY LLMTRIAGE_OBJECT_MODULES llmtriage_${name})
  endif()
  set_property(GLOBAL PROPERTY LLMTRIAGE_DEPS_${name} ${M_DEPS})
endfunction()

# llmtriage_link_module(TARGET MODULE): links TARGET with MODULE's objects and those of every
# module it depends on (transitively), and nothing else — so a module's tests build even while
# an unrelated module is being edited.
function(llmtriage_link_module target mod)
  set(todo ${mod})
  set(seen "")
  while(todo)
    list(POP_FRONT todo m)
    if(m IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${m})
    get_property(deps GLOBAL PROPERTY LLMTRIAGE_DEPS_${m})
    list(APPEND todo ${deps})
  endwhile()
  foreach(m ${seen})
    target_link_libraries(${target} PRIVATE llmtriage_${m})
  endforeach()
endfunction()

# llmtriage_fast_build(TARGET SRC|TEST): unity batches and the shared precompiled header (see the
# top of this file). The first target of each kind compiles the header; the others reuse it, which
# needs the same compile flags (every module has them; every test executable has them).
function(llmtriage_fast_build target kind)
  if(LLMTRIAGE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
      UNITY_BUILD_BATCH_SIZE ${LLMTRIAGE_UNITY_BATCH})
    # GCC warns when a test fixture in an anonymous namespace is the base of a TEST_F class in a
    # file that is not the one compiled (here: every file of a batch); one file per compile it does not.
    if(kind STREQUAL "TEST" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
  if(LLMTRIAGE_PCH)
    # A precompiled header the compiler cannot use is read as text again: say so.
    target_compile_options(${target} PRIVATE -Winvalid-pch)
    get_property(owner GLOBAL PROPERTY LLMTRIAGE_PCH_OWNER_${kind})
    if(owner)
      target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
      target_precompile_headers(${target} PRIVATE ${LLMTRIAGE_${kind}_PCH})
      set_property(GLOBAL PROPERTY LLMTRIAGE_PCH_OWNER_${kind} ${target})
    endif()
  endif()
endfunction()
