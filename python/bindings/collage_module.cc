// The extension module collage._collage: the public C++ API (include/collage/) for Python. The
// package collage (python/collage/__init__.py) wraps it in the Python-facing functions.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "api/compiled_model_state.h"
#include "collage/collage.h"
#include "numpy_tensors.h"

namespace py = pybind11;

namespace collage::python {
namespace {

// The value `parsed` from `text`, or the tool's usage error for `option`.
template <typename Value>
Value Parsed(std::optional<Value> parsed, const std::string& option, const std::string& expected,
             const std::string& text) {
  if (!parsed) throw UsageError(option + " expects " + expected + ", got '" + text + "'");
  return *parsed;
}

api::CostModel ParseCost(const std::string& text) {
  return Parsed(api::ParseCostModel(text), "--cost", "analytic or measured", text);
}

api::SearchLevel ParseSearch(const std::string& text) {
  return Parsed(api::ParseSearchLevel(text), "--search", "op or graph", text);
}

api::Precision ParsePrecision(const std::string& text) {
  return Parsed(api::ParsePrecision(text), "--precision", "fp32 or auto", text);
}

api::AccuracyMetric ParseMetric(const std::string& text) {
  return Parsed(api::ParseAccuracyMetric(text), "--metric", "rel-l2, max-rel or top1", text);
}

std::string CostName(api::CostModel cost) { return std::string(api::CostModelName(cost)); }

py::dict Outputs(const std::vector<api::NamedTensor>& outputs) {
  py::dict arrays;
  for (const api::NamedTensor& output : outputs) arrays[py::str(output.name)] = ArrayFromTensor(output.tensor);
  return arrays;
}

// Runs on named arrays (a dict) or positional ones (a list), holding the arrays it borrows.
py::dict Run(api::CompiledModel& compiled, const py::object& inputs) {
  const std::vector<api::TensorInfo> expected = compiled.inputs();
  std::vector<py::object> kept;
  if (py::isinstance<py::dict>(inputs)) {
    std::vector<api::NamedTensor> named;
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(inputs)) {
      const std::string name = py::str(key);
      api::ElementType type = api::ElementType::kFloat32;
      for (const api::TensorInfo& info : expected) {
        if (info.name == name) type = info.element_type;
      }
      kept.emplace_back();
      named.push_back({name, TensorFromArray(value, name, type, kept.back())});
    }
    std::vector<api::NamedTensor> outputs;
    {
      py::gil_scoped_release released;
      outputs = compiled.Run(named);
    }
    return Outputs(outputs);
  }
  const py::list list = py::list(inputs);
  if (list.size() != expected.size()) {
    throw UsageError("@main expects " + std::to_string(expected.size()) + " inputs, got " + std::to_string(list.size()));
  }
  std::vector<api::Tensor> positional;
  for (size_t i = 0; i < list.size(); ++i) {
    kept.emplace_back();
    positional.push_back(TensorFromArray(list[i], expected[i].name, expected[i].element_type, kept.back()));
  }
  std::vector<api::NamedTensor> outputs;
  {
    py::gil_scoped_release released;
    outputs = compiled.Run(positional);
  }
  return Outputs(outputs);
}

api::CompiledModel Compile(const api::Model& model, const std::vector<std::string>& backends, const std::string& cost,
                           const std::string& search, int threads, const std::optional<std::string>& database,
                           double graph_budget, uint64_t seed, const py::object& on_progress,
                           const std::string& precision, double tolerance, const std::string& metric,
                           const std::vector<std::string>& calibration) {
  api::CompileOptions options;
  options.precision = ParsePrecision(precision);
  options.tolerance = tolerance;
  options.metric = ParseMetric(metric);
  options.calibration_files = calibration;
  options.backends = backends;
  options.cost = ParseCost(cost);
  options.search = ParseSearch(search);
  options.threads = threads;
  options.database_path = database.value_or("");
  options.graph_budget_seconds = graph_budget;
  options.seed = seed;
  options.progress_bar = false;
  if (!on_progress.is_none()) {
    // The options are copied while the GIL is released: the copies share one reference to the
    // callable, released under the GIL.
    std::shared_ptr<py::object> callable(new py::object(on_progress), [](py::object* held) {
      py::gil_scoped_acquire acquired;
      delete held;
    });
    options.on_progress = [callable](const api::TuningProgress& progress) {
      py::gil_scoped_acquire acquired;
      (*callable)(progress.stage, progress.done, progress.total, progress.current);
    };
  }
  py::gil_scoped_release released;
  return api::Compile(model, options);
}

}  // namespace
}  // namespace collage::python

