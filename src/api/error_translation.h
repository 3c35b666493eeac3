// The public API sorts the library's errors into its three classes: an Error thrown while doing
// one step (loading, placing, compiling, running) becomes the class of that step, with the same
// message; an error that is already a UsageError, ModelError or BackendError keeps its class.
#pragma once

#include "collage/error.h"

namespace collage::api {

template <typename StepError, typename Step>
auto Translating(Step&& step) {
  try {
    return step();
  } catch (const UsageError&) {
    throw;
  } catch (const ModelError&) {
    throw;
  } catch (const BackendError&) {
    throw;
  } catch (const Error& error) {
    throw StepError(error.what());
  }
}

}  // namespace collage::api
