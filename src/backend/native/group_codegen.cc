#include "backend/native/group_codegen.h"

#include <algorithm>
#include <map>
#include <set>

#include "backend/native/anchor_codegen.h"
#include "backend/native/element_codegen.h"
#include "backend/native/index_expr.h"
#include "backend/native/packed_weights.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "support/error.h"

namespace collage::native {
namespace {

// One tensor value of the group: a node and, for tuple-returning calls, the field.
struct ValueRef {
  const ExprNode* node = nullptr;
  int field = 0;
  auto operator<=>(const ValueRef&) const = default;
};

// Element loops run over rows of kMinRowColumns to kMaxRowColumns elements: shorter rows are
// too short an inner loop to vectorize, fewer longer rows would leave threads without a chunk.
constexpr int64_t kMinRowColumns = 16;
constexpr int64_t kMaxRowColumns = 65536;
// The most element operations of a value's inlined expression that may be recomputed at
// each of its several readers (see MaterializeSharedValues).
constexpr int64_t kMaxRecomputedOperations = 8;

const TensorTypeNode& FieldType(const ExprNode& node, int field) {
  const Type& type = node.checked_type();
  const TensorTypeNode* tensor = AsTensorType(type);
  if (const TupleTypeNode* tuple = AsTupleType(type)) tensor = AsTensorType(tuple->fields.at(field));
  if (tensor == nullptr) throw Error("native: nested tuples are not generated");
  return *tensor;
}

bool IsSource(const ExprNode* node) { return node->kind() == ExprKind::kVar || node->kind() == ExprKind::kConstant; }

class GroupGenerator {
 public:
  GroupGenerator(const Function& group, std::string symbol, const std::map<const ExprNode*, Tensor>& constant_params)
      : group_(group), symbol_(std::move(symbol)) {
    for (const Expr& expr : PostOrder(group->body, false)) {
      id_[expr.get()] = static_cast<int>(id_.size());
      if (const auto* call = As<CallNode>(expr); call && call->op()) {
        if (HasAnchorKernel(*call)) anchors_.push_back(call);
        const TupleTypeNode* tuple = AsTupleType(call->checked_type());
        const int fields = tuple != nullptr ? static_cast<int>(tuple->fields.size()) : 1;
        for (int field = 0; field < fields; ++field) topological_values_.push_back(ValueRef{call, field});
      }
      if (Constant constant = Downcast<ConstantNode>(expr)) constants_.push_back(std::move(constant));
    }
    PackAnchorWeights(constant_params);
    outputs_ = Flatten(group->body);
    for (const CallNode* anchor : anchors_) {
      if (AnchorInputKind(*anchor) != AnchorInput::kPointer) continue;
      for (const Expr& arg : anchor->args) {
        const ValueRef value = Resolve(arg);
        if (!IsSource(value.node) && !IsAnchor(value.node)) materialized_.insert(value);
      }
    }
    MaterializeSharedValues();
  }

  // Anchors' constant weights (constants of the group or parameters bound to constants)
  // packed for the GEMM become constants of their own; a constant of the group that nothing
  // else reads is no longer passed to the kernel.
  void PackAnchorWeights(const std::map<const ExprNode*, Tensor>& constant_params) {
    for (const CallNode* anchor : anchors_) {
      if (!TakesPackedWeights(*anchor)) continue;
      const ExprNode* weights = Resolve(anchor->args[1]).node;
      const Tensor* data = nullptr;
      if (weights->kind() == ExprKind::kConstant) data = &static_cast<const ConstantNode*>(weights)->data;
      if (const auto bound = constant_params.find(weights); bound != constant_params.end()) data = &bound->second;
      if (data == nullptr) continue;
      Constant packed = MakeConstant(PackWeights(*anchor, *data));
      packed->set_checked_type(TensorType(DType::kF32, packed->data.shape()));
      id_[packed.get()] = static_cast<int>(id_.size());
      packed_weights_[anchor] = ValueRef{packed.get(), 0};
      constants_.push_back(std::move(packed));
    }
    if (packed_weights_.empty()) return;
    std::set<const ExprNode*> read = {group_->body.get()};
    for (const Expr& expr : PostOrder(group_->body, false)) {
      if (const auto* call = As<CallNode>(expr)) {
        for (size_t arg = 0; arg < call->args.size(); ++arg) {
          if (arg != 1 || !packed_weights_.count(call)) read.insert(call->args[arg].get());
        }
      } else if (const auto* tuple = As<TupleNode>(expr)) {
        for (const Expr& field : tuple->fields) read.insert(field.get());
      } else if (const auto* item = As<TupleGetItemNode>(expr)) {
        read.insert(item->tuple.get());
      }
    }
    for (const auto& [anchor, packed] : packed_weights_) read.insert(packed.node);
    std::erase_if(constants_, [&](const Constant& constant) { return read.count(constant.get()) == 0; });
  }

