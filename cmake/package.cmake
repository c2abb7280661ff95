# The installed package: sculptflow::sculptflow (and sculptflow::hot_reload),
# their public headers, a CMake config and a pkg-config file. Static by
# default; -DBUILD_SHARED_LIBS=ON builds both shared. Shaders are embedded as
# SPIR-V, so nothing is read at run time.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# SCULPTFLOW_VERSION_MAJOR/MINOR/PATCH from the project version, installed with the headers.
configure_file(cmake/version.h.in ${PROJECT_BINARY_DIR}/include/sculptflow/version.h @ONLY)
target_include_directories(sculptflow_settings INTERFACE ${PROJECT_BINARY_DIR}/include)

add_library(sculptflow $<TARGET_OBJECTS:sculptflow_objects>)
add_library(sculptflow::sculptflow ALIAS sculptflow)
target_include_directories(sculptflow PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(sculptflow PUBLIC cxx_std_20)
target_link_libraries(sculptflow PUBLIC glm::glm Vulkan::Headers
  PRIVATE Threads::Threads tinyobjloader::tinyobjloader ${CMAKE_DL_LIBS})

# The static library's C++ runtime, for a consumer that links with the C driver
# (a C-only project: `cc` adds neither libstdc++ nor libm, and ld does not take
# them from libstdc++.so's own needs). CMake knows that runtime as the C++
# compiler's implicit link libraries less the C compiler's (GCC: stdc++ and m;
# clang with libc++: c++ and its helpers), the set it adds itself where one target
# mixes the two languages, so no library name is spelt here. $<LINK_LANGUAGE:C>
# adds them only to a C link: a C++ link's driver brings its own runtime, and a C
# target in a project with CXX enabled links as CXX (the archive's link interface
# language), so nothing is listed twice or for the wrong standard library (the
# consumer needs CMake 3.18 for the expression). A shared library carries its
# runtime as DT_NEEDED entries instead.
set(SCULPTFLOW_CXX_RUNTIME ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
if(CMAKE_C_IMPLICIT_LINK_LIBRARIES)
  list(REMOVE_ITEM SCULPTFLOW_CXX_RUNTIME ${CMAKE_C_IMPLICIT_LINK_LIBRARIES})
endif()
list(REMOVE_DUPLICATES SCULPTFLOW_CXX_RUNTIME)
if(NOT BUILD_SHARED_LIBS)
  foreach(library ${SCULPTFLOW_CXX_RUNTIME})
    target_link_libraries(sculptflow INTERFACE "$<$<LINK_LANGUAGE:C>:${library}>")
  endforeach()
endif()

set(installed_targets sculptflow)
if(SCULPTFLOW_HOT_RELOAD)
  add_library(sculptflow_hot_reload $<TARGET_OBJECTS:sculptflow_hot_reload_objects>)
  add_library(sculptflow::hot_reload ALIAS sculptflow_hot_reload)
  target_link_libraries(sculptflow_hot_reload PUBLIC sculptflow
    PRIVATE glslang::glslang glslang::SPIRV glslang::glslang-default-resource-limits)
  set_target_properties(sculptflow_hot_reload PROPERTIES EXPORT_NAME hot_reload
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
  list(APPEND installed_targets sculptflow_hot_reload)
endif()

# A shared build re-exports nothing from the static libraries it links (glslang).
if(BUILD_SHARED_LIBS)
  foreach(target ${installed_targets})
    target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
  endforeach()
endif()
# Windows DLL: its objects export the SCULPTFLOW_API names, its users import them (export.hpp).
if(WIN32 AND BUILD_SHARED_LIBS)
  target_compile_definitions(sculptflow_objects PRIVATE SCULPTFLOW_DLL_BUILD)
  target_compile_definitions(sculptflow INTERFACE SCULPTFLOW_DLL)
endif()
set_target_properties(sculptflow PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/sculptflow)
install(TARGETS ${installed_targets} EXPORT sculptflowTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/sculptflow DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/sculptflow/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sculptflow)
install(EXPORT sculptflowTargets NAMESPACE sculptflow:: DESTINATION ${config_dir})

if(BUILD_SHARED_LIBS)
  set(SCULPTFLOW_STATIC OFF)
else()
  set(SCULPTFLOW_STATIC ON)
endif()
configure_package_config_file(cmake/sculptflowConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sculptflowConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sculptflowConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sculptflowConfig.cmake ${PROJECT_BINARY_DIR}/sculptflowConfigVersion.cmake
  DESTINATION ${config_dir})

# pkg-config: a static build lists what its objects need in Libs.private, the C++
# runtime included (a C program links with `cc`; a C++ one repeats what g++ adds,
# which is harmless). Cflags stay C-clean: C++ consumers ask for C++20 themselves.
if(SCULPTFLOW_STATIC)
  set(SCULPTFLOW_PC_LIBS_PRIVATE "-ltinyobjloader -ldl -lpthread")
  foreach(library ${SCULPTFLOW_CXX_RUNTIME})
    if(library MATCHES "^[-/]")
      string(APPEND SCULPTFLOW_PC_LIBS_PRIVATE " ${library}")
    else()
      string(APPEND SCULPTFLOW_PC_LIBS_PRIVATE " -l${library}")
    endif()
  endforeach()
endif()
configure_file(cmake/sculptflow.pc.in ${PROJECT_BINARY_DIR}/sculptflow.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sculptflow.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
