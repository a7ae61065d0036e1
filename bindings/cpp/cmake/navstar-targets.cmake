# SPDX-License-Identifier: MIT
#
# Defines navstar's imported targets over libraries that cargo built (or that an
# install copied into a prefix). Used by bindings/cpp/CMakeLists.txt (add_subdirectory)
# and by the installed navstarConfig.cmake (find_package); it compiles nothing.
#
#   navstar::navstar_shared   libnavstar.so / libnavstar.dylib / navstar.dll (+ navstar.dll.lib)
#   navstar::navstar_static   libnavstar.a / navstar.lib, with the system libraries Rust's std needs
#   navstar::navstar          the one of the two selected by NAVSTAR_USE_STATIC_LIBS (default: shared)
#
# All three carry the include directory with navstar.h (C) and navstar.hpp (C++17).

include_guard(GLOBAL)

# _navstar_define_targets(
#     LIBRARY_DIR <dir>          directory of libnavstar.{so,a,dylib} / navstar.{dll.lib,lib}
#     [RUNTIME_DIR <dir>]        directory of navstar.dll (Windows); default LIBRARY_DIR
#     INCLUDE_DIRS <dir>...      directories holding navstar.h and navstar.hpp
#     USE_STATIC <bool>          what navstar::navstar links
#     [GLOBAL]                   make the targets visible to the whole build (add_subdirectory)
#     [ASSUME_PRESENT]           do not check that the files exist (cargo builds them later)
#     ERROR_VARIABLE <var>)      set to a message when the selected library is missing, else ""
function(_navstar_define_targets)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "GLOBAL;ASSUME_PRESENT" "LIBRARY_DIR;RUNTIME_DIR;USE_STATIC;ERROR_VARIABLE"
                        "INCLUDE_DIRS")
  set(${ARG_ERROR_VARIABLE} "" PARENT_SCOPE)
  if(NOT ARG_RUNTIME_DIR)
    set(ARG_RUNTIME_DIR "${ARG_LIBRARY_DIR}")
  endif()
  set(scope "")
  if(ARG_GLOBAL)
    set(scope GLOBAL)
  endif()

  _navstar_library_files("${ARG_LIBRARY_DIR}" "${ARG_RUNTIME_DIR}" shared_file import_file static_file)

  set(have_shared FALSE)
  set(have_static FALSE)
  if(ARG_ASSUME_PRESENT OR EXISTS "${shared_file}")
    set(have_shared TRUE)
  endif()
  if(ARG_ASSUME_PRESENT OR EXISTS "${static_file}")
    set(have_static TRUE)
  endif()

  if(have_shared AND NOT TARGET navstar::navstar_shared)
    add_library(navstar::navstar_shared SHARED IMPORTED ${scope})
    set_target_properties(navstar::navstar_shared PROPERTIES
      IMPORTED_LOCATION "${shared_file}"
      INTERFACE_INCLUDE_DIRECTORIES "${ARG_INCLUDE_DIRS}")
    if(WIN32)
      set_target_properties(navstar::navstar_shared PROPERTIES IMPORTED_IMPLIB "${import_file}")
    endif()
  endif()

  if(have_static AND NOT TARGET navstar::navstar_static)
    add_library(navstar::navstar_static STATIC IMPORTED ${scope})
    # What Rust's std needs from the system (`rustc --print native-static-libs`).
    if(WIN32)
      set(system_libs ws2_32 userenv bcrypt ntdll advapi32 kernel32 dbghelp)
    elseif(APPLE)
      set(system_libs System c m)
    else()
      # Plain names rather than Threads::Threads, so that the targets need no other
      # package in whatever directory they are used from.
      set(system_libs pthread)
      list(APPEND system_libs ${CMAKE_DL_LIBS} m rt util gcc_s)
    endif()
    set_target_properties(navstar::navstar_static PROPERTIES
      IMPORTED_LOCATION "${static_file}"
      IMPORTED_LINK_INTERFACE_LANGUAGES "C"
      INTERFACE_INCLUDE_DIRECTORIES "${ARG_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES "${system_libs}")
  endif()

  if(ARG_USE_STATIC)
    set(kind static)
    set(wanted "${static_file}")
  else()
    set(kind shared)
    set(wanted "${shared_file}")
  endif()
  if(NOT TARGET navstar::navstar_${kind})
    set(${ARG_ERROR_VARIABLE} "navstar: the ${kind} library ${wanted} is missing."
        PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET navstar::navstar)
    add_library(navstar::navstar INTERFACE IMPORTED ${scope})
    set_target_properties(navstar::navstar PROPERTIES INTERFACE_LINK_LIBRARIES navstar::navstar_${kind})
  endif()
endfunction()

# The file names cargo gives the shared library, its import library (Windows) and the
# static library, on this platform.
function(_navstar_library_files library_dir runtime_dir shared_var import_var static_var)
  if(WIN32)
    set(shared "${runtime_dir}/navstar.dll")
    if(MSVC)
      set(import "${library_dir}/navstar.dll.lib")
      set(static "${library_dir}/navstar.lib")
    else() # the *-pc-windows-gnu Rust targets
      set(import "${library_dir}/libnavstar.dll.a")
      set(static "${library_dir}/libnavstar.a")
    endif()
  elseif(APPLE)
    set(shared "${library_dir}/libnavstar.dylib")
    set(import "")
    set(static "${library_dir}/libnavstar.a")
  else()
    set(shared "${library_dir}/libnavstar.so")
    set(import "")
    set(static "${library_dir}/libnavstar.a")
  endif()
  set(${shared_var} "${shared}" PARENT_SCOPE)
  set(${import_var} "${import}" PARENT_SCOPE)
  set(${static_var} "${static}" PARENT_SCOPE)
endfunction()
