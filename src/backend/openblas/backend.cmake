# The OpenBLAS backend (Debian libopenblas-dev): dense, matmul and batch_matmul through
# cblas_sgemm. Built when OpenBLAS and its cblas.h are found; defines COLLAGE_WITH_OPENBLAS.
find_library(COLLAGE_OPENBLAS_LIBRARY NAMES openblas)
find_path(COLLAGE_OPENBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas-pthread openblas x86_64-linux-gnu/openblas-pthread)
if(COLLAGE_OPENBLAS_LIBRARY AND COLLAGE_OPENBLAS_INCLUDE_DIR)
  file(GLOB COLLAGE_OPENBLAS_BACKEND_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cc)
  target_sources(collage_core PRIVATE ${COLLAGE_OPENBLAS_BACKEND_SOURCES})
  set_source_files_properties(${COLLAGE_OPENBLAS_BACKEND_SOURCES} PROPERTIES
                              INCLUDE_DIRECTORIES ${COLLAGE_OPENBLAS_INCLUDE_DIR})
  target_link_libraries(collage_core PUBLIC ${COLLAGE_OPENBLAS_LIBRARY})
  # Only the registration file needs the macro (a target-wide definition would rebuild the core).
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/backend/all_backends.cc APPEND PROPERTY
               COMPILE_DEFINITIONS COLLAGE_WITH_OPENBLAS)
  message(STATUS "Backend openblas: ${COLLAGE_OPENBLAS_LIBRARY}")
else()
  message(STATUS "Backend openblas: not built (apt-get install libopenblas-dev)")
endif()
