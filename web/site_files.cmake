# Run after the programs are linked (web/CMakeLists.txt's normlab-site target, cmake -P): writes
# app.html with the byte counts its progress bar shows (app.wasm's and the CJK font's, before any
# compression on the wire), then a gzip -9 copy (NAME.gz, no name or time stamp inside: the same
# bytes for the same file) beside every file of the site over 1 KiB whose copy is missing or older,
# for servers that send them to browsers that accept gzip (scripts/serve-site.py; docs/browser.md).
#   cmake -DSITE=DIR -DAPP_HTML=web/site/app.html -P site_files.cmake
if(NOT SITE OR NOT EXISTS "${SITE}/app.wasm")
  message(FATAL_ERROR "site_files.cmake: SITE='${SITE}' holds no app.wasm")
endif()
file(SIZE "${SITE}/app.wasm" APP_WASM_BYTES)
set(CJK_FONT_BYTES 0)
if(EXISTS "${SITE}/fonts/DroidSansFallbackFull.ttf")
  file(SIZE "${SITE}/fonts/DroidSansFallbackFull.ttf" CJK_FONT_BYTES)
endif()
configure_file("${APP_HTML}" "${SITE}/app.html" @ONLY)

find_program(GZIP gzip REQUIRED)
file(GLOB files "${SITE}/*.html" "${SITE}/*.js" "${SITE}/*.wasm" "${SITE}/*.json" "${SITE}/fonts/*.ttf")
foreach(f ${files})
  file(SIZE "${f}" bytes)
  # gzip gives its copy the file's own time: a copy as old as its file is up to date.
  if(bytes GREATER 1024 AND (NOT EXISTS "${f}.gz" OR NOT "${f}.gz" IS_NEWER_THAN "${f}"))
    execute_process(COMMAND ${GZIP} -9 -n -k -f "${f}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gzip -9 ${f} failed (${rc})")
    endif()
  endif()
endforeach()
