# mgpu_add_host_object(<name> <input.mlir>
#                      [EMBED <name>=<file> ...]   objects whose blob is "@file:<name>" get <file>'s bytes
#                      [DEPENDS <target> ...]      targets that make the EMBED files
#                      [OPTIONS <arg> ...]         more gpu-translate options (--module-load=ctor, -g, ...)
#                      [RUNTIME <target>])         the runtime users of <name> link (default mgpu::mgpu)
#
# Translates <input.mlir> with gpu-translate into <name>.o in the current binary directory and wraps it in
# a static library target <name>, which links the runtime for whoever links it:
#
#   mgpu_add_host_object(axpy_host axpy.mlir EMBED axpy=$<TARGET_FILE:axpy_kernels> DEPENDS axpy_kernels)
#   target_link_libraries(app PRIVATE axpy_host)
#
# The object is remade when the input or any EMBED file changes: gpu-translate writes a dependency file
# (-MD -MF) that CMake reads (DEPFILE). gpu-translate is MGPU_TRANSLATE when set, else the one installed
# next to this package (PREFIX/bin), else the source tree's tools/gpu-translate, else the first on PATH.
#
# gpu-translate runs through its resident server (MGPU_SERVER=1: one JVM serves the build's runs, started by
# the first); -DMGPU_SERVER=OFF runs each in a process of its own, as a hermetic sandbox that keeps no
# process between actions (Bazel's, Nix's) needs.
# Global, so that the function finds it when called from a parent of an add_subdirectory() scope.
set_property(GLOBAL PROPERTY MGPU_HOST_OBJECT_DIR "${CMAKE_CURRENT_LIST_DIR}")
option(MGPU_SERVER "Run gpu-translate through its resident server (OFF in hermetic sandboxes)" ON)

function(mgpu_add_host_object name input)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "RUNTIME" "EMBED;DEPENDS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mgpu_add_host_object(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT MGPU_TRANSLATE)
    get_property(_mgpu_host_object_dir GLOBAL PROPERTY MGPU_HOST_OBJECT_DIR)
    find_program(MGPU_TRANSLATE gpu-translate
      HINTS "${_mgpu_host_object_dir}/../../../bin" "${_mgpu_host_object_dir}/../../tools"
      DOC "gpu-translate, which mgpu_add_host_object runs")
    if(NOT MGPU_TRANSLATE)
      message(FATAL_ERROR "mgpu_add_host_object(${name}): gpu-translate not found; set MGPU_TRANSLATE")
    endif()
  endif()
  get_filename_component(input "${input}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.o")
  set(embeds)
  set(files)
  foreach(e IN LISTS arg_EMBED)
    if(NOT e MATCHES "^[^=]+=.+$")
      message(FATAL_ERROR "mgpu_add_host_object(${name}): EMBED wants NAME=FILE, not: ${e}")
    endif()
    list(APPEND embeds --embed "${e}")
    string(REGEX REPLACE "^[^=]+=" "" f "${e}")
    list(APPEND files "${f}")
  endforeach()
  set(depfile_args)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
    set(depfile_args DEPFILE "${out}.d")
  endif()
  set(server MGPU_SERVER=0)
  if(MGPU_SERVER)
    set(server MGPU_SERVER=1)
  endif()
  add_custom_command(OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -E env ${server} "${MGPU_TRANSLATE}" --emit=obj ${arg_OPTIONS} ${embeds} -MD -MF "${out}.d" "${input}" -o "${out}"
    DEPENDS "${input}" ${files} ${arg_DEPENDS}
    ${depfile_args}
    COMMENT "gpu-translate ${name}.o"
    VERBATIM COMMAND_EXPAND_LISTS)
  set_source_files_properties("${out}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${name} STATIC "${out}")
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  if(NOT arg_RUNTIME)
    set(arg_RUNTIME mgpu::mgpu)
  endif()
  target_link_libraries(${name} INTERFACE ${arg_RUNTIME})
endfunction()
