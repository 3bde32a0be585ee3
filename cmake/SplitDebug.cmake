# Run by `cmake --install` (install(CODE) in CMakeLists.txt) on each installed
# ELF file of rfguard's: its debug information moves to
# <prefix>/lib/debug/.build-id/xx/yyyy.debug, where gdb and other debuggers look
# it up by build id (Debian's -dbgsym layout), and the installed file keeps a
# debuglink to it. The installed binaries are then stripped of debug sections.
# Inputs: RFGUARD_OBJCOPY, RFGUARD_READELF, RFGUARD_SPLIT_FILES (paths relative
# to the prefix).
foreach(rel IN LISTS RFGUARD_SPLIT_FILES)
  set(file "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${rel}")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "split debug info: ${file} is not installed")
  endif()
  execute_process(COMMAND "${RFGUARD_READELF}" -n "${file}" OUTPUT_VARIABLE notes
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT notes MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    message(FATAL_ERROR "split debug info: ${file} has no build id (link with --build-id)")
  endif()
  set(debug_dir "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/lib/debug/.build-id/${CMAKE_MATCH_1}")
  set(debug_file "${debug_dir}/${CMAKE_MATCH_2}.debug")
  file(MAKE_DIRECTORY "${debug_dir}")
  message(STATUS "Splitting debug info: ${debug_file}")
  execute_process(COMMAND "${RFGUARD_OBJCOPY}" --only-keep-debug --compress-debug-sections=zlib
                          "${file}" "${debug_file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "split debug info: objcopy --only-keep-debug ${file} failed")
  endif()
  file(CHMOD "${debug_file}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  execute_process(COMMAND "${RFGUARD_OBJCOPY}" --strip-debug --strip-unneeded
                          "--add-gnu-debuglink=${debug_file}" "${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "split debug info: objcopy --strip-debug ${file} failed")
  endif()
endforeach()
