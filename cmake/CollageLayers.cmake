# One static library per layer of src/ (docs/ARCHITECTURE.md, "Layers"). A layer owns whole
# folders and names the layers it uses: PUBLIC when its headers include theirs, PRIVATE when
# only its sources do. The declared graph is written to ${COLLAGE_LAYER_TABLE}, from which
# scripts/check_layers.py fails the build on any include of a header the layer does not reach.

set(COLLAGE_LAYER_TABLE ${CMAKE_BINARY_DIR}/generated/layers.txt)
set_property(GLOBAL PROPERTY COLLAGE_LAYER_LINES "")
set_property(GLOBAL PROPERTY COLLAGE_LAYER_TARGETS "")

# collage_add_layer(<name> FOLDERS <folder under src/>... [PUBLIC <layer>...] [PRIVATE <layer>...])
# defines the target collage_<name> from the .cc files of its folders (an INTERFACE library
# when they hold headers only).
function(collage_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 LAYER "" "" "FOLDERS;PUBLIC;PRIVATE")
  set(sources "")
  foreach(folder ${LAYER_FOLDERS})
    file(GLOB folder_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${folder}/*.cc)
    list(APPEND sources ${folder_sources})
  endforeach()
  set(target collage_${name})
  list(TRANSFORM LAYER_PUBLIC PREPEND collage_ OUTPUT_VARIABLE public_targets)
  list(TRANSFORM LAYER_PRIVATE PREPEND collage_ OUTPUT_VARIABLE private_targets)
  if(sources)
    add_library(${target} STATIC ${sources})
    # Position-independent, so that the Python extension module (a shared object) can link them.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(${target} PUBLIC ${public_targets} PRIVATE ${private_targets})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(${target} INTERFACE ${public_targets} ${private_targets})
  endif()
  string(JOIN " " folders ${LAYER_FOLDERS})
  string(JOIN " " public ${LAYER_PUBLIC})
  string(JOIN " " private ${LAYER_PRIVATE})
  set_property(GLOBAL APPEND PROPERTY COLLAGE_LAYER_LINES
               "${name} | ${folders} | ${public} | ${private}")
  set_property(GLOBAL APPEND PROPERTY COLLAGE_LAYER_TARGETS ${target})
endfunction()

# Writes the layer table (one line per layer: name | folders | public layers | private layers)
# and adds the build step that checks every include of src/ against it.
# The public headers (include/collage/) belong to the API layer, but for the ones every layer
# may include: the error classes and tuning's progress report.
set(COLLAGE_PUBLIC_HEADER_ARGUMENTS --public ${CMAKE_SOURCE_DIR}/include --public-layer api
    --public-header collage/error.h=support --public-header collage/tuning_progress.h=support)

function(collage_check_layers)
  get_property(lines GLOBAL PROPERTY COLLAGE_LAYER_LINES)
  list(JOIN lines "\n" table)
  file(CONFIGURE OUTPUT ${COLLAGE_LAYER_TABLE} CONTENT "${table}\n")
  file(GLOB_RECURSE checked_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/*.h ${CMAKE_SOURCE_DIR}/src/*.cc
       ${CMAKE_SOURCE_DIR}/include/*.h)
  set(stamp ${CMAKE_BINARY_DIR}/generated/layers_checked.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check_layers.py
            --table ${COLLAGE_LAYER_TABLE} --source ${CMAKE_SOURCE_DIR}/src ${COLLAGE_PUBLIC_HEADER_ARGUMENTS}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${CMAKE_SOURCE_DIR}/scripts/check_layers.py ${COLLAGE_LAYER_TABLE} ${checked_files}
    COMMENT "Checking that no include runs up the layers")
  add_custom_target(collage_check_layers ALL DEPENDS ${stamp})
  get_property(targets GLOBAL PROPERTY COLLAGE_LAYER_TARGETS)
  foreach(target ${targets})
    add_dependencies(${target} collage_check_layers)
  endforeach()
endfunction()
