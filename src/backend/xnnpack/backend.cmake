# The xnnpack backend: XNNPACK's subgraph runtime (Debian's libxnnpack-dev; the pthreadpool
# interface it parallelizes through is libpthreadpool-dev's; the backend defines its loops itself,
# on OpenMP threads: openmp_thread_pool.h). Optional: without the library the backend is
# left out of the build and COLLAGE_WITH_XNNPACK stays undefined.
find_path(XNNPACK_INCLUDE_DIR xnnpack.h)
find_library(XNNPACK_LIBRARY NAMES XNNPACK xnnpack)
find_path(PTHREADPOOL_INCLUDE_DIR pthreadpool.h)
find_library(PTHREADPOOL_LIBRARY pthreadpool)
if(XNNPACK_INCLUDE_DIR AND XNNPACK_LIBRARY AND PTHREADPOOL_INCLUDE_DIR AND PTHREADPOOL_LIBRARY)
  message(STATUS "xnnpack backend: ${XNNPACK_LIBRARY}")
  collage_add_backend(xnnpack PUBLIC backend ir support PRIVATE op)
  target_include_directories(collage_backend_xnnpack SYSTEM PRIVATE ${XNNPACK_INCLUDE_DIR} ${PTHREADPOOL_INCLUDE_DIR})
  target_link_libraries(collage_backend_xnnpack PUBLIC ${XNNPACK_LIBRARY} ${PTHREADPOOL_LIBRARY} ${CMAKE_DL_LIBS})
  target_compile_definitions(collage_backend_xnnpack PUBLIC COLLAGE_WITH_XNNPACK=1)
  # The host ops' loops (host_*.h) are the only hot loops compiled here: -O3 vectorizes them.
  set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/host_binary_ops.cc ${CMAKE_CURRENT_LIST_DIR}/host_pooling.cc
               ${CMAKE_CURRENT_LIST_DIR}/host_depthwise.cc ${CMAKE_CURRENT_LIST_DIR}/host_silu.cc
               APPEND PROPERTY COMPILE_OPTIONS -O3)
else()
  message(STATUS "xnnpack backend: libxnnpack-dev or libpthreadpool-dev not found, left out")
endif()