  GeneratedKernel Generate() {
    std::string run;
    std::vector<ValueRef> pending;  // materialized values to compute in the next element loops
    for (const ValueRef& value : topological_values_) {
      if (IsAnchor(value.node)) {
        run += MaterializeLoops(pending);
        run += AnchorStage(*static_cast<const CallNode*>(value.node));
        computed_.insert(value);
        continue;
      }
      if (!materialized_.count(value) || computed_.count(value)) continue;
      if (ReadsAny(value, pending)) run += MaterializeLoops(pending);
      pending.push_back(value);
    }
    run += MaterializeLoops(pending);
    std::map<int64_t, std::vector<size_t>> final_outputs;  // by element count
    for (size_t o = 0; o < outputs_.size(); ++o) {
      if (!fused_outputs_.count(o)) final_outputs[NumElements(TypeOf(outputs_[o]).shape)].push_back(o);
    }
    for (const auto& [count, indices] : final_outputs) {
      std::vector<std::pair<std::string, ValueRef>> stores;
      for (size_t o : indices) stores.emplace_back("o" + std::to_string(o), outputs_[o]);
      run += ElementLoop(count, stores);
    }
    return GeneratedKernel{symbol_, Assemble(run), constants_};
  }

 private:
  ValueRef Resolve(const Expr& expr) const {
    if (const auto* item = As<TupleGetItemNode>(expr)) {
      if (const auto* tuple = As<TupleNode>(item->tuple)) return Resolve(tuple->fields.at(item->index));
      return ValueRef{Resolve(item->tuple).node, item->index};
    }
    return ValueRef{expr.get(), 0};
  }

  std::vector<ValueRef> Flatten(const Expr& expr) const {
    if (const auto* tuple = As<TupleNode>(expr)) {
      std::vector<ValueRef> values;
      for (const Expr& field : tuple->fields) {
        for (const ValueRef& value : Flatten(field)) values.push_back(value);
      }
      return values;
    }
    if (const TupleTypeNode* tuple = AsTupleType(expr->checked_type()); tuple && !As<TupleGetItemNode>(expr)) {
      std::vector<ValueRef> values;
      for (size_t f = 0; f < tuple->fields.size(); ++f) values.push_back(ValueRef{expr.get(), static_cast<int>(f)});
      return values;
    }
    return {Resolve(expr)};
  }

  const TensorTypeNode& TypeOf(ValueRef value) const { return FieldType(*value.node, value.field); }
  std::string Compute(ValueRef value) const { return ComputeType(TypeOf(value).dtype); }
  std::string Storage(ValueRef value) const { return StorageType(TypeOf(value).dtype); }
  std::string Name(ValueRef value) const {
    return std::to_string(id_.at(value.node)) + "_" + std::to_string(value.field);
  }
  bool IsAnchor(const ExprNode* node) const {
    for (const CallNode* anchor : anchors_) {
      if (anchor == node) return true;
    }
    return false;
  }
  // Values read from memory: parameters, constants, anchor results, materialized inputs.
  bool IsMaterialized(ValueRef value) const {
    return IsSource(value.node) || IsAnchor(value.node) || materialized_.count(value) > 0;
  }
  std::string Buffer(ValueRef value) {
    const std::string name = "m" + Name(value);
    buffers_.emplace(name, value);
    return name;
  }

