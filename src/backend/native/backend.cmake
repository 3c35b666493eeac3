# The native backend: a fusing C++ code generator, always built. Generated kernels are
# compiled at run time by the system compiler (OpenMP SIMD only: their parallel loops run on
# the host's OpenMP threads, parallel_chunks.cc through backend/openmp_ranges.h) and loaded
# with dlopen; the runtime headers they include are embedded into the library.
collage_add_backend(native PUBLIC backend ir support PRIVATE interpreter op pass)
file(GLOB COLLAGE_NATIVE_RUNTIME_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/runtime/*.h)
set(COLLAGE_NATIVE_EMBEDDED ${CMAKE_BINARY_DIR}/generated/native_runtime_headers.cc)
add_custom_command(
  OUTPUT ${COLLAGE_NATIVE_EMBEDDED}
  COMMAND ${CMAKE_COMMAND} -DHEADER_DIR=${CMAKE_CURRENT_LIST_DIR}/runtime -DOUTPUT=${COLLAGE_NATIVE_EMBEDDED}
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_runtime_headers.cmake
  DEPENDS ${COLLAGE_NATIVE_RUNTIME_HEADERS} ${CMAKE_CURRENT_LIST_DIR}/embed_runtime_headers.cmake
  COMMENT "Embedding the native runtime headers")
target_sources(collage_backend_native PRIVATE ${COLLAGE_NATIVE_EMBEDDED})
target_link_libraries(collage_backend_native PRIVATE ${CMAKE_DL_LIBS})
