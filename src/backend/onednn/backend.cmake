# The oneDNN backend (Debian libdnnl-dev, oneDNN 2.6, built on GNU OpenMP). Built when oneDNN
# and OpenMP are found; defines COLLAGE_WITH_ONEDNN for the registration file only.
find_package(dnnl CONFIG QUIET)
find_package(OpenMP QUIET COMPONENTS CXX)
if(dnnl_FOUND AND OpenMP_CXX_FOUND)
  collage_add_backend(onednn PUBLIC backend declaration support PRIVATE ir op pass pattern)
  # oneDNN runs on OpenMP threads: the executable sets their count with omp_set_num_threads.
  target_link_libraries(collage_backend_onednn PUBLIC DNNL::dnnl ${OpenMP_CXX_LIBRARIES})
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/all_backends/all_backends.cc APPEND PROPERTY
               COMPILE_DEFINITIONS COLLAGE_WITH_ONEDNN)
  message(STATUS "Backend onednn: oneDNN ${dnnl_VERSION}")
else()
  message(STATUS "Backend onednn: not built (apt-get install libdnnl-dev)")
endif()