  const CallNode& ElementCallOf(ValueRef value) const {
    const auto* call = static_cast<const CallNode*>(value.node);
    Check(value.node->kind() == ExprKind::kCall && call->op() && HasElementFunction(*call),
          "native: value is not an element-wise call");
    return *call;
  }

  // The expression of `value` at `index`; inside the epilogue of `anchor` (non-null) the
  // anchor's own value at the output index is `acc`.
  std::string Value(ValueRef value, const std::string& index, const ExprNode* anchor) {
    if (anchor != nullptr && value.node == anchor) {
      Check(index == "i", "native: epilogue reads the anchor at a moved index");
      return "acc";
    }
    if (IsMaterialized(value)) return "static_cast<" + Compute(value) + ">(" + Buffer(value) + "[" + index + "])";
    const bool in_epilogue = anchor != nullptr && Reaches(value, anchor);
    const std::string name = (in_epilogue ? "e" + std::to_string(id_.at(anchor)) + "_v" : "v") + Name(value);
    if (!emitted_.count(name)) {
      emitted_.insert(name);
      const ExprNode* context = in_epilogue ? anchor : nullptr;
      const CallNode& call = ElementCallOf(value);
      const std::string body = EmitElementFunction(call, value.field, [&](size_t arg, const std::string& at) {
        return Value(Resolve(call.args[arg]), at, context);
      });
      // Indices are index_t or a RowIndex (ElementLoop's, a matrix product's epilogue's).
      const std::string signature = "  template <typename I> NATIVE_INLINE " + Compute(value) + " " + name + "(I i" +
                                    (in_epilogue ? ", " + ComputeType(FieldType(*anchor, 0).dtype) + " acc)" : ")");
      functions_ += signature + " const { " + body + " }\n";
    }
    return name + (in_epilogue ? "(" + index + ", acc)" : "(" + index + ")");
  }

  // Anchors reached from `value` through element functions (not through materialized values).
  bool Reaches(ValueRef value, const ExprNode* anchor) {
    if (value.node == anchor) return true;
    if (IsMaterialized(value)) return false;
    const auto key = std::make_pair(value, anchor);
    if (auto it = reaches_.find(key); it != reaches_.end()) return it->second;
    bool reached = false;
    for (const Expr& arg : ElementCallOf(value).args) reached = reached || Reaches(Resolve(arg), anchor);
    reaches_[key] = reached;
    return reached;
  }

  // True when every path from `value` to `anchor` reads at the same linear index.
  bool IdentityPath(ValueRef value, const ExprNode* anchor) {
    if (value.node == anchor) return true;
    if (IsMaterialized(value) || !Reaches(value, anchor)) return true;
    const auto key = std::make_pair(value, anchor);
    if (auto it = identity_paths_.find(key); it != identity_paths_.end()) return it->second;
    const CallNode& call = ElementCallOf(value);
    bool identity = true;
    EmitElementFunction(call, value.field, [&](size_t arg, const std::string& at) {
      const ValueRef input = Resolve(call.args[arg]);
      if (Reaches(input, anchor) && (at != "i" || !IdentityPath(input, anchor))) identity = false;
      return std::string("0");
    });
    identity_paths_[key] = identity;
    return identity;
  }

  // Calls `read` with each argument value `value`'s element function reads, once per read.
  template <typename Read>
  void ForEachRead(ValueRef value, const Read& read) const {
    const CallNode& call = ElementCallOf(value);
    EmitElementFunction(call, value.field, [&](size_t arg, const std::string&) {
      read(Resolve(call.args[arg]));
      return std::string("0");
    });
  }

