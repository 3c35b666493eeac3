// The decomposed forms of common operations, as ONNX exporters write them (layer norm as
// mean/subtract/power/sqrt/divide, GELU through erf or tanh, SiLU as x * sigmoid(x), ...):
// patterns in the text syntax with the checks a tree pattern cannot express, and, where one
// registered op computes the form, the call that replaces a match.
//
// A form's pattern is a tree: the uses of one input (the x of x * sigmoid(x)) are matched
// independently. `accepts` ties them (every binding of a tied sub-pattern is one expression),
// checks constants against the values the form needs (0.5 and sqrt(2) in GELU), and checks
// the axes and shapes that make the match the operation (a mean over the last axis only).
// Backends put these patterns in their tables, with `accepts` as the predicate, and rewrite
// the matches inside their partitions with `fuse` when they have a fused kernel for the op.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "pattern/pattern.h"
#include "pattern/pattern_matcher.h"
#include "pattern/pattern_rewriter.h"

namespace collage {

struct DecomposedForm {
  std::string name;  // "layer_norm", "gelu_erf", ...
  Pattern pattern;
  MatchPredicate accepts;
  // The call computing the match's root (same type), or nullptr when the match is not the
  // form; empty when no registered op computes the form (hard-sigmoid, bias+residual+norm).
  RewriteCallback fuse;
};

// Forms whose fused op is nn.masked_softmax or nn.attention rewrite to it only where the
// operands type-check as that op (the scores are the softmax's full shape, a select mask is
// bool with a scalar fill, the heads' batch axes agree).
//
// Every form: layer_norm (with or without the affine scale and shift), rms_norm, gelu_erf,
// gelu_tanh, silu, hard_sigmoid, hard_swish, scaled_masked_softmax (scale and additive or
// select mask, each optional), scaled_dot_product_attention (query-key product with the
// head transposes, scale, mask, softmax, product with the values, heads merged back),
// bias_residual_layer_norm (a product, its bias and a residual add feeding a layer norm,
// decomposed or not) and squeeze_excitation (global pooling, two 1x1 convolutions with an
// activation between, a sigmoid or hard-sigmoid gate multiplying the input).
const std::vector<DecomposedForm>& DecomposedForms();

// The form called `name`; an Error naming it when there is none.
const DecomposedForm& DecomposedFormNamed(std::string_view name);

// `form.accepts`, and the condition named like the form in `conditions` where there is one.
MatchPredicate AcceptsUnder(const DecomposedForm& form, const std::map<std::string, MatchPredicate>& conditions);

// Rewrites, until none is left, every accepted match of the named forms (each must have a
// `fuse`) into its fused call. A type-checked function or expression stays type-checked.
// `conditions` (by form name) narrow what a backend's kernel takes, e.g. a longest sequence.
Expr FuseDecomposedForms(const Expr& expr, const std::vector<std::string>& form_names,
                         const std::map<std::string, MatchPredicate>& conditions = {});

// A partition function with its Composite calls inlined, type-checked, and the named forms
// fused (FuseDecomposedForms): what a backend compiles when it has fused kernels for them.
Function FuseDecomposedFormsInPartition(const Function& partition, const std::vector<std::string>& form_names,
                                        const std::map<std::string, MatchPredicate>& conditions = {});

}  // namespace collage
