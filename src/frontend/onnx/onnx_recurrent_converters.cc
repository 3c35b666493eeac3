// ONNX RNN, GRU and LSTM, unrolled over the (static) sequence length into dense products,
// elementwise gates and concatenations, so every backend sees ops it already places.
//
// Supported: every direction and layout, biases, initial states, LSTM peepholes, clip, the
// activations Sigmoid, Tanh and Relu, GRU's linear_before_reset, and sequence_lens known at
// import time (forward direction when the lengths differ: finished sequences keep their state
// and output zeros). Refused with a reason: other activations, LSTM's input_forget, and
// sequence lengths that differ with a reverse direction.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"

namespace collage {
namespace {

enum class CellKind { kRnn, kGru, kLstm };

struct CellInfo {
  int64_t gates;                                 // gate blocks in W and R
  std::vector<std::string> default_activations;  // per direction
};

CellInfo InfoOf(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn: return {1, {"Tanh"}};
    case CellKind::kGru: return {3, {"Sigmoid", "Tanh"}};
    case CellKind::kLstm: return {4, {"Sigmoid", "Tanh", "Tanh"}};
  }
  return {1, {"Tanh"}};
}

// Entry `index` of `axis`, with that axis removed.
Expr TakeAxis(FoldingBuilder& builder, const Expr& data, int64_t axis, int64_t index) {
  return builder.Call("squeeze", {SliceAxis(builder, data, axis, index, index + 1)},
                      {{"axes", std::vector<int64_t>{axis}}});
}

Expr Stack(FoldingBuilder& builder, const std::vector<Expr>& items, int64_t axis) {
  std::vector<Expr> expanded;
  for (const Expr& item : items) {
    expanded.push_back(builder.Call("expand_dims", {item}, {{"axes", std::vector<int64_t>{axis}}}));
  }
  return expanded.size() == 1 ? expanded[0] : builder.Call("concatenate", expanded, {{"axis", axis}});
}

// The weights of one direction, split per gate (in ONNX's gate order).
struct DirectionWeights {
  std::vector<Expr> input;       // W gate blocks [hidden, input_size]
  std::vector<Expr> recurrent;   // R gate blocks [hidden, hidden]
  std::vector<Expr> input_bias;  // Wb gate blocks [hidden], empty without B
  std::vector<Expr> recurrent_bias;
  std::vector<Expr> peepholes;   // LSTM P blocks [hidden] (i, o, f), empty without P
};

class RecurrentConverter {
 public:
  RecurrentConverter(OnnxNode& node, CellKind kind)
      : node_(node), builder_(node.builder()), kind_(kind), info_(InfoOf(kind)) {}

