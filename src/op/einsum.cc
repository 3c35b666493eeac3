// einsum: the sum of products of its operands' elements over the labels an equation names,
// as ONNX Einsum ("ij,jk->ik"; without "->" the output is the labels used once, in
// alphabetical order). "..." stands for the same leading dimensions in every operand and the
// output; an ellipsis dimension of extent 1 broadcasts. The kernel visits every combination of
// label values, which is obviously right and slow: it is the reference.
#include <algorithm>
#include <cctype>
#include <map>

#include "op/all_ops.h"
#include "op/dtype_support.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "ir/op_registry.h"
#include "op/scalar_math.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

std::string OperandName(size_t index) { return "operands[" + std::to_string(index) + "]"; }

// The equation resolved against the operands' shapes: one label per dimension of each
// operand and of the output, and every label's extent. Ellipsis dimensions get the labels
// '0', '1', ... counted from the last.
struct EinsumPlan {
  std::vector<std::string> inputs;
  std::string output;
  std::map<char, int64_t> extents;
};

// One operand's subscripts with "..." expanded for an operand of `rank` dimensions.
std::string ExpandEllipsis(const std::string& subscripts, int64_t rank, int64_t& ellipsis_rank,
                           const std::string& what) {
  const size_t dots = subscripts.find("...");
  if (dots == std::string::npos) {
    if (static_cast<int64_t>(subscripts.size()) != rank) {
      throw TypeError(what + " has " + std::to_string(rank) + " dimensions but the equation gives it " +
                      std::to_string(subscripts.size()) + " labels");
    }
    return subscripts;
  }
  const std::string before = subscripts.substr(0, dots);
  const std::string after = subscripts.substr(dots + 3);
  const int64_t covered = rank - static_cast<int64_t>(before.size() + after.size());
  if (covered < 0) throw TypeError(what + " has fewer dimensions than the equation's labels");
  ellipsis_rank = std::max(ellipsis_rank, covered);
  std::string expanded = before;
  for (int64_t d = covered; d-- > 0;) expanded += static_cast<char>('0' + d);
  return expanded + after;
}

EinsumPlan PlanEinsum(const std::string& text, const std::vector<Shape>& shapes) {
  std::string equation;
  for (char c : text) {
    if (c != ' ') equation += c;
  }
  const size_t arrow = equation.find("->");
  const std::string left = equation.substr(0, arrow);
  std::vector<std::string> operands;
  for (size_t start = 0;;) {
    const size_t comma = left.find(',', start);
    operands.push_back(left.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (operands.size() != shapes.size()) {
    throw TypeError("equation '" + text + "' names " + std::to_string(operands.size()) + " operands, got " +
                    std::to_string(shapes.size()));
  }
  for (const std::string& part : operands) {
    for (size_t i = 0; i < part.size(); ++i) {
      if (!std::isalpha(static_cast<unsigned char>(part[i])) && part.compare(i, 3, "...") != 0) {
        throw TypeError("equation '" + text + "' has an invalid label in '" + part + "'");
      }
      if (part[i] == '.') i += 2;
    }
  }
  EinsumPlan plan;
  int64_t ellipsis_rank = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string labels =
        ExpandEllipsis(operands[i], static_cast<int64_t>(shapes[i].size()), ellipsis_rank, OperandName(i));
    for (size_t d = 0; d < labels.size(); ++d) {
      const char label = labels[d];
      const int64_t extent = shapes[i][d];
      auto [found, inserted] = plan.extents.emplace(label, extent);
      const bool broadcast = std::isdigit(static_cast<unsigned char>(label)) && (found->second == 1 || extent == 1);
      if (!inserted && found->second != extent && !broadcast) {
        throw TypeError("label '" + std::string(1, label) + "' has extent " + std::to_string(found->second) +
                        " and " + std::to_string(extent) + " (" + OperandName(i) + ")");
      }
      found->second = std::max(found->second, extent);
    }
    plan.inputs.push_back(labels);
  }
  std::string ellipsis;
  for (int64_t d = ellipsis_rank; d-- > 0;) ellipsis += static_cast<char>('0' + d);
  if (arrow != std::string::npos) {
    std::string output = equation.substr(arrow + 2);
    const size_t dots = output.find("...");
    if (dots != std::string::npos) output.replace(dots, 3, ellipsis);
    for (char label : output) {
      if (plan.extents.count(label) == 0) {
        throw TypeError("output label '" + std::string(1, label) + "' of equation '" + text + "' is in no operand");
      }
    }
    plan.output = output;
  } else {
    std::map<char, int> uses;
    for (const std::string& labels : plan.inputs) {
      for (char label : labels) ++uses[label];
    }
    plan.output = ellipsis;
    for (const auto& [label, count] : uses) {
      if (count == 1 && std::isalpha(static_cast<unsigned char>(label))) plan.output += label;
    }
  }
  return plan;
}

Shape OutputShape(const EinsumPlan& plan) {
  Shape shape;
  for (char label : plan.output) shape.push_back(plan.extents.at(label));
  return shape;
}

std::vector<Shape> ShapesOf(const std::vector<Tensor>& tensors) {
  std::vector<Shape> shapes;
  for (const Tensor& tensor : tensors) shapes.push_back(tensor.shape());
  return shapes;
}

}  // namespace

