// Import tests on small ONNX graphs written by make_test_models.py: every op mapping and the
// shape-folding patterns torch emits (the reference interpreter against numpy, and the set of
// IR ops the import produces), and crafted bad files with their one-line messages.
#include "frontend/onnx/onnx_importer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"

namespace collage {
namespace {

using testing::OnnxTestModelDir;

class OnnxModelsFixture {
 public:
  static const std::filesystem::path& Dir() {
    static std::string why;
    static const std::filesystem::path dir = OnnxTestModelDir(&why);
    skip_reason_ = why;
    return dir;
  }
  static std::string skip_reason_;
};
std::string OnnxModelsFixture::skip_reason_;

#define REQUIRE_TEST_MODELS() \
  if (OnnxModelsFixture::Dir().empty()) GTEST_SKIP() << OnnxModelsFixture::skip_reason_

// The good cases of make_test_models.py and the IR ops each import must produce (constant
// shape computations folded away).
const std::map<std::string, std::set<std::string>>& GoodCases() {
  static const std::map<std::string, std::set<std::string>> cases = {
      {"resize_fractional_scale", {"image.resize2d"}},
      {"upsample_nearest", {"image.resize2d"}},
      {"bit_shift", {"left_shift", "right_shift"}},
      {"window_functions", {}},
      {"compress_nonzero_unique", {"take"}},
      {"reverse_sequence", {"gather_elements"}},
      {"non_max_suppression", {}},
      {"rnn_reverse_initial_state", {"strided_slice", "squeeze", "nn.dense", "add", "tanh", "expand_dims", "concatenate"}},
      {"gru_bidirectional_linear_before_reset",
       {"strided_slice", "squeeze", "nn.dense", "add", "sigmoid", "tanh", "multiply", "subtract", "expand_dims",
        "concatenate"}},
      {"lstm_batch_major_peepholes_lengths",
       {"strided_slice", "squeeze", "nn.dense", "add", "sigmoid", "tanh", "multiply", "where", "expand_dims",
        "concatenate", "transpose"}},
      {"integer_products", {"cast", "subtract", "einsum", "nn.pad", "strided_slice", "add"}},
      {"qlinear_matmul", {"cast", "subtract", "einsum", "multiply", "divide", "round", "add", "clip"}},
      {"dft_one_sided_padded",
       {"strided_slice", "squeeze", "transpose", "nn.pad", "nn.matmul", "negative", "expand_dims", "concatenate"}},
      {"double_kept", {"multiply"}},
      {"unary_Relu", {"nn.relu"}},
      {"unary_Sigmoid", {"sigmoid"}},
      {"unary_Tanh", {"tanh"}},
      {"unary_Erf", {"erf"}},
      {"unary_Exp", {"exp"}},
      {"unary_Log", {"log"}},
      {"unary_Sqrt", {"sqrt"}},
      {"unary_Abs", {"abs"}},
      {"unary_Neg", {"negative"}},
      {"unary_Floor", {"floor"}},
      {"unary_Ceil", {"ceil"}},
      {"unary_Round", {"round"}},
      {"unary_Reciprocal", {"divide"}},
      {"unary_Not", {"logical_not"}},
      {"unary_LeakyRelu", {"nn.leaky_relu"}},
      {"unary_HardSigmoid", {"multiply", "add", "clip"}},
      {"unary_HardSwish", {"multiply", "add", "clip"}},
      {"binary_Add", {"add"}},
      {"binary_Sub", {"subtract"}},
      {"binary_Mul", {"multiply"}},
      {"binary_Div", {"divide"}},
      {"binary_Equal", {"equal"}},
      {"binary_Less", {"less"}},
      {"binary_LessOrEqual", {"less_equal"}},
      {"binary_Greater", {"greater"}},
      {"binary_GreaterOrEqual", {"greater_equal"}},
      {"binary_Pow", {"power"}},
      {"binary_Div_int", {"divide"}},
      {"logic_And", {"logical_and"}},
      {"logic_Or", {"logical_or"}},
      {"logic_Xor", {"not_equal"}},
      {"variadic_Max", {"maximum"}},
      {"variadic_Min", {"minimum"}},
      {"variadic_Sum", {"add"}},
      {"variadic_Mean", {"add", "divide"}},
      {"clip_inputs", {"clip"}},
      {"clip_max_only", {"clip"}},
      {"clip_attributes", {"clip"}},
      {"clip_runtime_bound", {"maximum"}},
      {"where", {"where"}},
      {"cast", {"cast"}},
      {"cast_like", {"cast"}},
      {"identity_dropout", {}},
      {"reduce_ReduceSum", {"sum"}},
      {"reduce_ReduceMean", {"mean"}},
      {"reduce_ReduceMax", {"max"}},
      {"reduce_ReduceMin", {"min"}},
      {"reduce_ReduceProd", {"prod"}},
      {"reduce_ReduceL2", {"multiply", "sum", "sqrt"}},
      {"reduce_all_axes", {"mean"}},
      {"reduce_noop_empty_axes", {}},
      {"argmax", {"argmax"}},
      {"argmin", {"argmin"}},
      {"reshape_zero_and_minus_one", {"reshape"}},
      {"flatten", {"flatten"}},
      {"flatten_negative_axis", {"flatten"}},
      {"transpose_perm", {"transpose"}},
      {"transpose_default", {"transpose"}},
      {"squeeze_input_axes", {"squeeze"}},
      {"squeeze_attribute_all", {"squeeze"}},
      {"unsqueeze_input_axes", {"expand_dims"}},
      {"unsqueeze_attribute", {"expand_dims"}},
      {"concat", {"concatenate"}},
      {"concat_one_input", {"nn.relu"}},
      {"split_input_sizes", {"split"}},
      {"split_attribute_sizes", {"split"}},
      {"split_equal", {"split"}},
      {"slice", {"strided_slice"}},
      {"slice_default_axes", {"strided_slice"}},
      {"gather", {"take"}},
      {"gather_runtime_indices", {"take"}},
      {"expand", {"broadcast_to"}},
      {"tile", {"reshape", "broadcast_to"}},
      {"shape_size_range_constant_of_shape", {"add"}},
      {"range_negative_step_and_float", {"add"}},
      {"constants", {"add", "multiply", "subtract"}},
      {"fold_view_batch_minus_one", {"reshape"}},
      {"fold_split_heads", {"reshape", "transpose"}},
      {"fold_class_token_expand", {"concatenate"}},
      {"fold_causal_mask", {"where", "nn.softmax"}},
      {"fold_float_shape_arithmetic", {"image.resize2d"}},
      {"conv_bias_pads", {"nn.conv2d", "nn.bias_add"}},
      {"conv_groups_dilation_strides", {"nn.conv2d"}},
      {"conv_depthwise", {"nn.conv2d"}},
      {"conv_same_upper", {"nn.conv2d"}},
      {"conv_same_lower", {"nn.conv2d"}},
      {"conv_valid", {"nn.conv2d"}},
      {"conv_transpose", {"nn.conv2d_transpose", "nn.bias_add"}},
      {"conv_transpose_groups_output_padding", {"nn.conv2d_transpose"}},
      {"conv_transpose_output_shape", {"nn.conv2d_transpose"}},
      {"gemm_transposes_alpha_beta", {"transpose", "nn.dense", "nn.bias_add"}},
      {"gemm_matrix_bias", {"nn.dense", "add"}},
      {"gemm_runtime_weight", {"transpose", "nn.dense"}},
      {"matmul_constant_weight", {"nn.dense"}},
      {"matmul_broadcast_batch", {"nn.matmul"}},
      {"matmul_vector", {"nn.matmul"}},
      {"batch_norm", {"nn.batch_norm"}},
      {"layer_norm", {"nn.layer_norm"}},
      {"layer_norm_two_axes_no_bias", {"reshape", "nn.layer_norm"}},
      {"layer_norm_decomposed", {"mean", "subtract", "power", "add", "sqrt", "divide", "multiply"}},
      {"softmax_opset13_axis1", {"nn.softmax"}},
      {"softmax_opset11_coerced", {"flatten", "nn.softmax", "reshape"}},
      {"log_softmax_opset11_default", {"nn.log_softmax"}},
      {"max_pool_ceil_pads", {"nn.max_pool2d"}},
      {"max_pool_dilation", {"nn.max_pool2d"}},
      {"avg_pool_count_include_pad", {"nn.avg_pool2d"}},
      {"avg_pool_exclude_pad_ceil", {"nn.avg_pool2d"}},
      {"global_pools", {"nn.global_avg_pool2d", "nn.global_max_pool2d"}},
      {"pad_constant", {"nn.pad"}},
      {"pad_reflect", {"nn.pad"}},
      {"pad_edge", {"nn.pad"}},
      {"resize_nearest_scales", {"image.resize2d"}},
      {"resize_linear_sizes", {"image.resize2d"}},
      {"resize_linear_align_corners", {"image.resize2d"}},
      {"typed_field_initializers", {"add", "where", "take"}},
      {"dead_unsupported_node_ignored", {"nn.relu"}},
      {"unsorted_nodes", {"nn.relu", "negative"}},
      {"initializer_listed_as_input", {"add"}},
      {"initializer_default_of_input", {"add"}},
      {"dynamic_batch_override", {"nn.relu"}},
  };
  return cases;
}

// Input-shape overrides some cases need.
OnnxImportOptions OptionsFor(const std::string& name) {
  OnnxImportOptions options;
  if (name == "dynamic_batch_override") options.input_shapes["x"] = {2, 3};
  return options;
}

std::vector<std::string> ReadLines(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

class OnnxOpImportTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxOpImportTest, MatchesNumpyAndEmitsExpectedOps) {
  REQUIRE_TEST_MODELS();
  const std::string& name = GetParam();
  const std::filesystem::path base = OnnxModelsFixture::Dir() / name;
  const OnnxModel model = ImportOnnxFile(base.string() + ".onnx", OptionsFor(name));
  EXPECT_EQ(testing::CalledOps(model.module), GoodCases().at(name));
  const NamedTensors inputs = ReadNpz(base.string() + ".inputs.npz");
  const NamedTensors expected = ReadNpz(base.string() + ".outputs.npz");
  EXPECT_EQ(model.input_names.size(), inputs.size());
  EXPECT_EQ(model.output_names.size(), expected.size());
  const Value result = Evaluate(model.module.main(), testing::ArgumentsByName(model, inputs));
  EXPECT_TRUE(testing::OutputsMatch(model, result, expected, 1e-5));
}

std::vector<std::string> GoodCaseNames() {
  std::vector<std::string> names;
  for (const auto& [name, ops] : GoodCases()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Ops, OnnxOpImportTest, ::testing::ValuesIn(GoodCaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The crafted bad files and the message each must produce (after "<file>: ").
const std::map<std::string, std::string>& BadCases() {
  static const std::map<std::string, std::string> cases = {
      {"truncated", "not a valid ONNX model (protobuf parsing failed: truncated or corrupt file)"},
      {"garbage", "not a valid ONNX model (protobuf parsing failed: truncated or corrupt file)"},
      {"empty", "the model has no graph (empty or not an ONNX model)"},
      {"unknown_op", "node 'foo' (FooBar, domain 'ai.onnx', opset 13): unsupported op"},
      {"custom_domain",
       "node 'fused' (FusedConv, domain 'com.microsoft', opset 1): unsupported op: only the default domain"},
      {"opset_too_old", "opset 0 of domain 'ai.onnx' is not supported (supported: 1 to 17)"},
      {"opset_too_new", "opset 18 of domain 'ai.onnx' is not supported (supported: 1 to 17)"},
      {"no_default_opset", "the model imports no opset of the default domain 'ai.onnx'"},
      {"missing_input",
       "node 'add' (Add, domain 'ai.onnx', opset 13): input 'nowhere' is not a graph input, an initializer or an "
       "output of any node"},
      {"cycle", "(Add, domain 'ai.onnx', opset 13): the graph has a cycle through this node"},
      {"dynamic_dimension",
       "graph input 'x' has the symbolic dimension 'batch' at axis 0; bind it with --shape x=1x3 or give the input "
       "with --inputs"},
      {"unsupported_input_type", "graph input 'x': unsupported element type STRING"},
      {"duplicate_input_name", "graph input 'x' is listed twice (graph inputs 0 and 1)"},
      {"initializer_unlike_its_input", "graph input 'w' is declared with shape 2 but its initializer has shape (3)"},
      {"raw_data_size", "initializer 'w': raw_data has 8 bytes but the dimensions need 24"},
      {"typed_data_count", "initializer 'w': the typed data field holds 2 values but the dimensions need 6"},
      {"external_data", "initializer 'w': stored as external data, which is not supported"},
      {"attribute_wrong_type",
       "node 'transpose' (Transpose, domain 'ai.onnx', opset 13): attribute 'perm' must be of type INTS, got INT"},
      {"attribute_wrong_count",
       "node 'conv' (Conv, domain 'ai.onnx', opset 13): attribute 'pads' must have 4 values, got 3"},
      {"bad_auto_pad", "attribute 'auto_pad' must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got 'SOMETIMES'"},
      {"conv1d",
       "node 'conv' (Conv, domain 'ai.onnx', opset 13): input 'X (only 2-D convolutions are supported)' "
       "must have rank 4, got shape (1, 1, 5)"},
      {"runtime_reshape_shape",
       "node 'reshape' (Reshape, domain 'ai.onnx', opset 13): input 1 (shape) must be known at import time, but it "
       "depends on graph input 's': give its value with --inputs"},
      {"dtype_mismatch", "node 'add' (Add, domain 'ai.onnx', opset 13): add: "},
      {"shape_mismatch", "node 'matmul' (MatMul, domain 'ai.onnx', opset 13): nn.matmul: "},
      {"output_not_produced", "graph output 'z' is not produced by any node, graph input or initializer"},
      {"produced_twice", "node 'two' (Neg, domain 'ai.onnx', opset 13): output 'y' is also produced by node 'one'"},
      {"no_outputs", "the graph has no outputs"},
      {"missing_required_input", "node 'conv' (Conv, domain 'ai.onnx', opset 13): missing required input 1"},
      {"missing_required_attribute",
       "node 'concat' (Concat, domain 'ai.onnx', opset 13): missing required attribute 'axis'"},
      {"concat_one_input_bad_axis", "node 'concat' (Concat, domain 'ai.onnx', opset 13): attribute 'axis'"},
      {"pool_indices_used",
       "node 'identity' (Identity, domain 'ai.onnx', opset 13): input 'indices' is an output of node 'pool' (MaxPool, "
       "domain 'ai.onnx', opset 13) that the importer does not produce"},
      {"input_without_shape", "graph input 'x' has no shape; bind it with --shape x="},
      {"batch_norm_training", "node 'bn' (BatchNormalization, domain 'ai.onnx', opset 15): training_mode = 1 is not"},
      {"huge_constant_of_shape",
       "node 'fill' (ConstantOfShape, domain 'ai.onnx', opset 13): input 'input': shape "
       "(1048576, 1048576, 1048576) is larger than the limit"},
      {"huge_dft_length",
       "node 'dft' (DFT, domain 'ai.onnx', opset 17): a transform of length 1048576 to 524289 "
       "frequencies needs"},
      {"control_characters_in_names", "node 'two\\nlines' (NoSuchOp, domain 'ai.onnx', opset 13): unsupported op"},
      {"declared_output_mismatch", "graph output 'y' is declared with a different shape than the import computes"},
  };
  return cases;
}

class OnnxBadModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxBadModelTest, FailsWithOneLineMessage) {
  REQUIRE_TEST_MODELS();
  const std::string path = (OnnxModelsFixture::Dir() / ("bad_" + GetParam() + ".onnx")).string();
  try {
    ImportOnnxFile(path);
    FAIL() << "importing " << path << " succeeded";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(BadCases().at(GetParam())), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

std::vector<std::string> BadCaseNames() {
  std::vector<std::string> names;
  for (const auto& [name, message] : BadCases()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(BadFiles, OnnxBadModelTest, ::testing::ValuesIn(BadCaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(OnnxImporterTest, EveryGeneratedCaseIsChecked) {
  REQUIRE_TEST_MODELS();
  const std::vector<std::string> good = ReadLines(OnnxModelsFixture::Dir() / "manifest.txt");
  const std::vector<std::string> bad = ReadLines(OnnxModelsFixture::Dir() / "bad_manifest.txt");
  const std::vector<std::string> good_checked = GoodCaseNames();
  const std::vector<std::string> bad_checked = BadCaseNames();
  EXPECT_EQ(std::set<std::string>(good.begin(), good.end()),
            std::set<std::string>(good_checked.begin(), good_checked.end()));
  EXPECT_EQ(std::set<std::string>(bad.begin(), bad.end()),
            std::set<std::string>(bad_checked.begin(), bad_checked.end()));
  EXPECT_GE(bad.size(), 20u);
}

TEST(OnnxImporterTest, ParametersAndOutputsKeepOnnxNamesAndOrder) {
  REQUIRE_TEST_MODELS();
  const OnnxModel model = ImportOnnxFile((OnnxModelsFixture::Dir() / "where.onnx").string());
  EXPECT_EQ(model.input_names, (std::vector<std::string>{"c", "x", "y"}));
  EXPECT_EQ(model.output_names, (std::vector<std::string>{"out"}));
  EXPECT_EQ(model.opset, 13);
  const Function& main = model.module.main();
  ASSERT_EQ(main->params.size(), 3u);
  EXPECT_EQ(main->params[1]->name_hint, "x");
  EXPECT_EQ(TypeToString(main->params[0]->checked_type()), "Tensor[(2, 1, 4), bool]");
  EXPECT_EQ(TypeToString(main->body->checked_type()), "Tensor[(2, 3, 4), f32]");
}

TEST(OnnxImporterTest, AnInitializerOfAnInputIsItsValueAndReportedFromIrVersion4) {
  REQUIRE_TEST_MODELS();
  const OnnxModel listed = ImportOnnxFile((OnnxModelsFixture::Dir() / "initializer_listed_as_input.onnx").string());
  EXPECT_EQ(listed.input_names, (std::vector<std::string>{"x"}));
  EXPECT_TRUE(listed.inputs_with_initializers.empty());
  const OnnxModel defaulted = ImportOnnxFile((OnnxModelsFixture::Dir() / "initializer_default_of_input.onnx").string());
  EXPECT_EQ(defaulted.input_names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(defaulted.inputs_with_initializers, (std::vector<std::string>{"w"}));
}

TEST(OnnxImporterTest, SeveralOutputsBecomeATuple) {
  REQUIRE_TEST_MODELS();
  const OnnxModel model = ImportOnnxFile((OnnxModelsFixture::Dir() / "split_equal.onnx").string());
  EXPECT_EQ(model.output_names, (std::vector<std::string>{"y0", "y1", "y2"}));
  EXPECT_EQ(TypeToString(model.module.main()->body->checked_type()),
            "(Tensor[(2, 2), f32], Tensor[(2, 2), f32], Tensor[(2, 2), f32])");
}

TEST(OnnxImporterTest, InputShapeOverrideReplacesDeclaredShape) {
  REQUIRE_TEST_MODELS();
  OnnxImportOptions options;
  options.input_shapes["x"] = {5, 3};
  const OnnxModel model = ImportOnnxFile((OnnxModelsFixture::Dir() / "dynamic_batch_override.onnx").string(), options);
  EXPECT_EQ(TypeToString(model.module.main()->body->checked_type()), "Tensor[(5, 3), f32]");
}

TEST(OnnxImporterTest, BoundShapeMustAgreeWithTheStaticDimensions) {
  REQUIRE_TEST_MODELS();
  const std::string path = (OnnxModelsFixture::Dir() / "dynamic_batch_override.onnx").string();
  OnnxImportOptions options;
  options.input_shapes["x"] = {5, 4};
  try {
    ImportOnnxFile(path, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              path + ": graph input 'x' has the static extent 3 at axis 1 but --shape gives (5, 4)");
  }
  options.input_shapes["x"] = {5, 3, 1};
  EXPECT_THROW(ImportOnnxFile(path, options), Error);
}

TEST(OnnxImporterTest, AGivenValueBindsTheSymbolicDimensions) {
  REQUIRE_TEST_MODELS();
  OnnxImportOptions options;
  options.input_values.emplace("x", Tensor::Zeros(DType::kF32, {4, 3}));
  const OnnxModel model = ImportOnnxFile((OnnxModelsFixture::Dir() / "dynamic_batch_override.onnx").string(), options);
  EXPECT_EQ(TypeToString(model.module.main()->body->checked_type()), "Tensor[(4, 3), f32]");
  EXPECT_TRUE(model.specialized_inputs.empty());
  EXPECT_EQ(model.input_names, std::vector<std::string>{"x"});
}

// A graph input that a compile-time argument depends on becomes a constant of its value;
// the other inputs stay parameters.
TEST(OnnxImporterTest, AGivenValueSpecializesAnInputThatMustBeKnownAtImportTime) {
  REQUIRE_TEST_MODELS();
  const std::string path = (OnnxModelsFixture::Dir() / "bad_runtime_reshape_shape.onnx").string();
  OnnxImportOptions options;
  options.input_values.emplace("s", Tensor::FromVector(std::vector<int64_t>{3, 2}, {2}));
  options.input_values.emplace("x", Tensor::Zeros(DType::kF32, {2, 3}));
  const OnnxModel model = ImportOnnxFile(path, options);
  EXPECT_EQ(model.specialized_inputs, std::vector<std::string>{"s"});
  EXPECT_EQ(model.input_names, std::vector<std::string>{"x"});
  EXPECT_EQ(TypeToString(model.module.main()->body->checked_type()), "Tensor[(3, 2), f32]");
  options.input_values.at("s") = Tensor::FromVector(std::vector<int32_t>{3, 2}, {2});
  try {
    ImportOnnxFile(path, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), path + ": graph input 's' is i64 but its value from --inputs is i32");
  }
}

TEST(OnnxImporterTest, OverrideOfUnknownInputIsAnError) {
  REQUIRE_TEST_MODELS();
  OnnxImportOptions options;
  options.input_shapes["nope"] = {1};
  const std::string path = (OnnxModelsFixture::Dir() / "unary_Relu.onnx").string();
  try {
    ImportOnnxFile(path, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), path + ": --shape names 'nope', which is not a graph input (inputs: x)");
  }
}

TEST(OnnxImporterTest, UnreadableFileIsAnError) {
  try {
    ImportOnnxFile("/nonexistent/model.onnx");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "/nonexistent/model.onnx: cannot open the file");
  }
}

TEST(OnnxImporterTest, BytesAreImportedLikeFiles) {
  REQUIRE_TEST_MODELS();
  std::ifstream file(OnnxModelsFixture::Dir() / "unary_Relu.onnx", std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  const std::string bytes = contents.str();
  const OnnxModel model = ImportOnnxBytes(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), "memory");
  EXPECT_EQ(testing::CalledOps(model.module), std::set<std::string>{"nn.relu"});
  EXPECT_THROW(ImportOnnxBytes(std::as_bytes(std::span<const char>(bytes.data(), bytes.size() - 3)), "memory"), Error);
}

TEST(OnnxImporterTest, ParseInputShapeOverride) {
  EXPECT_EQ(ParseInputShapeOverride("x=1x3x224x224"), (std::pair<std::string, Shape>{"x", {1, 3, 224, 224}}));
  EXPECT_EQ(ParseInputShapeOverride("input.1=2,128"), (std::pair<std::string, Shape>{"input.1", {2, 128}}));
  EXPECT_EQ(ParseInputShapeOverride("scalar="), (std::pair<std::string, Shape>{"scalar", {}}));
  for (const char* bad : {"x", "=1x2", "x=1xax2", "x=1x", "x=-1x2", "x=1x99999999999999"}) {
    EXPECT_THROW(ParseInputShapeOverride(bad), Error) << bad;
  }
  try {
    ParseInputShapeOverride("x=1xbx3");
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "--shape 'x=1xbx3': dimension 'b' is not a non-negative integer (expected NAME=1x3x224x224)");
  }
}

TEST(OnnxImporterTest, SupportsTheOpsTheIssueLists) {
  const std::vector<std::string> supported = SupportedOnnxOps();
  const std::set<std::string> ops(supported.begin(), supported.end());
  for (const char* op : {"Conv",
                         "ConvTranspose",
                         "Gemm",
                         "MatMul",
                         "BatchNormalization",
                         "LayerNormalization",
                         "Softmax",
                         "Erf",
                         "Sigmoid",
                         "Clip",
                         "Relu",
                         "MaxPool",
                         "AveragePool",
                         "GlobalAveragePool",
                         "Pad",
                         "Resize",
                         "Slice",
                         "Gather",
                         "Split",
                         "Concat",
                         "Transpose",
                         "Reshape",
                         "Flatten",
                         "Squeeze",
                         "Unsqueeze",
                         "Expand",
                         "Where",
                         "Cast",
                         "ReduceMean",
                         "ReduceSum",
                         "Constant",
                         "Identity",
                         "Dropout",
                         "Shape",
                         "ConstantOfShape",
                         "Range",
                         "Equal"}) {
    EXPECT_EQ(ops.count(op), 1u) << op;
  }
}

}  // namespace
}  // namespace collage