  std::vector<Expr> Convert() {
    ReadAttributes();
    const Expr& x = node_.Input(0, "X");
    const Shape& x_shape = node_.InputShape(0);
    if (x_shape.size() != 3) throw Error("input X must have rank 3, got " + ShapeToString(x_shape));
    dtype_ = TensorTypeOf(x).dtype;
    if (!IsFloatingPoint(dtype_)) throw Error("input X must be floating point, got " + std::string(DTypeName(dtype_)));
    const int64_t sequence_axis = layout_ == 0 ? 0 : 1;
    sequence_length_ = x_shape[static_cast<size_t>(sequence_axis)];
    batch_ = x_shape[static_cast<size_t>(1 - sequence_axis)];
    ReadSequenceLengths();

    std::vector<Expr> steps;
    for (int64_t t = 0; t < sequence_length_; ++t) steps.push_back(TakeAxis(builder_, x, sequence_axis, t));

    std::vector<std::vector<Expr>> outputs_per_direction;  // [direction][t]
    std::vector<Expr> final_hidden;
    std::vector<Expr> final_cell;
    for (int64_t direction = 0; direction < num_directions_; ++direction) {
      const bool reverse = direction_ == "reverse" || (direction_ == "bidirectional" && direction == 1);
      DirectionResult result = RunDirection(direction, reverse, steps);
      outputs_per_direction.push_back(std::move(result.outputs));
      final_hidden.push_back(result.hidden);
      final_cell.push_back(result.cell);
    }

    std::vector<Expr> per_step;  // [num_directions, batch, hidden] each
    for (int64_t t = 0; t < sequence_length_; ++t) {
      std::vector<Expr> directions;
      for (const auto& outputs : outputs_per_direction) directions.push_back(outputs[static_cast<size_t>(t)]);
      per_step.push_back(Stack(builder_, directions, 0));
    }
    Expr y = Stack(builder_, per_step, 0);  // [seq, num_directions, batch, hidden]
    Expr y_h = Stack(builder_, final_hidden, 0);
    if (layout_ == 1) {
      y = builder_.Call("transpose", {y}, {{"axes", std::vector<int64_t>{2, 0, 1, 3}}});
      y_h = builder_.Call("transpose", {y_h}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
    }
    std::vector<Expr> results = {y, y_h};
    if (kind_ == CellKind::kLstm) {
      Expr y_c = Stack(builder_, final_cell, 0);
      if (layout_ == 1) y_c = builder_.Call("transpose", {y_c}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
      results.push_back(y_c);
    }
    return results;
  }

 private:
  struct DirectionResult {
    std::vector<Expr> outputs;  // per time index, [batch, hidden]
    Expr hidden;
    Expr cell;
  };

  void ReadAttributes() {
    hidden_size_ = node_.RequiredInt("hidden_size");
    if (hidden_size_ <= 0) throw Error("attribute 'hidden_size' must be positive, got " + std::to_string(hidden_size_));
    direction_ = node_.String("direction", "forward");
    if (direction_ != "forward" && direction_ != "reverse" && direction_ != "bidirectional") {
      throw Error("attribute 'direction' must be forward, reverse or bidirectional, got '" + direction_ + "'");
    }
    num_directions_ = direction_ == "bidirectional" ? 2 : 1;
    layout_ = node_.Int("layout", 0);
    if (layout_ != 0 && layout_ != 1) throw Error("attribute 'layout' must be 0 or 1, got " + std::to_string(layout_));
    if (node_.HasAttr("clip")) clip_ = node_.Float("clip", 0.0);
    if (kind_ == CellKind::kLstm && node_.Int("input_forget", 0) != 0) {
      throw Error("attribute 'input_forget' = 1 (coupled input and forget gates) is not supported");
    }
    if (kind_ == CellKind::kGru) linear_before_reset_ = node_.Int("linear_before_reset", 0) != 0;
    if (!node_.Floats("activation_alpha").empty() || !node_.Floats("activation_beta").empty()) {
      throw Error("attributes 'activation_alpha' and 'activation_beta' are not supported");
    }
    const std::vector<std::string> given = node_.Strings("activations");
    const size_t per_direction = info_.default_activations.size();
    if (given.empty()) {
      for (int64_t d = 0; d < num_directions_; ++d) {
        activations_.insert(activations_.end(), info_.default_activations.begin(), info_.default_activations.end());
      }
    } else if (given.size() == per_direction * static_cast<size_t>(num_directions_)) {
      activations_ = given;
    } else {
      throw Error("attribute 'activations' must name " + std::to_string(per_direction * static_cast<size_t>(num_directions_)) +
                  " functions, got " + std::to_string(given.size()));
    }
    for (const std::string& name : activations_) {
      if (name != "Sigmoid" && name != "Tanh" && name != "Relu") {
        throw Error("activation '" + name + "' is not supported (Sigmoid, Tanh and Relu are)");
      }
    }
  }

  // Constant lengths that all equal the sequence length need no masking; other lengths mask
  // the forward direction.
  void ReadSequenceLengths() {
    if (!node_.HasInput(4)) return;
    const std::vector<int64_t> lengths = SequenceLengthsInput(node_, 4, batch_, sequence_length_);
    if (std::all_of(lengths.begin(), lengths.end(), [&](int64_t length) { return length == sequence_length_; })) return;
    if (direction_ != "forward") {
      throw Error("sequence_lens that differ from the sequence length are supported only in the forward direction");
    }
    sequence_lengths_ = lengths;
  }

  // Input `index` for `direction` along its leading direction axis (or axis 1 in layout 1 for
  // the initial states); nullptr when absent.
  Expr DirectionSlice(size_t index, const std::string& what, int64_t direction, bool state) {
    if (!node_.HasInput(index)) return nullptr;
    const int64_t axis = state && layout_ == 1 ? 1 : 0;
    return TakeAxis(builder_, node_.Input(index, what), axis, direction);
  }

  std::vector<Expr> Blocks(const Expr& data, int64_t count, int64_t offset) {
    std::vector<Expr> blocks;
    for (int64_t g = 0; g < count; ++g) {
      blocks.push_back(SliceAxis(builder_, data, 0, (offset + g) * hidden_size_, (offset + g + 1) * hidden_size_));
    }
    return blocks;
  }

  DirectionWeights WeightsOf(int64_t direction) {
    DirectionWeights weights;
    weights.input = Blocks(DirectionSlice(1, "W", direction, false), info_.gates, 0);
    weights.recurrent = Blocks(DirectionSlice(2, "R", direction, false), info_.gates, 0);
    if (Expr bias = DirectionSlice(3, "B", direction, false)) {
      weights.input_bias = Blocks(bias, info_.gates, 0);
      weights.recurrent_bias = Blocks(bias, info_.gates, info_.gates);
    }
    if (kind_ == CellKind::kLstm) {
      if (Expr peepholes = DirectionSlice(7, "P", direction, false)) weights.peepholes = Blocks(peepholes, 3, 0);
    }
    return weights;
  }

  Expr Zeros() { return builder_.Constant(Tensor::Zeros(dtype_, {batch_, hidden_size_})); }

  Expr Add(const Expr& a, const Expr& b) { return builder_.Call("add", {a, b}); }
  Expr Multiply(const Expr& a, const Expr& b) { return builder_.Call("multiply", {a, b}); }
  Expr Dense(const Expr& data, const Expr& weight) { return builder_.Call("nn.dense", {data, weight}); }

  Expr Activate(const std::string& name, Expr value) {
    if (clip_) {
      value = builder_.Call("clip", {value}, {{"a_min", -*clip_}, {"a_max", *clip_}});
    }
    if (name == "Sigmoid") return builder_.Call("sigmoid", {value});
    if (name == "Tanh") return builder_.Call("tanh", {value});
    return builder_.Call("nn.relu", {value});
  }

  // x W_g^T + Wb_g (+ Rb_g when `with_recurrent_bias`).
  Expr InputProjection(const DirectionWeights& weights, const Expr& step, int64_t gate, bool with_recurrent_bias) {
    Expr value = Dense(step, weights.input[static_cast<size_t>(gate)]);
    if (!weights.input_bias.empty()) {
      value = Add(value, weights.input_bias[static_cast<size_t>(gate)]);
      if (with_recurrent_bias) value = Add(value, weights.recurrent_bias[static_cast<size_t>(gate)]);
    }
    return value;
  }

  Expr RecurrentProjection(const DirectionWeights& weights, const Expr& hidden, int64_t gate) {
    return Dense(hidden, weights.recurrent[static_cast<size_t>(gate)]);
  }

  // The pre-activation of a gate: x W^T + h R^T + Wb + Rb.
  Expr GateInput(const DirectionWeights& weights, const Expr& step, const Expr& hidden, int64_t gate) {
    return Add(InputProjection(weights, step, gate, true), RecurrentProjection(weights, hidden, gate));
  }

  const std::string& ActivationOf(int64_t direction, size_t index) const {
    return activations_[static_cast<size_t>(direction) * info_.default_activations.size() + index];
  }

  Expr RnnStep(int64_t direction, const DirectionWeights& weights, const Expr& step, const Expr& hidden) {
    return Activate(ActivationOf(direction, 0), GateInput(weights, step, hidden, 0));
  }

  // Gates z, r, h (indices 0, 1, 2).
  Expr GruStep(int64_t direction, const DirectionWeights& weights, const Expr& step, const Expr& hidden) {
    const std::string& f = ActivationOf(direction, 0);
    const std::string& g = ActivationOf(direction, 1);
    Expr update = Activate(f, GateInput(weights, step, hidden, 0));
    Expr reset = Activate(f, GateInput(weights, step, hidden, 1));
    Expr candidate_input = InputProjection(weights, step, 2, false);
    Expr recurrent;
    if (linear_before_reset_) {
      Expr projected = RecurrentProjection(weights, hidden, 2);
      if (!weights.recurrent_bias.empty()) projected = Add(projected, weights.recurrent_bias[2]);
      recurrent = Multiply(reset, projected);
    } else {
      recurrent = RecurrentProjection(weights, Multiply(reset, hidden), 2);
      if (!weights.recurrent_bias.empty()) recurrent = Add(recurrent, weights.recurrent_bias[2]);
    }
    Expr candidate = Activate(g, Add(candidate_input, recurrent));
    // (1 - z) * h~ + z * H = h~ + z * (H - h~)
    return Add(candidate, Multiply(update, builder_.Call("subtract", {hidden, candidate})));
  }

  // Gates i, o, f, c (indices 0, 1, 2, 3); peepholes i, o, f. Returns {H, C}.
  std::pair<Expr, Expr> LstmStep(int64_t direction, const DirectionWeights& weights, const Expr& step,
                                 const Expr& hidden, const Expr& cell) {
    const std::string& f = ActivationOf(direction, 0);
    const std::string& g = ActivationOf(direction, 1);
    const std::string& h = ActivationOf(direction, 2);
    auto peephole = [&](Expr value, size_t index, const Expr& state) {
      return weights.peepholes.empty() ? value : Add(value, Multiply(weights.peepholes[index], state));
    };
    Expr input_gate = Activate(f, peephole(GateInput(weights, step, hidden, 0), 0, cell));
    Expr forget_gate = Activate(f, peephole(GateInput(weights, step, hidden, 2), 2, cell));
    Expr candidate = Activate(g, GateInput(weights, step, hidden, 3));
    Expr next_cell = Add(Multiply(forget_gate, cell), Multiply(input_gate, candidate));
    Expr output_gate = Activate(f, peephole(GateInput(weights, step, hidden, 1), 1, next_cell));
    return {Multiply(output_gate, Activate(h, next_cell)), next_cell};
  }

  // [batch, 1] bool: which sequences are still running at time t.
  Expr RunningMask(int64_t t) {
    Tensor mask = Tensor::Zeros(DType::kBool, {batch_, 1});
    for (int64_t b = 0; b < batch_; ++b) mask.data<bool>()[b] = t < sequence_lengths_[static_cast<size_t>(b)];
    return builder_.Constant(std::move(mask));
  }

  DirectionResult RunDirection(int64_t direction, bool reverse, const std::vector<Expr>& steps) {
    const DirectionWeights weights = WeightsOf(direction);
    Expr hidden = DirectionSlice(5, "initial_h", direction, true);
    if (hidden == nullptr) hidden = Zeros();
    Expr cell = kind_ == CellKind::kLstm ? DirectionSlice(6, "initial_c", direction, true) : nullptr;
    if (kind_ == CellKind::kLstm && cell == nullptr) cell = Zeros();
    DirectionResult result;
    result.outputs.resize(static_cast<size_t>(sequence_length_));
    for (int64_t i = 0; i < sequence_length_; ++i) {
      const int64_t t = reverse ? sequence_length_ - 1 - i : i;
      const Expr& step = steps[static_cast<size_t>(t)];
      Expr next_hidden;
      Expr next_cell;
      switch (kind_) {
        case CellKind::kRnn: next_hidden = RnnStep(direction, weights, step, hidden); break;
        case CellKind::kGru: next_hidden = GruStep(direction, weights, step, hidden); break;
        case CellKind::kLstm: std::tie(next_hidden, next_cell) = LstmStep(direction, weights, step, hidden, cell); break;
      }
      if (sequence_lengths_.empty()) {
        result.outputs[static_cast<size_t>(t)] = next_hidden;
      } else {
        Expr running = RunningMask(t);
        result.outputs[static_cast<size_t>(t)] = builder_.Call("where", {running, next_hidden, Zeros()});
        next_hidden = builder_.Call("where", {running, next_hidden, hidden});
        if (next_cell) next_cell = builder_.Call("where", {running, next_cell, cell});
      }
      hidden = next_hidden;
      cell = next_cell;
    }
    result.hidden = hidden;
    result.cell = cell;
    return result;
  }

  OnnxNode& node_;
  FoldingBuilder& builder_;
  CellKind kind_;
  CellInfo info_;
  int64_t hidden_size_ = 0;
  std::string direction_;
  int64_t num_directions_ = 1;
  int64_t layout_ = 0;
  std::optional<double> clip_;
  bool linear_before_reset_ = false;
  std::vector<std::string> activations_;
  DType dtype_ = DType::kF32;
  int64_t sequence_length_ = 0;
  int64_t batch_ = 0;
  std::vector<int64_t> sequence_lengths_;  // empty: every sequence runs to the end
};

OnnxConverter Recurrent(CellKind kind) {
  return [kind](OnnxNode& node) { return RecurrentConverter(node, kind).Convert(); };
}

}  // namespace

void RegisterRecurrentConverters(OnnxConverterTable& table) {
  table.Add("RNN", Recurrent(CellKind::kRnn));
  table.Add("GRU", Recurrent(CellKind::kGru));
  table.Add("LSTM", Recurrent(CellKind::kLstm));
}

}  // namespace collage
