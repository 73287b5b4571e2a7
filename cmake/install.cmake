# Installing the library: libqipu.a, the headers under include/qipu/, and what lets
# another project find them (find_package(qipu) with the target qipu::qipu, or
# pkg-config qipu). The program is installed by its own block in CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(QIPU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/qipu)
install(TARGETS qipu_lib EXPORT qipuTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The public headers only; src/ keeps the private ones and grammar/ the reader's grammar.
install(DIRECTORY include/qipu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT qipuTargets NAMESPACE qipu:: DESTINATION ${QIPU_CMAKE_DIR})

configure_package_config_file(cmake/qipuConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/qipuConfig.cmake
  INSTALL_DESTINATION ${QIPU_CMAKE_DIR})
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/qipuConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/qipuConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/qipuConfigVersion.cmake
  DESTINATION ${QIPU_CMAKE_DIR})

# The .pc file finds the prefix from its own place, so that `cmake --install --prefix`
# anywhere (and a moved tree) works.
file(RELATIVE_PATH QIPU_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" QIPU_PC_TO_PREFIX "${QIPU_PC_TO_PREFIX}")
configure_file(cmake/qipu.pc.in ${CMAKE_CURRENT_BINARY_DIR}/qipu.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/qipu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/qipu)
