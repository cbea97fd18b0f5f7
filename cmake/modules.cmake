option(LLMTRIAGE_UNITY "Compile the settled modules in unity batches (faster builds)" ON)
set(LLMTRIAGE_UNITY_MODULES core catalog ledger ingest net collect sim serve bench)

# llmtriage_module(NAME DEPS dep1 dep2 ... LIBS extlib ...)
# Builds src/NAME/*.cpp into the OBJECT library llmtriage_NAME.
function(llmtriage_module name)
  cmake_parse_arguments(M "" "" "DEPS;LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  if(srcs)
    add_library(llmtriage_${name} OBJECT ${srcs})
    # Unity batches: the heavy headers (nlohmann-json, fmt, Beast) are parsed and their templates
    # instantiated once per batch instead of once per file — about 40% less compile time. File-local
    # names must then be unique within a module (anonymous namespaces share a batch).
    if(LLMTRIAGE_UNITY AND name IN_LIST LLMTRIAGE_UNITY_MODULES)
      set_target_properties(llmtriage_${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
    endif()
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
