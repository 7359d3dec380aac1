# normlab_embed(<out_var> <dir> <namespace> <function> <ext>): embeds every <dir>/*.<ext> of the
# source tree at build time (cmake/embed_text.cmake writes <function>.cpp, which defines
# <namespace>::<function>(), in the current binary folder; <out_var> names it, to add to a target).
# Used by engine/io (the presets), engine/classroom (the experiments) and engine/webgpu (the WGSL kernels).
# The files are in the command line, so adding or removing one reruns it.
set(NORMLAB_EMBED_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." CACHE INTERNAL "the source tree normlab_embed reads")

function(normlab_embed out_var dir namespace function ext)
  file(GLOB files CONFIGURE_DEPENDS ${NORMLAB_EMBED_ROOT}/${dir}/*.${ext})
  list(SORT files)
  string(REPLACE ";" "|" joined "${files}")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${function}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DFILES=${joined} -DPREFIX=${dir}/ -DFUNCTION=${function} -DNAMESPACE=${namespace}
            -DOUT=${out} -P ${NORMLAB_EMBED_ROOT}/cmake/embed_text.cmake
    DEPENDS ${files} ${NORMLAB_EMBED_ROOT}/cmake/embed_text.cmake
    COMMENT "Embedding ${dir}/"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
