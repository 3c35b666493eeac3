// Inlining pattern-table wrappers: a call to a Composite function (a pattern match that
// MergeComposite or the Collage partitioner wrapped) becomes the ops of its body, bound to the
// call's arguments.
#pragma once

#include <functional>
#include <string>

#include "ir/module.h"

namespace collage {

// `function` with every call to a Composite function, at any depth, replaced by that
// function's body with its parameters bound to the call's arguments.
Function InlineCompositeCalls(const Function& function);

// `module` with the Composite calls inlined inside each partition (a Primitive function with a
// Compiler attribute) whose backend `labels_only` accepts; other partitions are left as they are.
Module InlineCompositeCallsOfPartitions(const Module& module,
                                        const std::function<bool(const std::string& backend)>& labels_only);

}  // namespace collage
