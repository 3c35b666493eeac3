// End-to-end tests of binding an ONNX model's graph inputs on the command line: --shape for
// symbolic dimensions, --inputs for shapes and for inputs that must be known at load time,
// and the plan's refusal of other shapes.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_fixture.h"
#include "io/npz.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

void AddInput(onnx::GraphProto& graph, const std::string& name, int element_type,
              const std::vector<std::string>& dims) {
  onnx::ValueInfoProto* input = graph.add_input();
  input->set_name(name);
  onnx::TypeProto::Tensor* tensor = input->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(element_type);
  for (const std::string& dim : dims) {
    onnx::TensorShapeProto::Dimension* added = tensor->mutable_shape()->add_dim();
    if (std::isdigit(static_cast<unsigned char>(dim[0]))) {
      added->set_dim_value(std::stoll(dim));
    } else {
      added->set_dim_param(dim);
    }
  }
}

// y = Reshape(Relu(x), s) with x: [batch, 3] f32 and s: [2] i64, both graph inputs.
class OnnxBindingsCliTest : public CliTest {
 protected:
  void SetUp() override {
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(13);
    onnx::GraphProto& graph = *model.mutable_graph();
    graph.set_name("bindings");
    AddInput(graph, "x", onnx::TensorProto::FLOAT, {"batch", "3"});
    AddInput(graph, "s", onnx::TensorProto::INT64, {"2"});
    onnx::NodeProto* relu = graph.add_node();
    relu->set_op_type("Relu");
    relu->add_input("x");
    relu->add_output("r");
    onnx::NodeProto* reshape = graph.add_node();
    reshape->set_op_type("Reshape");
    reshape->set_name("reshape");
    reshape->add_input("r");
    reshape->add_input("s");
    reshape->add_output("y");
    onnx::ValueInfoProto* output = graph.add_output();
    output->set_name("y");
    output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    model_ = directory_.PathOf("bindings.onnx");
    std::ofstream file(model_, std::ios::binary);
    ASSERT_TRUE(model.SerializeToOstream(&file));
  }

  // x of `batch` rows and the shape `s`.
  std::string WriteInputs(const std::string& name, int64_t batch, const std::vector<int64_t>& shape) {
    const std::string path = directory_.PathOf(name);
    WriteNpz(path, {{"x", Tensor::Random(DType::kF32, {batch, 3}, 1)},
                    {"s", Tensor::FromVector(shape, {static_cast<int64_t>(shape.size())})}});
    return path;
  }

  std::string model_;
};

TEST_F(OnnxBindingsCliTest, UnboundSymbolicDimensionNamesTheInputTheAxisAndTheOptions) {
  ExpectError(Run({"import", model_}),
              "graph input 'x' has the symbolic dimension 'batch' at axis 0; bind it with --shape x=1x3 or give the "
              "input with --inputs");
  ExpectError(Run({"import", model_, "--shape", "x=4x4"}),
              "graph input 'x' has the static extent 3 at axis 1 but --shape gives (4, 4)");
  ExpectUsageError(Run({"import", model_, "--shape", "x=4x3", "--shape", "x=2x3"}), "--shape names input 'x' twice");
}

TEST_F(OnnxBindingsCliTest, AShapeArgumentFromAGraphInputNeedsItsValue) {
  ExpectError(Run({"import", model_, "--shape", "x=4x3"}),
              "node 'reshape' (Reshape, domain 'ai.onnx', opset 13): input 1 (shape) must be known at import time, but "
              "it depends on graph input 's': give its value with --inputs");
}

TEST_F(OnnxBindingsCliTest, InputsBindTheBatchAndSpecializeTheShapeArgument) {
  for (const int64_t batch : {1, 4}) {
    const std::string inputs = WriteInputs("in" + std::to_string(batch) + ".npz", batch, {3, batch});
    const CliResult result = Run({"run", model_, "--inputs", inputs, "--check", "--backends", "native", "--threads", "1"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("output: Tensor[(3, " + std::to_string(batch) + "), f32]"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("max abs error: 0"), std::string::npos) << result.out;
  }
}

TEST_F(OnnxBindingsCliTest, APlanRefusesOtherShapes) {
  const std::string plan = directory_.PathOf("plan.cir");
  const std::string inputs = WriteInputs("in.npz", 2, {3, 2});
  const CliResult partition =
      Run({"partition", model_, "--shape", "x=2x3", "--backends", "native", "-o", plan});
  // The shape argument is not given to partition: the error names the input it needs.
  ExpectError(partition, "depends on graph input 's': give its value with --inputs");
  const std::string other = directory_.PathOf("other.cir");
  WriteModel("double.cir", "def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }\n");
  ASSERT_EQ(Run({"partition", directory_.PathOf("double.cir"), "--backends", "native", "-o", other}).exit_code, 0);
  WriteModel("double4.cir", "def @main(%x: Tensor[(4, 3), f32]) { nn.relu(%x) }\n");
  ExpectError(Run({"run", directory_.PathOf("double4.cir"), "--plan", other}),
              "was made for input 'x' of type Tensor[(2, 3), f32], not Tensor[(4, 3), f32]");
}

}  // namespace
}  // namespace collage
