# Install rules (`cmake --install build --prefix P`) and the .deb (scripts/package.sh, CPack).
# bin/ holds the binaries; share/normlab the assets they find at ../share/normlab
# (options/assets_dir.hpp), so the two paths are fixed, not GNUInstallDirs variables. The
# desktop entry, icon, AppStream metainfo, MIME types and man pages come from packaging/.
set(NORMLAB_PKG ${PROJECT_SOURCE_DIR}/packaging)

install(TARGETS normlab-cli RUNTIME DESTINATION bin)
if(TARGET normlab-bench)
  install(TARGETS normlab-bench RUNTIME DESTINATION bin)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION share/normlab)
install(FILES ${NORMLAB_PKG}/man/normlab-cli.1 DESTINATION share/man/man1)
if(TARGET normlab)
  install(TARGETS normlab RUNTIME DESTINATION bin)
  install(FILES ${NORMLAB_PKG}/man/normlab.1 DESTINATION share/man/man1)
  install(FILES ${NORMLAB_PKG}/normlab.desktop DESTINATION share/applications)
  install(FILES ${NORMLAB_PKG}/normlab.metainfo.xml DESTINATION share/metainfo)
  install(FILES ${NORMLAB_PKG}/normlab-mime.xml DESTINATION share/mime/packages RENAME normlab.xml)
  foreach(px 48 128 256)
    install(FILES ${NORMLAB_PKG}/icons/normlab-${px}.png DESTINATION share/icons/hicolor/${px}x${px}/apps
            RENAME normlab.png)
  endforeach()
  install(FILES ${NORMLAB_PKG}/icons/normlab.svg DESTINATION share/icons/hicolor/scalable/apps)
endif()

# The .deb: Depends = the shared libraries' packages (dpkg-shlibdeps: libvulkan1, libglfw3,
# libc6, libstdc++6, …) plus a Vulkan driver. The Latin/Greek/math font is compiled in, so no
# font package is needed; Chinese text needs a CJK font from /usr/share/fonts (without one the
# app says so and stays in English), hence a Recommends. dpkg's file triggers update the MIME,
# desktop and icon caches.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME normlab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "normlab developers <normlab@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see which elements share normalization statistics")
# The long description: lines of at most 79 characters in the control file (CPack indents them).
set(CPACK_PACKAGE_DESCRIPTION "normlab makes normalization layers visible. It takes an N×C×H×W tensor,
applies BatchNorm, LayerNorm, InstanceNorm, GroupNorm or RMSNorm with
PyTorch's exact semantics, computes every statistic with GLSL compute
shaders on a Vulkan device, and shows which elements share a mean and a
variance, the distributions before and after, and the formula with the real
numbers. For the classroom: a presenter mode, English and Simplified
Chinese, guided lessons and experiments. Also normlab-cli (headless) and
normlab-bench.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "mesa-vulkan-drivers | vulkan-icd")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-droid-fallback | fonts-wqy-microhei")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
