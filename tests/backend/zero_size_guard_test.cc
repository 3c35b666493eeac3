// The zero-size guard of the support declarations: libraries are not offered calls that read
// or write tensors with no elements; the backends that run every op are.
#include "backend/zero_size_guard.h"

#include <gtest/gtest.h>

#include "backend/reference/reference_backend.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "testing/faulty_backends.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;

// nn.dense of (rows, depth) data and (3, depth) weights, type-checked.
Call Dense(int64_t rows, int64_t depth) {
  Var data = MakeVar("data", F32({rows, depth}));
  Var weight = MakeVar("weight", F32({3, depth}));
  Call call = CallOp("nn.dense", {data, weight});
  InferType(call);
  return call;
}

TEST(ZeroSizeGuardTest, SeesEmptyArgumentsAndResults) {
  EXPECT_FALSE(TouchesZeroSizeTensor(*Dense(2, 4)));
  EXPECT_TRUE(TouchesZeroSizeTensor(*Dense(2, 0)));
  EXPECT_TRUE(TouchesZeroSizeTensor(*Dense(0, 4)));
}

TEST(ZeroSizeGuardTest, ALibraryIsNotOfferedEmptyCalls) {
  const testing::FaultyBackend library("library", {"nn.dense"}, testing::Fault::kNone);
  ASSERT_TRUE(library.Support().supports_op(*Dense(2, 0))) << "the library's own declaration accepts it";
  const SupportDeclaration guarded = GuardedSupport(library);
  EXPECT_TRUE(guarded.supports_op(*Dense(2, 4)));
  EXPECT_FALSE(guarded.supports_op(*Dense(2, 0)));
  EXPECT_FALSE(guarded.supports_op(*Dense(0, 4)));
}

TEST(ZeroSizeGuardTest, ABackendThatRunsEveryOpIsOfferedThem) {
  const ReferenceBackend reference;
  ASSERT_TRUE(reference.runs_every_op());
  const SupportDeclaration guarded = GuardedSupport(reference);
  ASSERT_TRUE(static_cast<bool>(guarded.supports_op));
  EXPECT_TRUE(guarded.supports_op(*Dense(2, 0)));
}

}  // namespace
}  // namespace collage