  // Inlining copies a value's expression into every reader, so a value read k times is
  // computed k times and nested shared values multiply: a chain of diamonds would grow
  // exponentially. A value read more than once whose inlined expression holds more than
  // kMaxRecomputedOperations element operations is materialized instead (computed once into a
  // buffer), which bounds every inlined expression that is copied and keeps the generated
  // code linear in the group's size; cheap shared values (a biased anchor result feeding a
  // GELU) stay inlined and fused.
  void MaterializeSharedValues() {
    std::map<ValueRef, int> reads;
    for (const ValueRef& output : outputs_) ++reads[output];
    for (const CallNode* anchor : anchors_) {
      if (AnchorInputKind(*anchor) != AnchorInput::kAccessor) continue;
      for (const Expr& arg : anchor->args) ++reads[Resolve(arg)];
    }
    for (auto value = topological_values_.rbegin(); value != topological_values_.rend(); ++value) {
      if (IsAnchor(value->node) || (!reads.count(*value) && !materialized_.count(*value))) continue;
      ForEachRead(*value, [&](ValueRef input) { ++reads[input]; });
    }
    std::map<ValueRef, int64_t> inlined_operations;
    for (const ValueRef& value : topological_values_) {
      if (IsAnchor(value.node)) continue;
      int64_t operations = 1;
      ForEachRead(value, [&](ValueRef input) {
        if (!IsMaterialized(input)) operations += inlined_operations[input];
      });
      inlined_operations[value] = operations;
      if (reads[value] > 1 && operations > kMaxRecomputedOperations) materialized_.insert(value);
    }
  }

  // The materialized values (anchors included) that `value`'s own expression reads, through
  // inlined values.
  std::set<ValueRef> MaterializedReads(ValueRef value) const {
    std::set<ValueRef> materialized;
    std::set<ValueRef> visited;
    std::vector<ValueRef> stack;
    const auto push = [&](ValueRef input) { stack.push_back(input); };
    ForEachRead(value, push);
    while (!stack.empty()) {
      const ValueRef input = stack.back();
      stack.pop_back();
      if (!visited.insert(input).second) continue;
      if (IsMaterialized(input)) {
        materialized.insert(input);
      } else {
        ForEachRead(input, push);
      }
    }
    return materialized;
  }

  bool ReadsAny(ValueRef value, const std::vector<ValueRef>& values) const {
    for (const ValueRef& read : MaterializedReads(value)) {
      if (std::find(values.begin(), values.end(), read) != values.end()) return true;
    }
    return false;
  }

  int CountAnchorsReached(ValueRef value) {
    int count = 0;
    for (const CallNode* anchor : anchors_) count += Reaches(value, anchor) ? 1 : 0;
    return count;
  }

  // One element loop per element count computing `values` (none reads another) into scratch
  // buffers; empties `values`.
  std::string MaterializeLoops(std::vector<ValueRef>& values) {
    std::map<int64_t, std::vector<std::pair<std::string, ValueRef>>> by_count;
    for (const ValueRef& value : values) {
      computed_.insert(value);
      by_count[NumElements(TypeOf(value).shape)].emplace_back(Buffer(value), value);
    }
    values.clear();
    std::string code;
    for (const auto& [count, stores] : by_count) {
      for (const auto& store : stores) code += DeclareScratch(store.second);
      code += ElementLoop(count, stores, /*compute_materialized=*/true);
    }
    return code;
  }

  std::string DeclareScratch(ValueRef value) {
    const std::string name = Buffer(value);
    return "    native::Scratch<" + Storage(value) + "> s" + name + "(" +
           std::to_string(NumElements(TypeOf(value).shape)) + "); " + name + " = s" + name + ".data();\n";
  }

  // True when `value`'s element function (looked at even when it is materialized) reaches
  // `anchor` only, at the anchor's element count and through linear-identity index maps, and
  // every other materialized value it reads is computed before the anchor's stage.
  bool FusesIntoEpilogue(ValueRef value, const CallNode& anchor) {
    if (value.node == &anchor) return true;
    if (NumElements(TypeOf(value).shape) != NumElements(TypeOf(ValueRef{&anchor, 0}).shape)) return false;
    if (IsAnchor(value.node) || IsSource(value.node)) return false;
    const bool materialized = materialized_.erase(value) > 0;
    ClearPathCaches();
    bool fuses = Reaches(value, &anchor) && CountAnchorsReached(value) == 1 && IdentityPath(value, &anchor);
    if (fuses) {
      for (const ValueRef& read : MaterializedReads(value)) {
        if (!IsSource(read.node) && read.node != &anchor && !computed_.count(read)) fuses = false;
      }
    }
    if (materialized) materialized_.insert(value);
    ClearPathCaches();
    return fuses;
  }