PYBIND11_MODULE(_collage, module) {
  using namespace collage;
  using namespace collage::python;
  module.doc() = "Collage's C++ API; use the package collage.";

  // Translators run most recent first: the subclasses are registered after their base.
  const py::exception<Error>& error = py::register_exception<Error>(module, "Error");
  py::register_exception<UsageError>(module, "UsageError", error.ptr());
  py::register_exception<ModelError>(module, "ModelError", error.ptr());
  py::register_exception<BackendError>(module, "BackendError", error.ptr());

  py::class_<api::TensorInfo>(module, "TensorInfo")
      .def_readonly("name", &api::TensorInfo::name)
      .def_property_readonly("dtype",
                             [](const api::TensorInfo& info) { return std::string(api::ElementTypeName(info.element_type)); })
      .def_property_readonly("shape", [](const api::TensorInfo& info) { return py::tuple(py::cast(info.shape)); });

  py::class_<api::Model>(module, "Model")
      .def_static("load", py::overload_cast<const std::string&, const api::InputShapes&>(&api::Model::Load),
                  py::arg("path"), py::arg("shapes") = api::InputShapes{})
      .def_static(
          "from_onnx_bytes",
          [](const py::bytes& bytes, const std::string& name, const api::InputShapes& shapes) {
            const std::string data = bytes;
            return api::Model::FromOnnxBytes(data, name, shapes);
          },
          py::arg("data"), py::arg("name") = "model.onnx", py::arg("shapes") = api::InputShapes{})
      .def_static("from_text", &api::Model::FromText, py::arg("text"), py::arg("name") = "model.cir")
      .def_property_readonly("name", &api::Model::name)
      .def_property_readonly("inputs", &api::Model::inputs)
      .def("to_text", &api::Model::ToText);

  py::class_<api::PartitionInfo>(module, "Partition")
      .def_readonly("symbol", &api::PartitionInfo::symbol)
      .def_readonly("backend", &api::PartitionInfo::backend)
      .def_readonly("ops", &api::PartitionInfo::ops)
      .def_readonly("layout", &api::PartitionInfo::layout)
      .def_readonly("estimated_ms", &api::PartitionInfo::estimated_ms)
      .def_readonly("measured_ms", &api::PartitionInfo::measured_ms)
      .def("__repr__", [](const api::PartitionInfo& partition) {
        return "<Partition " + partition.symbol + " on " + partition.backend + ": " +
               std::to_string(partition.ops.size()) + " ops>";
      });

  py::class_<api::Placement>(module, "Placement")
      .def_readonly("backends", &api::Placement::backends)
      .def_property_readonly("cost", [](const api::Placement& placement) { return CostName(placement.cost); })
      .def_readonly("partitions", &api::Placement::partitions)
      .def_readonly("estimated_total_ms", &api::Placement::estimated_total_ms)
      .def("__str__", &api::Placement::ToString)
      .def("__len__", [](const api::Placement& placement) { return placement.partitions.size(); })
      .def(
          "__iter__",
          [](const api::Placement& placement) {
            return py::make_iterator(placement.partitions.begin(), placement.partitions.end());
          },
          py::keep_alive<0, 1>());

  py::class_<api::CompiledModel>(module, "CompiledModel")
      .def_property_readonly("inputs", &api::CompiledModel::inputs)
      .def_property_readonly("threads", &api::CompiledModel::threads)
      .def("run", &Run, py::arg("inputs"))
      .def("placement", &api::CompiledModel::placement)
      .def_property_readonly("tuning",
                             [](const api::CompiledModel& compiled) -> std::optional<std::string> {
                               const std::optional<api::SearchSummary> search = compiled.search();
                               return search ? search->tuning : std::nullopt;
                             })
      .def("save_plan", &api::CompiledModel::SavePlan, py::arg("path"))
      .def("write_report", &api::CompiledModel::WriteReport, py::arg("path"), py::call_guard<py::gil_scoped_release>())
      .def("_last_input_addresses", [](const api::CompiledModel& compiled) {
        std::vector<uintptr_t> addresses;
        for (const void* address : compiled.state().last_input_addresses) {
          addresses.push_back(reinterpret_cast<uintptr_t>(address));
        }
        return addresses;
      });

  module.def("compile", &Compile, py::arg("model"), py::arg("backends"), py::arg("cost"), py::arg("search"),
             py::arg("threads"), py::arg("db"), py::arg("graph_budget"), py::arg("seed"), py::arg("on_progress"),
             py::arg("precision"), py::arg("tolerance"), py::arg("metric"), py::arg("calibration"));
  module.def(
      "load_plan",
      [](const api::Model& model, const std::string& plan, int threads) {
        py::gil_scoped_release released;
        return api::LoadPlan(model, plan, threads);
      },
      py::arg("model"), py::arg("plan"), py::arg("threads"));
  module.def("backends", &api::AvailableBackends);
  module.def("_copied_arrays", &copies);
}
