# The app's panels that need Dear ImGui and a Session but no Vulkan and no window (heatmap_panel: the
# heatmap's ImGui part; the Controls, statistics, Explain, lesson and histogram panels; the layout;
# fonts, colour tables, the string table, PNG files). One list for both builds: views/CMakeLists.txt compiles it
# into normlab_panels for the desktop, web/imgui.cmake into the browser edition.
set(NORMLAB_PANEL_SOURCES
  colormap.cpp
  heatmap_panel.cpp
  heatmap_zoom.cpp
  touch_input.cpp
  histogram_view.cpp
  line_chart.cpp
  cube_view.cpp
  compare_view.cpp
  gradient_view.cpp
  pair_view.cpp
  picture_panel.cpp
  batch_noise_panel.cpp
  experiment_bar.cpp
  sync_view.cpp
  exercise_ui.cpp
  method_buttons.cpp
  controls_panel.cpp
  controls_tensor.cpp
  image_controls.cpp
  stats_table.cpp
  torch_window.cpp
  explain_panel.cpp
  lesson_panel.cpp
  panel_layout.cpp
  screen_layouts.cpp
  panel_windows.cpp
  png_file.cpp
  i18n.cpp
  i18n_train.cpp
  language_menu.cpp
  fonts.cpp
  embedded_font.cpp
  line_break.cpp
  wrapped_text.cpp)
list(TRANSFORM NORMLAB_PANEL_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
