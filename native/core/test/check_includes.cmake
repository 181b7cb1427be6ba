# Fails when a C++ file under ROOT includes Node, libuv or the addon: native/core must build
# with no Node at all, so that a C++ engine can use it alone.
#   cmake -DROOT=<dir> -P check_includes.cmake
cmake_minimum_required(VERSION 3.19)
if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "usage: cmake -DROOT=<directory> -P check_includes.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

set(node_headers napi.h napi-inl.h node_api.h node_api_types.h js_native_api.h
    js_native_api_types.h node.h node_version.h node_buffer.h node_object_wrap.h uv.h v8.h)
file(GLOB_RECURSE files "${ROOT}/*.cpp" "${ROOT}/*.cc" "${ROOT}/*.cxx" "${ROOT}/*.c"
     "${ROOT}/*.hpp" "${ROOT}/*.hh" "${ROOT}/*.hxx" "${ROOT}/*.h" "${ROOT}/*.inl")

set(found 0)
foreach(file IN LISTS files)
  file(READ "${file}" text)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*[<\"][^>\"\n]+[>\"]" directives "${text}")
  foreach(directive IN LISTS directives)
    string(REGEX REPLACE "^#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]$" "\\1" path "${directive}")
    get_filename_component(name "${path}" NAME)
    set(why "")
    if(name IN_LIST node_headers)
      set(why "a Node header")
    elseif(path MATCHES "^(uv|node|v8)/")
      set(why "a Node or libuv header")
    elseif(path MATCHES "(^|/)addon/")
      set(why "a header of the addon")
    endif()
    if(why)
      file(RELATIVE_PATH shown "${ROOT}" "${file}")
      message(STATUS "${shown} includes ${why}: ${directive}")
      math(EXPR found "${found} + 1")
    endif()
  endforeach()
endforeach()

list(LENGTH files checked)
if(found GREATER 0)
  message(FATAL_ERROR "found ${found} forbidden includes in ${checked} files under ${ROOT}")
endif()
message(STATUS "${checked} files under ${ROOT} include nothing from Node or the addon")
