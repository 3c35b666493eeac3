// The errors Collage throws. Every message is one line: it names the file or node, the op and
// what was expected, so a program (the `collage` tool, the Python package) can show it as it is.
// Every layer of the library throws collage::Error (support/error.h) or a subclass; the public
// API sorts what it throws into the three classes below, so a caller can tell its own mistakes
// from the model's and the backends'.
#pragma once

#include <string>

#include "support/error.h"  // collage::Error, the base class

namespace collage {

// The caller asked for something invalid: an unknown backend, contradictory options, an input
// of the wrong name, type or shape, a thread count out of range.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message) {}
};

// The model cannot be read, type-checked or placed: a missing or malformed file, an op the
// importer does not know, a plan made for another model.
class ModelError : public Error {
 public:
  explicit ModelError(const std::string& message) : Error(message) {}
};

// A backend failed to compile or run a partition it was given.
class BackendError : public Error {
 public:
  explicit BackendError(const std::string& message) : Error(message) {}
};

}  // namespace collage