  void ClearPathCaches() {
    reaches_.clear();
    identity_paths_.clear();
  }

  // `value` computed in the epilogue of `anchor` (not loaded, even when materialized).
  std::string EpilogueValue(ValueRef value, const CallNode& anchor) {
    const bool materialized = materialized_.erase(value) > 0;
    ClearPathCaches();
    const std::string expr = Value(value, "i", &anchor);
    if (materialized) materialized_.insert(value);
    ClearPathCaches();
    return expr;
  }

  std::string AnchorStage(const CallNode& anchor) {
    const ValueRef self{&anchor, 0};
    std::string stores;
    std::string declarations;
    for (size_t o = 0; o < outputs_.size(); ++o) {
      if (fused_outputs_.count(o) || !FusesIntoEpilogue(outputs_[o], anchor)) continue;
      fused_outputs_.insert(o);
      stores += "o" + std::to_string(o) + "[i] = static_cast<" + Storage(outputs_[o]) + ">(" +
                EpilogueValue(outputs_[o], anchor) + "); ";
    }
    // Later materialized values computed here too.
    std::vector<ValueRef> fused;
    for (const ValueRef& value : topological_values_) {
      if (!materialized_.count(value) || computed_.count(value) || !FusesIntoEpilogue(value, anchor)) continue;
      fused.push_back(value);
      declarations += DeclareScratch(value);
      stores += Buffer(value) + "[i] = static_cast<" + Storage(value) + ">(" + EpilogueValue(value, anchor) + "); ";
    }
    computed_.insert(fused.begin(), fused.end());
    // The anchor's own buffer, when anything else reads it (decided after the other stages are
    // emitted, so the declaration is patched in by Assemble through a placeholder).
    const std::string keep = "@KEEP" + Name(self) + "@";
    std::vector<std::string> inputs;
    for (size_t arg = 0; arg < anchor.args.size(); ++arg) {
      const ValueRef value = Resolve(anchor.args[arg]);
      if (const auto packed = packed_weights_.find(&anchor); packed != packed_weights_.end() && arg == 1) {
        inputs.push_back(Buffer(packed->second));
      } else if (AnchorInputKind(anchor) == AnchorInput::kPointer) {
        inputs.push_back(Buffer(value));
      } else {
        inputs.push_back("[&](index_t i) { return " + Value(value, "i", nullptr) + "; }");
      }
    }
    const int64_t row_columns = EpilogueRowColumns(anchor);
    const std::string index =
        row_columns > 0 ? "native::RowIndex<index_t, " + std::to_string(row_columns) + ">" : std::string("index_t");
    const std::string epilogue = "[&](" + index + " i, " + Compute(self) + " acc) { " + stores + keep + " }";
    anchor_buffers_.push_back(self);
    return declarations + "    @DECL" + Name(self) + "@{\n      auto epilogue = " + epilogue + ";\n      " +
           EmitAnchorCall(anchor, inputs, "epilogue", "threads", packed_weights_.count(&anchor) > 0) + "\n    }\n";
  }

