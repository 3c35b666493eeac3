// Runs a planned list of sgemm calls on the caller's tensors. Intermediate results live in
// buffers allocated at compile time; results that are partition outputs are written straight
// into the output tensors.
#pragma once

#include <memory>
#include <vector>

#include "backend/backend.h"
#include "backend/openblas/gemm_plan.h"

namespace collage::openblas {

std::unique_ptr<Executable> MakeGemmExecutable(FlatPartition partition, std::vector<GemmStep> steps, int threads);

}  // namespace collage::openblas
