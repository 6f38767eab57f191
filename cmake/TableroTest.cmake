# tablero_add_test(<name> SOURCES <file>... [LIBS <target>...] [LABELS <label>...])
#
# The one way a GoogleTest executable is registered: builds <name> from SOURCES (paths
# relative to the calling folder, by convention tests/<part>_test.cc beside the library
# under test), links LIBS and GTest::gtest_main, and registers each test with ctest as
# <name>.<Suite>.<Test>, with LABELS (e.g. slow, postgres, service), so that
# `ctest -R '^<name>\.'` runs one executable and `ctest -LE slow` skips the long ones.
function(tablero_add_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBS;LABELS")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "tablero_add_test(${name}): no SOURCES")
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} ${arg_LIBS} GTest::gtest_main)
  if(arg_LABELS)
    gtest_discover_tests(${name} TEST_PREFIX "${name}." PROPERTIES LABELS "${arg_LABELS}")
  else()
    gtest_discover_tests(${name} TEST_PREFIX "${name}.")
  endif()
endfunction()
