# The memory allocator of Collage's executables.
#
# The compiler allocates millions of small objects (candidate partitions, sub-graphs, IR nodes);
# glibc's malloc spends much of a large model's compile time consolidating and unlinking free
# chunks. Linking gperftools' tcmalloc (Debian's libgoogle-perftools-dev) into the executables
# replaces malloc for the whole process. Libraries and the Python extension keep the host
# process's allocator.
#
#   COLLAGE_ALLOCATOR=auto      tcmalloc when found, else the system allocator (default)
#   COLLAGE_ALLOCATOR=tcmalloc  tcmalloc, or a configure error naming the package
#   COLLAGE_ALLOCATOR=system    the C library's malloc
# Sanitizer builds always use the system allocator (the sanitizers replace malloc themselves).

set(COLLAGE_ALLOCATOR auto CACHE STRING "Allocator of the executables: auto, tcmalloc or system")
set_property(CACHE COLLAGE_ALLOCATOR PROPERTY STRINGS auto tcmalloc system)

set(COLLAGE_ALLOCATOR_LIBRARY "")
if(COLLAGE_SANITIZE OR COLLAGE_ALLOCATOR STREQUAL "system")
  message(STATUS "Collage allocator: system")
elseif(COLLAGE_ALLOCATOR STREQUAL "auto" OR COLLAGE_ALLOCATOR STREQUAL "tcmalloc")
  find_library(COLLAGE_TCMALLOC_LIBRARY NAMES tcmalloc_minimal)
  if(COLLAGE_TCMALLOC_LIBRARY)
    set(COLLAGE_ALLOCATOR_LIBRARY ${COLLAGE_TCMALLOC_LIBRARY})
    message(STATUS "Collage allocator: tcmalloc (${COLLAGE_TCMALLOC_LIBRARY})")
  elseif(COLLAGE_ALLOCATOR STREQUAL "tcmalloc")
    message(FATAL_ERROR "COLLAGE_ALLOCATOR=tcmalloc but libtcmalloc_minimal was not found: "
                        "install libgoogle-perftools-dev (scripts/setup.sh does)")
  else()
    message(STATUS "Collage allocator: system (libtcmalloc_minimal not found; scripts/setup.sh installs it)")
  endif()
else()
  message(FATAL_ERROR "COLLAGE_ALLOCATOR must be auto, tcmalloc or system, not '${COLLAGE_ALLOCATOR}'")
endif()

# Links the chosen allocator into executable `target` (a no-op for the system allocator). The
# library is linked even where the linker drops unreferenced libraries, as nothing names its
# symbols: it replaces malloc by being loaded.
function(collage_use_allocator target)
  if(COLLAGE_ALLOCATOR_LIBRARY)
    target_link_libraries(${target} PRIVATE "-Wl,--push-state,--no-as-needed" ${COLLAGE_ALLOCATOR_LIBRARY}
                                            "-Wl,--pop-state")
  endif()
endfunction()
