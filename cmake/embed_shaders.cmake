# Writes OUT: a C++ file defining normlab::gpu::embedded_shaders(), a map from file name to the
# GLSL source of every shader in SHADER_DIR. Run at build time (add_custom_command).
file(GLOB shader_files "${SHADER_DIR}/*.comp" "${SHADER_DIR}/*.vert" "${SHADER_DIR}/*.frag" "${SHADER_DIR}/*.glsl")
list(SORT shader_files)
set(body "")
foreach(f ${shader_files})
  get_filename_component(name "${f}" NAME)
  file(READ "${f}" src)
  string(APPEND body "        {\"${name}\", R\"NLSHADER(${src})NLSHADER\"},\n")
endforeach()
string(CONCAT text
  "// Generated from shaders/ by cmake/embed_shaders.cmake; do not edit.\n"
  "#include <map>\n#include <string>\nnamespace normlab::gpu {\n"
  "const std::map<std::string, std::string>& embedded_shaders() {\n"
  "    static const std::map<std::string, std::string> shaders{\n${body}    };\n"
  "    return shaders;\n}\n}  // namespace normlab::gpu\n")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
