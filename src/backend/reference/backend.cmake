# The reference backend: the interpreter, always built.
collage_add_backend(reference PUBLIC backend PRIVATE interpreter ir support)
