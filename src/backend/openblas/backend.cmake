# The OpenBLAS backend (Debian libopenblas-dev): dense, matmul and batch_matmul through
# cblas_sgemm. Built when OpenBLAS and its cblas.h are found; defines COLLAGE_WITH_OPENBLAS.
find_library(COLLAGE_OPENBLAS_LIBRARY NAMES openblas)
find_path(COLLAGE_OPENBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas-pthread openblas x86_64-linux-gnu/openblas-pthread)
if(COLLAGE_OPENBLAS_LIBRARY AND COLLAGE_OPENBLAS_INCLUDE_DIR)
  collage_add_backend(openblas PUBLIC backend PRIVATE ir op pattern support)
  target_include_directories(collage_backend_openblas PRIVATE ${COLLAGE_OPENBLAS_INCLUDE_DIR})
  target_link_libraries(collage_backend_openblas PUBLIC ${COLLAGE_OPENBLAS_LIBRARY})
  # Only the registration file needs the macro.
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/all_backends/all_backends.cc APPEND PROPERTY
               COMPILE_DEFINITIONS COLLAGE_WITH_OPENBLAS)
  message(STATUS "Backend openblas: ${COLLAGE_OPENBLAS_LIBRARY}")
else()
  message(STATUS "Backend openblas: not built (apt-get install libopenblas-dev)")
endif()
