# The dependencies of a MinGW build. Debian builds its libraries for Linux only,
# so this takes the header-only packages' headers (GLM, nlohmann-json, CLI11, the
# Vulkan headers, stb, tinyobjloader, tinygltf) and compiles what has an implementation:
# stb (stb_impl.c), tinyobjloader (tinyobjloader_impl.cpp, in src/) and GoogleTest
# (Debian's googletest sources). /usr/include itself holds glibc's headers, so the
# needed directories are linked into one folder of the build instead.
set(mingw_headers ${PROJECT_BINARY_DIR}/mingw-include)
file(MAKE_DIRECTORY ${mingw_headers})
foreach(entry glm nlohmann CLI vulkan vk_video stb tiny_obj_loader.h tiny_gltf.h)
  if(NOT EXISTS /usr/include/${entry})
    message(FATAL_ERROR "/usr/include/${entry} not found: run tools/install-deps.sh")
  endif()
  if(NOT EXISTS ${mingw_headers}/${entry})
    file(CREATE_LINK /usr/include/${entry} ${mingw_headers}/${entry} SYMBOLIC)
  endif()
endforeach()

foreach(target glm::glm nlohmann_json::nlohmann_json CLI11::CLI11 Vulkan::Headers tinyobjloader::tinyobjloader)
  add_library(${target} INTERFACE IMPORTED)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${mingw_headers})
endforeach()

add_library(sculptflow_stb STATIC ${CMAKE_CURRENT_LIST_DIR}/stb_impl.c)
target_include_directories(sculptflow_stb SYSTEM PRIVATE ${mingw_headers})
set(STB_LIBRARY sculptflow_stb CACHE STRING "stb's implementations (MinGW: built here)")

if(SCULPTFLOW_BUILD_TESTS)
  set(gtest_dir /usr/src/googletest/googletest)
  if(NOT EXISTS ${gtest_dir}/src/gtest-all.cc)
    message(FATAL_ERROR "${gtest_dir} not found (Debian: googletest)")
  endif()
  add_library(sculptflow_gtest STATIC ${gtest_dir}/src/gtest-all.cc ${gtest_dir}/src/gtest_main.cc)
  target_include_directories(sculptflow_gtest SYSTEM PUBLIC ${gtest_dir}/include PRIVATE ${gtest_dir})
  target_link_libraries(sculptflow_gtest PUBLIC Threads::Threads)
  add_library(GTest::gtest_main ALIAS sculptflow_gtest)
endif()
