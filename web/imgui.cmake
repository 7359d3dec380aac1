# Dear ImGui 1.86 for the browser (included by web/CMakeLists.txt): the core and the GLFW and OpenGL3
# backends compiled from the sources scripts/web-imgui-sources.sh unpacks (IMGUI_DIR), for
# emscripten's built-in GLFW and WebGL2 (OpenGL ES 3, "#version 300 es"); the app's panels, fonts,
# string table and key queue (views/panels.cmake, views/key_queue.cpp) on top; the CJK font the site
# carries.
set(IMGUI_DIR "" CACHE PATH "Dear ImGui 1.86's source tree (scripts/web-imgui-sources.sh)")
if(NOT EXISTS "${IMGUI_DIR}/imgui.h" OR NOT EXISTS "${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp")
  message(FATAL_ERROR "IMGUI_DIR='${IMGUI_DIR}' holds no Dear ImGui sources: build with scripts/build-web.sh")
endif()
file(STRINGS "${IMGUI_DIR}/imgui.h" IMGUI_VERSION_LINE REGEX "^#define IMGUI_VERSION +\"")
if(NOT IMGUI_VERSION_LINE MATCHES "\"1\\.86\"")
  message(FATAL_ERROR "${IMGUI_DIR}/imgui.h is not Dear ImGui 1.86 (${IMGUI_VERSION_LINE}); the desktop uses 1.86")
endif()
add_library(imgui STATIC ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
                         ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp
                         ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR})
# 32-bit indices: a panel drawn as many cells (the pictures: up to 3 × 160² rectangles) passes 65,536
# vertices, and WebGL2 has no glDrawElementsBaseVertex for ImGui's 16-bit indices with vertex offsets.
target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_DEMO_WINDOWS "ImDrawIdx=unsigned int")
target_compile_options(imgui PRIVATE -w)  # third-party code, warnings are not ours to fix

# The Latin/Greek/math font compiled in, as in the desktop build (views/CMakeLists.txt).
set(NORMLAB_FONT_FILE ${NORMLAB_ROOT}/assets/fonts/DejaVuSans-subset.ttf)
set_source_files_properties(${NORMLAB_ROOT}/views/embedded_font.cpp PROPERTIES
  COMPILE_DEFINITIONS "NORMLAB_FONT_FILE=\"${NORMLAB_FONT_FILE}\"" OBJECT_DEPENDS ${NORMLAB_FONT_FILE})
# The app's panels (views/panels.cmake: the same list the desktop compiles into normlab_panels) and the
# one shell both apps show (views/shell.cmake: the shell, its action table and the key queue, as the
# desktop's normlab_shell).
include(${NORMLAB_ROOT}/views/panels.cmake)
include(${NORMLAB_ROOT}/views/shell.cmake)
list(REMOVE_ITEM NORMLAB_PANEL_SOURCES ${NORMLAB_ROOT}/views/colormap.cpp)  # in normlab_web_shared already
add_library(normlab_web_ui STATIC ${NORMLAB_PANEL_SOURCES} ${NORMLAB_SHELL_SOURCES})
target_include_directories(normlab_web_ui PUBLIC ${NORMLAB_ROOT}/views)
target_link_libraries(normlab_web_ui PUBLIC imgui normlab_session normlab_train normlab_web_headers)

# Chinese: a CJK font from a Debian package (fonts-droid-fallback), served as a file of the site and
# written into emscripten's file system by app_page.js where views/fonts.cpp looks for it.
set(CJK_FONT "" CACHE FILEPATH "the CJK font the site carries (DroidSansFallbackFull.ttf)")
if(NOT EXISTS "${CJK_FONT}")
  message(FATAL_ERROR "CJK_FONT='${CJK_FONT}' is missing: install fonts-droid-fallback (scripts/build-web.sh does)")
endif()
configure_file(${CJK_FONT} ${SITE_DIR}/fonts/DroidSansFallbackFull.ttf COPYONLY)
if(EXISTS /usr/share/doc/fonts-droid-fallback/copyright)
  configure_file(/usr/share/doc/fonts-droid-fallback/copyright ${SITE_DIR}/fonts/LICENSE-DroidSansFallback.txt
                 COPYONLY)
endif()
