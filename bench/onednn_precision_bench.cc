// Times oneDNN convolutions and matmuls in f32, int8 (u8 activations, s8 weights, s32
// accumulation, f32 output through per-output-channel scales) and bf16 on this machine, and
// names the implementation oneDNN picks for each ("ref" ones are what the backend refuses).
//
//   onednn_precision_bench [--threads N] [--runs N]
//
// Prints per case and element type: the implementation, the median milliseconds, and the
// speedup over f32; a type oneDNN has no implementation of prints "unimplemented".
#include <omp.h>

#include <dnnl.hpp>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cpu_line.h"
#include "guarded_main.h"
#include "latency_stats.h"
#include "support/error.h"

namespace collage {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using DataType = memory::data_type;

struct Options {
  int threads = 2;
  int runs = 30;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) throw Error(arg + " needs a value");
    if (arg == "--threads") {
      options.threads = std::stoi(argv[++i]);
    } else if (arg == "--runs") {
      options.runs = std::max(std::stoi(argv[++i]), 1);
    } else {
      throw Error("unexpected argument '" + arg + "'; usage: onednn_precision_bench [--threads N] [--runs N]");
    }
  }
  return options;
}

// The element types of one variant: activations in, weights, result.
struct Precision {
  std::string name;
  DataType source;
  DataType weights;
  DataType destination;
  bool per_channel_scales;
};

const std::vector<Precision>& Precisions() {
  static const std::vector<Precision> precisions = {
      {"f32", DataType::f32, DataType::f32, DataType::f32, false},
      {"u8s8->f32", DataType::u8, DataType::s8, DataType::f32, true},
      {"u8s8->u8", DataType::u8, DataType::s8, DataType::u8, true},
      {"bf16", DataType::bf16, DataType::bf16, DataType::bf16, false},
  };
  return precisions;
}

struct Measured {
  std::string implementation;
  std::optional<double> median_ms;
};

// Creates the primitive `describe()` describes and executes it with zero-filled source, weights
// and destination memories of the layouts it asked for; "unimplemented" when oneDNN has no
// implementation.
template <typename Primitive, typename Describe>
Measured TimePrimitive(const dnnl::engine& engine, const Describe& describe, int runs) {
  try {
    const typename Primitive::primitive_desc description = describe();
    dnnl::stream stream(engine);
    std::unordered_map<int, memory> bound;
    for (const auto& [argument, desc] : std::vector<std::pair<int, memory::desc>>{
             {DNNL_ARG_SRC, description.src_desc()},
             {DNNL_ARG_WEIGHTS, description.weights_desc()},
             {DNNL_ARG_DST, description.dst_desc()}}) {
      memory buffer(desc, engine);
      std::fill_n(static_cast<char*>(buffer.get_data_handle()), desc.get_size(), 1);
      bound.emplace(argument, buffer);
    }
    Primitive primitive(description);
    for (int i = 0; i < 3; ++i) primitive.execute(stream, bound);
    stream.wait();
    std::vector<double> samples;
    for (int i = 0; i < runs; ++i) {
      samples.push_back(bench::TimeMilliseconds([&] {
        primitive.execute(stream, bound);
        stream.wait();
      }));
    }
    return {description.impl_info_str(), bench::Summarize(samples).median};
  } catch (const dnnl::error&) {
    return {"unimplemented", std::nullopt};
  }
}

dnnl::primitive_attr ScalesAttribute(const Precision& precision, memory::dim output_channels) {
  dnnl::primitive_attr attributes;
  if (precision.per_channel_scales) {
    attributes.set_output_scales(1 << 1, std::vector<float>(output_channels, 0.01f));
  }
  return attributes;
}

Measured TimeConvolution(const dnnl::engine& engine, const Precision& precision, memory::dim channels_in,
                         memory::dim channels_out, memory::dim size, memory::dim kernel, int runs) {
  const memory::dim pad = kernel / 2;
  const memory::desc source({1, channels_in, size, size}, precision.source, Tag::any);
  const memory::desc weights({channels_out, channels_in, kernel, kernel}, precision.weights, Tag::any);
  const memory::desc destination({1, channels_out, size, size}, precision.destination, Tag::any);
  const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                             source, weights, destination, {1, 1}, {pad, pad}, {pad, pad});
  return TimePrimitive<dnnl::convolution_forward>(engine, [&] {
    return dnnl::convolution_forward::primitive_desc(desc, ScalesAttribute(precision, channels_out), engine);
  }, runs);
}

Measured TimeMatmul(const dnnl::engine& engine, const Precision& precision, memory::dim rows, memory::dim depth,
                    memory::dim columns, int runs) {
  const memory::desc source({rows, depth}, precision.source, Tag::ab);
  const memory::desc weights({depth, columns}, precision.weights, Tag::any);
  const memory::desc destination({rows, columns}, precision.destination, Tag::ab);
  const dnnl::matmul::desc desc(source, weights, destination);
  return TimePrimitive<dnnl::matmul>(engine, [&] {
    return dnnl::matmul::primitive_desc(desc, ScalesAttribute(precision, columns), engine);
  }, runs);
}

void PrintCase(const std::string& name, const std::function<Measured(const Precision&)>& measure) {
  std::optional<double> f32_ms;
  for (const Precision& precision : Precisions()) {
    const Measured measured = measure(precision);
    std::cout << std::left << std::setw(34) << name << std::setw(11) << precision.name << std::setw(30)
              << measured.implementation;
    if (measured.median_ms) {
      if (!f32_ms) f32_ms = measured.median_ms;
      std::cout << "median_ms " << std::fixed << std::setprecision(3) << *measured.median_ms << "  speedup_vs_f32 "
                << std::setprecision(2) << *f32_ms / *measured.median_ms;
    }
    std::cout << "\n";
  }
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  omp_set_num_threads(options.threads);
  bench::PrintCpuLine();
  std::cout << "threads: " << options.threads << "  runs: " << options.runs << "  effective ISA: "
            << static_cast<int>(dnnl::get_effective_cpu_isa()) << "\n";
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  struct ConvolutionCase {
    memory::dim channels_in, channels_out, size, kernel;
  };
  for (const ConvolutionCase& c : {ConvolutionCase{64, 64, 56, 3}, ConvolutionCase{256, 64, 56, 1},
                                   ConvolutionCase{128, 128, 28, 3}, ConvolutionCase{512, 512, 7, 3}}) {
    const std::string name = "conv " + std::to_string(c.channels_in) + "->" + std::to_string(c.channels_out) + " " +
                             std::to_string(c.size) + "x" + std::to_string(c.size) + " k" + std::to_string(c.kernel);
    PrintCase(name, [&](const Precision& p) {
      return TimeConvolution(engine, p, c.channels_in, c.channels_out, c.size, c.kernel, options.runs);
    });
  }
  struct MatmulCase {
    memory::dim rows, depth, columns;
  };
  for (const MatmulCase& m : {MatmulCase{128, 768, 768}, MatmulCase{128, 768, 3072}, MatmulCase{1024, 1024, 1024},
                              MatmulCase{1, 2048, 1000}}) {
    const std::string name = "matmul " + std::to_string(m.rows) + "x" + std::to_string(m.depth) + "x" +
                             std::to_string(m.columns);
    PrintCase(name, [&](const Precision& p) { return TimeMatmul(engine, p, m.rows, m.depth, m.columns, options.runs); });
  }
  return 0;
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) { return collage::bench::GuardedMain("onednn_precision_bench", collage::Main, argc, argv); }
