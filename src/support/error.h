// Error types thrown by every layer. A message is one line: it names the file or
// node, the op and what was expected, so the CLI can print it as it is.
#pragma once

#include <stdexcept>
#include <string>

namespace collage {

// A position in a text source, 1-based. line == 0 means "unknown".
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  bool IsKnown() const { return line > 0; }
  // "file:line:column" (or "line:column" when there is no file name); empty if unknown.
  std::string ToString() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Malformed text input (IR text, pattern text, npz, ...). Messages may quote the input,
// line breaks and control characters included: the constructor escapes them so that the
// message stays one line.
class ParseError : public Error {
 public:
  ParseError(const SourceLocation& location, const std::string& message);
  const SourceLocation& location() const { return location_; }

 private:
  SourceLocation location_;
};

// An ill-typed expression: bad shapes, dtypes, arity or attributes.
class TypeError : public Error {
 public:
  explicit TypeError(const std::string& message) : Error(message) {}
};

// Throws Error(message) when the condition does not hold. For invariants that user
// input can violate; internal invariants use assert. The message is built before the call:
// on hot paths, pass a literal (no allocation) or test the condition first and build the
// message only when it fails.
inline void Check(bool condition, const std::string& message) {
  if (!condition) throw Error(message);
}
inline void Check(bool condition, const char* message) {
  if (!condition) throw Error(message);
}

}  // namespace collage
