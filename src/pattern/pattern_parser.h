// The pattern text syntax: pattern tables that backends and users write without recompiling.
//
//   # oneDNN patterns                                   comments start with '#' or '//'
//   $act := nn.relu(*) | sigmoid(*)                      a named sub-pattern, used as $act
//   onednn.conv2d_bias_relu := nn.relu(add(nn.conv2d{groups=1}(*, const), const))
//   onednn.dense_bias := add(nn.dense(*, const), const)?   a dense, or a dense and its bias
//   onednn.act_f32 := $act:f32
//
// One labelled pattern per line (a pattern may go on over several lines inside brackets);
// blank lines are ignored. The grammar:
//
//   entry      := LABEL ':=' pattern  |  '$' NAME ':=' pattern
//   pattern    := postfix { '|' postfix }                     alternatives, left to right
//   postfix    := primary { '(' [pattern {',' pattern}] ')'   call of the pattern before it
//                         | '{' NAME '=' value {',' NAME '=' value} '}'   attribute constraint
//                         | ':' constraint                    type / shape / dtype constraint
//                         | '.' INTEGER | '.' '*'             tuple projection (index / any)
//                         | '?' }                             optional: the call or its first argument
//   primary    := '*'                                         wildcard
//               | 'const' | 'var' | '%' NAME | '%' STRING     constant, any variable, a named variable
//               | OP_NAME                                     a registered op, e.g. nn.conv2d
//               | '$' NAME                                    a sub-pattern defined on an earlier line
//               | 'dominates' '(' pattern ',' pattern ',' pattern ')'   (parent, path, child)
//               | '(' ')' | '(' pattern ',' ')' | '(' pattern ',' pattern {',' pattern} ')'   tuples
//               | '(' pattern ')'                             grouping
//   constraint := DTYPE                                       f32, i64, ...
//               | '(' [INTEGER {',' INTEGER}] ')'             a tensor shape: (1, 3, 224, 224)
//               | 'Tensor' '[' shape ',' DTYPE ']' | '(' type {',' type} [','] ')'   a type
//   value      := INTEGER | FLOAT | '-' number | inf | nan | STRING | '[' [number {',' number}] ']'
//
// Attributes on an op name constrain the call: `nn.conv2d{groups=1}(*, const)` is the conv2d
// call pattern with the constraint groups=1 (and prints so). On any other callee they
// constrain the callee: `*{Composite="onednn.conv2d"}(*)` calls a function with that attribute.
// A sub-pattern is a macro: each use matches on its own (pattern.h). Unknown op names, unknown
// sub-patterns, duplicate labels and malformed text are ParseErrors whose message starts with
// "<file>:<line>:<column>: " and says what was expected.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "pattern/pattern.h"

namespace collage {

// Parses a pattern table; the labelled patterns in file order (sub-pattern definitions are
// not entries). `file_name` is used in messages only.
std::vector<LabelledPattern> ParsePatternTable(std::string_view text, const std::string& file_name = "");
// A table's labelled patterns and its sub-pattern definitions by name (without '$'). Every use
// of a sub-pattern is the same pattern node, so a match's bindings of it (PatternMatch::GetAll)
// say what each use matched.
struct PatternDefinitions {
  std::vector<LabelledPattern> entries;
  std::map<std::string, Pattern> sub_patterns;
};
PatternDefinitions ParsePatternDefinitions(std::string_view text, const std::string& file_name = "");
// Reads the file and parses it; an unreadable file is an Error naming it.
std::vector<LabelledPattern> ParsePatternTableFile(const std::string& path);
// Parses one pattern (no label), e.g. "nn.relu(add(*, const))".
Pattern ParsePattern(std::string_view text, const std::string& file_name = "");

}  // namespace collage