  // One parallel loop storing every (target, value) of `stores`, all of `count` elements. When
  // they share a last extent in [kMinRowColumns, kMaxRowColumns] the loop runs over rows and
  // columns and hands the element functions a native::RowIndex.
  std::string ElementLoop(int64_t count, const std::vector<std::pair<std::string, ValueRef>>& stores,
                          bool compute_materialized = false) {
    std::string body;
    for (const auto& [target, value] : stores) {
      const std::string expr = compute_materialized ? ComputeUnmaterialized(value) : Value(value, "i", nullptr);
      body += target + "[i] = static_cast<" + Storage(value) + ">(" + expr + "); ";
    }
    const int64_t columns = SharedLastExtent(stores);
    if (columns >= kMinRowColumns && columns <= kMaxRowColumns && count % columns == 0) {
      return "    native::ParallelFor(" + std::to_string(count / columns) + ", threads, native::GrainFor(" +
             std::to_string(columns) + "), [&](int64_t begin, int64_t end) {\n" +
             "      for (index_t row = static_cast<index_t>(begin); row < end; ++row) {\n#pragma GCC ivdep\n" +
             "        for (index_t col = 0; col < " + IndexLiteral(columns) + "; ++col) { " +
             "const native::RowIndex<index_t, " + std::to_string(columns) + "> i{row, col}; " + body +
             "}\n      }\n    });\n";
    }
    return "    native::ParallelFor(" + std::to_string(count) + ", threads, native::kParallelGrainElements" +
           ", [&](int64_t begin, int64_t end) {\n      const index_t stop = static_cast<index_t>(end);\n#pragma GCC ivdep\n      for (index_t i = static_cast<index_t>(begin); i < stop; ++i) { " +
           body + "}\n    });\n";
  }

  // The last extent of every stored value when they all have the same one (rank >= 2), else 0.
  int64_t SharedLastExtent(const std::vector<std::pair<std::string, ValueRef>>& stores) const {
    int64_t shared = 0;
    for (const auto& store : stores) {
      const Shape& shape = TypeOf(store.second).shape;
      if (shape.size() < 2 || (shared != 0 && shape.back() != shared)) return 0;
      shared = shape.back();
    }
    return shared;
  }

  // A materialized input's own element function (not the load of its buffer).
  std::string ComputeUnmaterialized(ValueRef value) {
    materialized_.erase(value);
    const std::string expr = Value(value, "i", nullptr);
    materialized_.insert(value);
    return expr;
  }

  // int32_t when every tensor of the group has fewer than 2^31 elements.
  std::string IndexType() const {
    for (const auto& [node, id] : id_) {
      if (node->kind() == ExprKind::kOp || node->kind() == ExprKind::kFunction) continue;
      const Type& type = node->checked_type();
      std::vector<const TensorTypeNode*> tensors;
      if (const TensorTypeNode* tensor = AsTensorType(type)) tensors.push_back(tensor);
      if (const TupleTypeNode* tuple = AsTupleType(type)) {
        for (const Type& field : tuple->fields) tensors.push_back(AsTensorType(field));
      }
      for (const TensorTypeNode* tensor : tensors) {
        if (tensor != nullptr && NumElements(tensor->shape) >= (int64_t{1} << 31) - 1) return "int64_t";
      }
    }
    return "int32_t";
  }

  std::string Assemble(std::string run) {
    // Anchor buffers: declared when read from memory by any emitted code.
    for (const ValueRef& anchor : anchor_buffers_) {
      const bool read = buffers_.count("m" + Name(anchor)) > 0;
      const std::string decl = "@DECL" + Name(anchor) + "@";
      const std::string keep = "@KEEP" + Name(anchor) + "@";
      run.replace(run.find(decl), decl.size(), read ? DeclareScratch(anchor).substr(4) + "    " : "");
      const size_t at = run.find(keep);
      run.replace(at, keep.size(), read ? "m" + Name(anchor) + "[i] = static_cast<" + Storage(anchor) + ">(acc);" : "");
    }
    const std::string type_name = symbol_ + "_kernel";
    std::string members;
    std::string binds;
    size_t arg = 0;
    for (const auto& param : group_->params) {
      const ValueRef value{param.get(), 0};
      const std::string type = Storage(value);
      members += "  const " + type + "* " + Buffer(value) + ";\n";
      binds += "  k." + Buffer(value) + " = static_cast<const " + type + "*>(args[" + std::to_string(arg++) + "]);\n";
    }
    for (const Constant& constant : constants_) {
      const ValueRef value{constant.get(), 0};
      const std::string type = Storage(value);
      members += "  const " + type + "* " + Buffer(value) + ";\n";
      binds += "  k." + Buffer(value) + " = static_cast<const " + type + "*>(args[" + std::to_string(arg++) + "]);\n";
    }
    for (const auto& [name, value] : buffers_) {
      if (!IsSource(value.node)) members += "  " + Storage(value) + "* " + name + " = nullptr;\n";
    }
    for (size_t o = 0; o < outputs_.size(); ++o) {
      const std::string type = Storage(outputs_[o]);
      members += "  " + type + "* o" + std::to_string(o) + ";\n";
      binds += "  k.o" + std::to_string(o) + " = static_cast<" + type + "*>(args[" + std::to_string(arg++) + "]);\n";
    }
    return "namespace {\nstruct " + type_name + " {\n  using index_t = " + IndexType() + ";\n" + members + functions_ + "  void Run(const native::Threads& threads) {\n" + run +
           "  }\n};\n}  // namespace\n\nextern \"C\" __attribute__((visibility(\"default\"))) const char* " + symbol_ +
           "(void* const* args, const native::Threads* threads) {\n  " + type_name + " k;\n" + binds +
           "  k.Run(*threads);\n  return native::TakeError();\n}\n";
  }

