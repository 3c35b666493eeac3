// Refuses, before anything is allocated, to run a function with a tensor value (a parameter
// or an intermediate) larger than the machine's physical memory: its allocation would fail
// part-way through a run with a message that names neither the file nor the value.
#pragma once

#include <string>

#include "ir/expr.h"

namespace collage {

// Throws Error naming where the value is written (its source location, else `model_path`),
// the value, its type, its bytes and the memory: "m.cir:1:11: variable %x: Tensor[(...), f32]
// needs 4611686018427387904 bytes, more than this machine's memory (135089000448 bytes)".
void CheckTensorsFitInMemory(const Function& function, const std::string& model_path);

}  // namespace collage
