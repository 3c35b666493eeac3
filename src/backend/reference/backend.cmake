# The reference backend: the interpreter, always built.
file(GLOB COLLAGE_REFERENCE_BACKEND_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cc)
target_sources(collage_core PRIVATE ${COLLAGE_REFERENCE_BACKEND_SOURCES})
