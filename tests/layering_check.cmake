# The simulation library's public headers are sim/simulation.h, sim/result.h
# and what they include, and the drag curve (a closed form the app checks
# against); everything else under sim/ (the solvers, PSE,
# baroclinic generation, the stratified profile, the tracers' SIMD passes,
# parallel helpers) is internal. This check fails when code outside sim/ and
# tests/ includes an internal header, or a public header includes one.
#   cmake -DSOURCE_DIR=<repo> -P tests/layering_check.cmake
cmake_minimum_required(VERSION 3.20)
set(public
  sim/simulation.h sim/result.h sim/params.h
  sim/bodies/rigid_body.h sim/bodies/drag_curve.h
  sim/numerics/aabb.h sim/numerics/simd.h sim/numerics/uniform_grid.h
  sim/particles/particles.h sim/particles/remesh.h sim/particles/seeding.h
  sim/tracers/nested_grid.h)
set(files)
foreach(dir app bench render scene)
  file(GLOB_RECURSE found RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.cpp ${SOURCE_DIR}/${dir}/*.h)
  list(APPEND files ${found})
endforeach()
list(APPEND files ${public})
set(bad)
foreach(file IN LISTS files)
  file(STRINGS ${SOURCE_DIR}/${file} lines REGEX "^#include \"sim/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    if(NOT header IN_LIST public)
      list(APPEND bad "  ${file} includes ${header}")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n" text)
  message(FATAL_ERROR "internal simulation headers used outside sim/ (the public ones are listed in "
                      "tests/layering_check.cmake):\n${text}")
endif()
list(LENGTH files count)
message(STATUS "layering: ${count} files include only the simulation's public headers")
