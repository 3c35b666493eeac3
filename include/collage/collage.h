// Collage's public C++ API: load a model, compile it onto backends, run it. Link the CMake
// target collage_api, which brings its include folders (include/ for these headers, src/ for
// the base error class they derive from).
#pragma once

#include "collage/backends.h"
#include "collage/benchmark.h"
#include "collage/compile_options.h"
#include "collage/compiled_model.h"
#include "collage/cost_database.h"
#include "collage/error.h"
#include "collage/model.h"
#include "collage/npz.h"
#include "collage/tensor.h"
