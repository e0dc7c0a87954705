# dlc links every library and tool against the shared libMLIR.so and
# libLLVM.so that Debian ships: linking the static MLIR archives into three
# tools costs minutes per link on a 2-core machine, the shared library seconds.

# add_dlc_library(name sources... [LINK_LIBS libs...] [DEPENDS targets...])
function(add_dlc_library name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# add_dlc_tool(name sources... [LINK_LIBS libs...])
function(add_dlc_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                           ${CMAKE_BINARY_DIR}/bin)
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# add_dlc_target(Name sources... [LINK_LIBS libs...] [DEPENDS targets...])
# A hardware target in lib/Target/<Name>: builds library DLCTarget<Name>,
# which must define `void dlc::register<Name>Target()` (registering the
# target, its passes and its translations). lib/Target collects every such
# library into the generated list of built-in targets, so adding a target
# touches no shared file. It must also define
# `void dlc::register<Name>TargetDialects(mlir::DialectRegistry &)`, which
# the tools call to load the target's dialects.
function(add_dlc_target name)
  add_dlc_library(DLCTarget${name} ${ARGN})
  set_property(GLOBAL APPEND PROPERTY DLC_TARGETS ${name})
endfunction()
