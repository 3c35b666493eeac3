// collage-measure-worker: the process in which measured tuning compiles and times
// candidates (src/tuning/measurement_worker.h). Started by the tuner, not by hand.
#include "backend/backend.h"
#include "tuning/measurement_worker.h"

int main(int argc, char** argv) {
  return collage::MeasurementWorkerMain(collage::BackendRegistry::Global(), argc, argv);
}