void RegisterEinsumOps(OpRegistry& registry) {
  registry.Register("einsum")
      .Describe("sum of products over the labels of an equation such as \"ij,jk->ik\", as ONNX Einsum")
      .VariadicArgs(1, "operands")
      .Attr("equation", AttrKind::kString)
      .Pattern(OpPatternKind::kOpaque)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        std::vector<Shape> shapes;
        const TensorTypeNode& first = ExpectTensorArg(arg_types, 0, OperandName(0));
        ExpectDTypeSupported(kNumericDTypes, first, OperandName(0));
        for (size_t i = 0; i < arg_types.size(); ++i) {
          const TensorTypeNode& operand = ExpectTensorArg(arg_types, i, OperandName(i));
          ExpectSameDType(first, OperandName(0), operand, OperandName(i));
          shapes.push_back(operand.shape);
        }
        return TensorType(first.dtype, OutputShape(PlanEinsum(attrs.GetString("equation"), shapes)));
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        CheckKernelDType(kNumericDTypes, args[0].dtype(), "einsum");
        const EinsumPlan plan = PlanEinsum(attrs.GetString("equation"), ShapesOf(args));
        std::string labels;
        Shape extents;
        for (const auto& [label, extent] : plan.extents) {
          labels += label;
          extents.push_back(extent);
        }
        // Positions in `labels` of each operand's and the output's labels.
        auto positions = [&labels](const std::string& of) {
          std::vector<size_t> result;
          for (char label : of) result.push_back(labels.find(label));
          return result;
        };
        std::vector<std::vector<size_t>> input_positions;
        for (const std::string& input : plan.inputs) input_positions.push_back(positions(input));
        const std::vector<size_t> output_positions = positions(plan.output);
        Tensor output = AllocateResult(result_type);
        WithComputeType(args[0].dtype(), [&]<typename T>() {
          std::vector<T> sums(static_cast<size_t>(output.NumElements()), T{0});
          for (int64_t flat = 0; flat < NumElements(extents); ++flat) {
            const std::vector<int64_t> value = UnravelIndex(flat, extents);
            T product{1};
            for (size_t i = 0; i < args.size(); ++i) {
              std::vector<int64_t> index;
              for (size_t d = 0; d < input_positions[i].size(); ++d) {
                index.push_back(args[i].shape()[d] == 1 ? 0 : value[input_positions[i][d]]);
              }
              product = scalar::Multiply(product, LoadElement<T>(args[i], RavelIndex(index, args[i].shape())));
            }
            std::vector<int64_t> out_index;
            for (size_t position : output_positions) out_index.push_back(value[position]);
            T& sum = sums[static_cast<size_t>(RavelIndex(out_index, output.shape()))];
            sum = scalar::Add(sum, product);
          }
          for (int64_t i = 0; i < output.NumElements(); ++i) StoreElement(output, i, sums[static_cast<size_t>(i)]);
        });
        return std::vector<Tensor>{output};
      });
}

}  // namespace collage
