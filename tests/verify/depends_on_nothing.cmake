# verify/ is the judge and must depend on nothing else of the project: no
# file of it may include a header from another project folder. The
# verifier's tests link tessel_verify alone, which catches calls into other
# libraries; this catches header-only uses. Run as a ctest test:
#   cmake -DSOURCE_DIR=<repository> -P tests/verify/depends_on_nothing.cmake
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "depends_on_nothing.cmake: pass -DSOURCE_DIR=<repository>")
endif()
file(GLOB_RECURSE judged ${SOURCE_DIR}/verify/*.hpp ${SOURCE_DIR}/verify/*.cpp)
if(NOT judged)
  message(FATAL_ERROR "no sources under ${SOURCE_DIR}/verify")
endif()
set(outside "")
foreach(file IN LISTS judged)
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "\"verify/")
      file(RELATIVE_PATH name ${SOURCE_DIR} ${file})
      list(APPEND outside "${name}: ${line}")
    endif()
  endforeach()
endforeach()
if(outside)
  list(JOIN outside "\n  " text)
  message(FATAL_ERROR "verify/ includes from outside verify/ (the judge depends on nothing else):\n  ${text}")
endif()
list(LENGTH judged count)
message(STATUS "verify/: ${count} files, every project include from verify/")
