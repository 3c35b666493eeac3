// The table from ONNX op types (default domain) to converters that emit IR for one node.
//
// A converter returns one expression per node output, in order; it may return fewer when the
// trailing outputs are optional, and a null expression for an output it does not produce
// (using such an output later is an import error). The groups of converters live in
// one file each and register themselves through the Register*Converters functions below.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_node.h"
#include "ir/expr.h"

namespace collage {

using OnnxConverter = std::function<std::vector<Expr>(OnnxNode& node)>;

class OnnxConverterTable {
 public:
  // The table with every group registered.
  static const OnnxConverterTable& Global();

  void Add(const std::string& op_type, OnnxConverter converter);
  // nullptr when the op type is not supported.
  const OnnxConverter* Find(const std::string& op_type) const;
  std::vector<std::string> OpTypes() const;

 private:
  std::map<std::string, OnnxConverter> converters_;
};

void RegisterElementwiseConverters(OnnxConverterTable& table);  // onnx_elementwise_converters.cc
void RegisterReductionConverters(OnnxConverterTable& table);    // onnx_reduction_converters.cc
void RegisterShapeConverters(OnnxConverterTable& table);        // onnx_shape_converters.cc: shape math, reshapes
void RegisterNNConverters(OnnxConverterTable& table);           // onnx_nn_converters.cc: conv, gemm, norms, pools
void RegisterActivationConverters(OnnxConverterTable& table);   // onnx_activation_converters.cc: activations, Mod
void RegisterIndexingConverters(OnnxConverterTable& table);     // onnx_indexing_converters.cc: gather/scatter, sort, blocks
void RegisterLossConverters(OnnxConverterTable& table);         // onnx_loss_converters.cc: NLL and softmax cross-entropy
void RegisterQuantizationConverters(OnnxConverterTable& table); // onnx_quantization_converters.cc: (de)quantize linear
void RegisterRecurrentConverters(OnnxConverterTable& table);    // onnx_recurrent_converters.cc: RNN, GRU, LSTM unrolled
void RegisterSignalConverters(OnnxConverterTable& table);       // onnx_signal_converters.cc: window functions
void RegisterDataDependentConverters(OnnxConverterTable& table); // onnx_data_dependent_converters.cc: Compress, NonZero, Unique

}  // namespace collage
