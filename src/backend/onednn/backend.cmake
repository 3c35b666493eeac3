# The oneDNN backend (Debian libdnnl-dev, oneDNN 2.6, built on GNU OpenMP). Built when oneDNN
# and OpenMP are found; defines COLLAGE_WITH_ONEDNN for the registration file only.
find_package(dnnl CONFIG QUIET)
find_package(OpenMP QUIET COMPONENTS CXX)
if(dnnl_FOUND AND OpenMP_CXX_FOUND)
  file(GLOB COLLAGE_ONEDNN_BACKEND_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cc)
  target_sources(collage_core PRIVATE ${COLLAGE_ONEDNN_BACKEND_SOURCES})
  # oneDNN runs on OpenMP threads: the executable sets their count with omp_set_num_threads.
  target_link_libraries(collage_core PUBLIC DNNL::dnnl ${OpenMP_CXX_LIBRARIES})
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/backend/all_backends.cc APPEND PROPERTY
               COMPILE_DEFINITIONS COLLAGE_WITH_ONEDNN)
  message(STATUS "Backend onednn: oneDNN ${dnnl_VERSION}")
else()
  message(STATUS "Backend onednn: not built (apt-get install libdnnl-dev)")
endif()
