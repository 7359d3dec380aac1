# The one shell both apps show (shell.hpp) with its action table and the key queue: GLFW key codes,
# so only the desktop app and the browser's app compile them (normlab-cli does not); the Train view
# (train_view, train_plot, train_strips_view) and its model (train_runs, train_strips, train_inspect,
# engine/train). One list for both
# builds: views/CMakeLists.txt makes it normlab_shell, web/imgui.cmake compiles it into normlab_web_ui.
set(NORMLAB_SHELL_SOURCES
  key_queue.cpp
  actions.cpp
  shell.cpp
  shell_layout.cpp
  frame_pacer.cpp
  train_runs.cpp
  train_strips.cpp
  train_strips_view.cpp
  train_inspect.cpp
  train_view.cpp
  train_plot.cpp
  train_boundary.cpp
  train_report.cpp)
list(TRANSFORM NORMLAB_SHELL_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
