// collage-test-measure-worker: a measurement worker whose registry holds the reference
// backend and the faulty test backends (faulty_backends.h), for the tuning tests.
#include "backend/reference/reference_backend.h"
#include "testing/faulty_backends.h"
#include "tuning/measurement_worker.h"

int main(int argc, char** argv) {
  collage::BackendRegistry registry;
  registry.Register(std::make_shared<collage::ReferenceBackend>());
  collage::testing::RegisterFaultyBackends(registry, collage::testing::kFaultyBackendOps);
  return collage::MeasurementWorkerMain(registry, argc, argv);
}