  Function group_;
  std::string symbol_;
  std::map<const ExprNode*, int> id_;
  std::vector<const CallNode*> anchors_;
  std::vector<Constant> constants_;
  std::map<const CallNode*, ValueRef> packed_weights_;  // an anchor's weights as PackedWeightsOf packs them
  std::vector<ValueRef> outputs_;
  std::vector<ValueRef> topological_values_;  // every value of an op call, producers first
  // Values read from scratch buffers: anchors' pointer inputs and shared values (anchor
  // results, parameters and constants are read from memory too, see IsMaterialized).
  std::set<ValueRef> materialized_;
  std::set<ValueRef> computed_;  // anchors and materialized values computed by the stages so far
  std::set<size_t> fused_outputs_;
  std::vector<ValueRef> anchor_buffers_;
  // By name ("m<id>_<field>", ids in traversal order), so that the kernel's source, and with it
  // the kernel cache's key, does not depend on where the nodes were allocated.
  std::map<std::string, ValueRef> buffers_;
  std::set<std::string> emitted_;
  std::map<std::pair<ValueRef, const ExprNode*>, bool> reaches_;
  std::map<std::pair<ValueRef, const ExprNode*>, bool> identity_paths_;
  std::string functions_;
};

}  // namespace

bool CanGenerateGroup(const Function& group) {
  try {
    for (const auto& param : group->params) {
      const TensorTypeNode* type = AsTensorType(param->checked_type());
      if (type == nullptr) return false;
      StorageType(type->dtype);
    }
    for (const Expr& expr : PostOrder(group->body, false)) {
      if (expr->kind() == ExprKind::kOp) continue;
      if (expr->kind() == ExprKind::kFunction) return false;
      const Type& type = expr->checked_type();
      if (const TensorTypeNode* tensor = AsTensorType(type)) StorageType(tensor->dtype);
      if (const TupleTypeNode* tuple = AsTupleType(type)) {
        for (const Type& field : tuple->fields) {
          const TensorTypeNode* tensor = AsTensorType(field);
          if (tensor == nullptr) return false;
          StorageType(tensor->dtype);
        }
      }
      if (const auto* call = As<CallNode>(expr)) {
        if (call->op() == nullptr) return false;
        if (!HasElementFunction(*call) && !HasAnchorKernel(*call)) return false;
      }
    }
  } catch (const Error&) {
    return false;
  }
  return true;
}

GeneratedKernel GenerateGroupKernel(const Function& group, const std::string& symbol,
                                    const std::vector<const ConstantNode*>& param_constants) {
  if (!CanGenerateGroup(group)) throw Error("native: the group has an op or dtype without a generator");
  std::map<const ExprNode*, Tensor> constant_params;
  for (size_t p = 0; p < param_constants.size() && p < group->params.size(); ++p) {
    if (param_constants[p] != nullptr) constant_params.emplace(group->params[p].get(), param_constants[p]->data);
  }
  return GroupGenerator(group, symbol, constant_params).Generate();
}

}  // namespace collage::native
