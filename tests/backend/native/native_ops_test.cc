// Every registry op, and fused groups of them, compiled by the native backend and compared
// with the reference interpreter on random inputs. All cases compile in one CompileAll call
// (a few batched compiler invocations) before the cases run.
#include <algorithm>
#include <cctype>
#include <map>

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/op_registry.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

struct OpCase {
  std::string name;
  std::string signature;  // the parameters of @main
  std::string body;       // the statements and the result
};

const std::vector<OpCase>& Cases() {
  static const std::vector<OpCase> cases = {
      // Element-wise and broadcasting.
      {"relu", "%x: Tensor[(3, 5, 7), f32]", "nn.relu(%x)"},
      {"leaky_relu", "%x: Tensor[(33), f32]", "nn.leaky_relu(%x, alpha=0.2)"},
      {"sigmoid_tanh_erf", "%x: Tensor[(4, 9), f32]", "(sigmoid(%x), tanh(%x), erf(%x))"},
      {"gelu", "%x: Tensor[(2, 17), f32]", "(nn.gelu(%x), nn.gelu(%x, approximate=\"tanh\"))"},
      {"silu_hard_swish", "%x: Tensor[(3, 11), f32]",
       "%0 = multiply(%x, constant([5], Tensor[(), f32]))\n  (nn.silu(%0), nn.hard_swish(%0))"},
      {"exp_log_sqrt_rsqrt", "%x: Tensor[(5, 3), f32]",
       "%0 = add(abs(%x), constant([1], Tensor[(), f32]))\n  (exp(%x), log(%0), sqrt(%0), rsqrt(%0))"},
      {"abs_negative_rounding", "%x: Tensor[(19), f32]", "(abs(%x), negative(%x), floor(%x), ceil(%x), round(%x))"},
      {"clip", "%x: Tensor[(2, 3, 4), f32]", "clip(%x, a_min=-0.5, a_max=0.25)"},
      {"int_ops", "%x: Tensor[(4, 5), i32], %y: Tensor[(5), i32]",
       "(add(%x, %y), subtract(%x, %y), multiply(%x, %y), maximum(%x, %y), minimum(%x, %y), negative(%x), "
       "clip(%x, a_min=2.5, a_max=7), abs(%x), power(%x, %y))"},
      {"i64_relu_and_compare", "%x: Tensor[(6), i64], %y: Tensor[(6), i64]",
       "(nn.relu(subtract(%x, %y)), equal(%x, %y), not_equal(%x, %y), less(%x, %y), less_equal(%x, %y), "
       "greater(%x, %y), greater_equal(%x, %y))"},
      {"logical", "%a: Tensor[(3, 4), bool], %b: Tensor[(4), bool]",
       "(logical_and(%a, %b), logical_or(%a, %b), logical_not(%a))"},
      {"broadcast_binary", "%x: Tensor[(2, 1, 5), f32], %y: Tensor[(3, 1), f32]",
       "(add(%x, %y), subtract(%x, %y), multiply(%x, %y), divide(%x, %y), maximum(%x, %y), minimum(%x, %y))"},
      {"power", "%x: Tensor[(7), f32], %y: Tensor[(7), f32]", "power(add(abs(%x), constant([0.5], Tensor[(), f32])), %y)"},
      {"power_square_and_cube", "%x: Tensor[(4, 5), f32]",
       "%0 = multiply(%x, constant([7], Tensor[(), f32]))\n  (power(%0, constant([2], Tensor[(), f32])), "
       "power(%0, constant([3], Tensor[(), f32])))"},
      {"erf_beyond_the_clamp", "%x: Tensor[(64), f32]", "erf(multiply(%x, constant([6], Tensor[(), f32])))"},
      {"where", "%c: Tensor[(2, 1, 4), bool], %x: Tensor[(3, 4), f32], %y: Tensor[(1), f32]", "where(%c, %x, %y)"},
      {"cast", "%x: Tensor[(10), f32]",
       "%0 = multiply(%x, constant([300], Tensor[(), f32]))\n  (cast(%0, dtype=\"i32\"), cast(%0, dtype=\"i8\"), cast(%0, dtype=\"u8\"), "
       "cast(%x, dtype=\"bool\"), cast(cast(%0, dtype=\"i64\"), dtype=\"f32\"))"},
      {"copy_dropout", "%x: Tensor[(3, 3), f32]", "(copy(%x), nn.dropout(%x))"},
      {"bias_add", "%x: Tensor[(2, 3, 4, 5), f32], %b: Tensor[(3), f32]", "nn.bias_add(%x, %b)"},
      {"batch_norm", "%x: Tensor[(2, 3, 4, 5), f32], %g: Tensor[(3), f32], %b: Tensor[(3), f32], "
                     "%m: Tensor[(3), f32], %v: Tensor[(3), f32]",
       "nn.batch_norm(%x, %g, %b, %m, add(abs(%v), constant([0.1], Tensor[(), f32])))"},
      // Injective.
      {"reshape_flatten_squeeze_expand", "%x: Tensor[(2, 1, 6), f32]",
       "(reshape(%x, newshape=[3, 4]), flatten(%x), squeeze(%x, axes=[1]), expand_dims(%x, axes=[0]))"},
      {"transpose", "%x: Tensor[(2, 3, 5, 7), f32]", "(transpose(%x, axes=[0, 2, 3, 1]), transpose(%x))"},
      {"broadcast_to", "%x: Tensor[(3, 1), f32]", "broadcast_to(%x, shape=[2, 3, 5])"},
      {"strided_slice", "%x: Tensor[(5, 9, 4), f32]",
       "(strided_slice(%x, begin=[1, -2], end=[4, 0], strides=[2, -3], axes=[0, 1]), "
       "strided_slice(%x, begin=[0, 0, 1], end=[5, 9, 3]))"},
      {"concatenate", "%x: Tensor[(2, 3, 4), f32], %y: Tensor[(2, 5, 4), f32]", "concatenate(%x, %y, %x, axis=1)"},
      {"split", "%x: Tensor[(3, 10), f32]", "split(%x, sizes=[3, 0, 7], axis=1)"},
      {"take", "%x: Tensor[(4, 12, 3), f32], %i: Tensor[(2, 5), i64]", "take(%x, %i, axis=1)"},
      {"pad_modes", "%x: Tensor[(1, 2, 4, 5), f32]",
       "(nn.pad(%x, pad_width=[0, 0, 1, 2, 0, 0, 2, 1], pad_value=0.5), "
       "nn.pad(%x, pad_width=[0, 0, 3, 1, 0, 0, 1, 4], mode=\"edge\"), "
       "nn.pad(%x, pad_width=[0, 0, 2, 1, 0, 0, 3, 3], mode=\"reflect\"))"},
      {"image_resize", "%x: Tensor[(1, 2, 4, 5), f32]",
       "(image.resize2d(%x, size=[7, 9]), image.resize2d(%x, size=[3, 8], method=\"linear\"))"},
      // Anchors.
      {"dense", "%x: Tensor[(7, 45), f32], %w: Tensor[(37, 45), f32]", "nn.dense(%x, %w)"},
      {"dense_single_row", "%x: Tensor[(1, 300), f32], %w: Tensor[(70, 300), f32]", "nn.dense(%x, %w)"},
      {"dense_3d_bias_gelu", "%x: Tensor[(2, 9, 20), f32], %w: Tensor[(33, 20), f32], %b: Tensor[(33), f32]",
       "nn.gelu(add(nn.dense(%x, %w), %b))"},
      {"matmul", "%a: Tensor[(2, 1, 13, 7), f32], %b: Tensor[(3, 7, 40), f32], %v: Tensor[(7), f32]",
       "(nn.matmul(%a, %b), nn.matmul(%a, %v))"},
      {"batch_matmul", "%a: Tensor[(3, 10, 300), f32], %b: Tensor[(1, 300, 12), f32], %c: Tensor[(3, 14, 300), f32]",
       "(nn.batch_matmul(%a, %b), nn.batch_matmul(%a, %c, transpose_b=1))"},
      // 5 batches of 4 column panels: the parallel chunks of (batch, panel) pairs cross batches.
      {"batch_matmul_many_panels", "%a: Tensor[(5, 9, 20), f32], %b: Tensor[(5, 20, 100), f32], %c: Tensor[(5, 100, 20), f32]",
       "(nn.batch_matmul(%a, %b), nn.batch_matmul(%a, %c, transpose_b=1))"},
      // The GEMM's blocking edges: row counts, column counts and depths that are not multiples
      // of the micro-kernel's tile (6 x 16) or of its depth block (256), single rows, columns
      // and depths, on every way products reach the GEMM.
      {"dense_ragged_tile_and_depth_block", "%x: Tensor[(13, 257), f32], %w: Tensor[(17, 257), f32], %b: Tensor[(17), f32]",
       "add(nn.dense(%x, %w), %b)"},
      {"dense_whole_tiles", "%x: Tensor[(12, 512), f32], %w: Tensor[(32, 512), f32]", "nn.dense(%x, %w)"},
      {"dense_depth_one", "%x: Tensor[(7, 1), f32], %w: Tensor[(16, 1), f32]", "nn.dense(%x, %w)"},
      {"dense_one_column", "%x: Tensor[(11, 45), f32], %w: Tensor[(1, 45), f32]", "nn.dense(%x, %w)"},
      {"dense_few_rows_deep", "%x: Tensor[(5, 600), f32], %w: Tensor[(40, 600), f32]", "nn.dense(%x, %w)"},
      // Epilogues of matrix products get row and column: per-row, per-column and full operands.
      {"dense_epilogue_row_column_operands",
       "%x: Tensor[(13, 40), f32], %w: Tensor[(17, 40), f32], %r: Tensor[(13, 1), f32], %c: Tensor[(17), f32], "
       "%y: Tensor[(13, 17), f32]",
       "add(multiply(nn.dense(%x, %w), %r), add(%c, %y))"},
      {"batch_matmul_epilogue_per_batch_and_column",
       "%a: Tensor[(3, 7, 9), f32], %b: Tensor[(3, 9, 20), f32], %s: Tensor[(3, 1, 1), f32], %c: Tensor[(20), f32]",
       "add(multiply(nn.batch_matmul(%a, %b), %s), %c)"},
      {"matmul_ragged", "%x: Tensor[(19, 513), f32], %w: Tensor[(513, 31), f32]", "nn.matmul(%x, %w)"},
      {"matmul_one_row", "%x: Tensor[(1, 70), f32], %w: Tensor[(70, 9), f32]", "nn.matmul(%x, %w)"},
      {"matmul_one_column_depth_one", "%x: Tensor[(2, 8, 1), f32], %w: Tensor[(1, 1), f32]", "nn.matmul(%x, %w)"},
      {"batch_matmul_depth_one", "%a: Tensor[(3, 9, 1), f32], %b: Tensor[(3, 1, 13), f32], %c: Tensor[(3, 13, 1), f32]",
       "(nn.batch_matmul(%a, %b), nn.batch_matmul(%a, %c, transpose_b=1))"},
      {"batch_matmul_heads", "%q: Tensor[(4, 25, 64), f32], %k: Tensor[(4, 33, 64), f32], %v: Tensor[(4, 33, 20), f32]",
       "%0 = nn.batch_matmul(%q, %k, transpose_b=1)\n  (%0, nn.batch_matmul(%0, %v))"},
      {"conv2d_ragged_channels", "%x: Tensor[(1, 7, 9, 11), f32], %w: Tensor[(13, 7, 3, 3), f32]",
       "nn.conv2d(%x, %w, padding=[1, 1, 1, 1])"},
      // Windows wider than the padding on both sides and runs shorter than a panel (im2col runs).
      {"conv2d_dilated_wide_padding", "%x: Tensor[(1, 6, 7, 9), f32], %w: Tensor[(8, 6, 3, 3), f32]",
       "nn.conv2d(%x, %w, padding=[2, 4, 2, 5], dilation=[1, 3])"},
      {"conv2d_pointwise_deep", "%x: Tensor[(2, 300, 5, 5), f32], %w: Tensor[(7, 300, 1, 1), f32]", "nn.conv2d(%x, %w)"},
      {"conv2d_bias_relu", "%x: Tensor[(2, 5, 11, 9), f32], %w: Tensor[(13, 5, 3, 3), f32], %b: Tensor[(13), f32]",
       "nn.relu(nn.bias_add(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]), %b))"},
      {"conv2d_strided_dilated", "%x: Tensor[(1, 8, 15, 14), f32], %w: Tensor[(16, 8, 3, 5), f32]",
       "nn.conv2d(%x, %w, strides=[2, 3], padding=[2, 1, 0, 3], dilation=[2, 1])"},
      {"conv2d_pointwise_residual", "%x: Tensor[(1, 40, 6, 7), f32], %w: Tensor[(40, 40, 1, 1), f32]",
       "add(nn.conv2d(%x, %w), %x)"},
      {"conv2d_grouped", "%x: Tensor[(1, 12, 9, 9), f32], %w: Tensor[(18, 4, 3, 3), f32]",
       "clip(nn.conv2d(%x, %w, padding=[1, 0, 1, 2], groups=3), a_min=-1, a_max=1)"},
      {"conv2d_depthwise_strided", "%x: Tensor[(2, 6, 10, 11), f32], %w: Tensor[(6, 1, 3, 3), f32]",
       "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], groups=6)"},
      {"conv2d_transpose", "%x: Tensor[(1, 4, 5, 6), f32], %w: Tensor[(4, 3, 4, 4), f32]",
       "tanh(nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1]))"},
      {"conv2d_transpose_grouped", "%x: Tensor[(2, 4, 3, 4), f32], %w: Tensor[(4, 2, 3, 2), f32]",
       "nn.conv2d_transpose(%x, %w, strides=[2, 1], padding=[0, 1, 1, 0], output_padding=[1, 0], groups=2)"},
      {"conv2d_transpose_dilated_odd", "%x: Tensor[(1, 7, 5, 3), f32], %w: Tensor[(7, 5, 3, 3), f32]",
       "nn.conv2d_transpose(%x, %w, strides=[3, 2], padding=[2, 0, 1, 1], output_padding=[1, 1], dilation=[2, 1])"},
      {"conv2d_transpose_deep", "%x: Tensor[(1, 300, 3, 3), f32], %w: Tensor[(300, 7, 4, 4), f32]",
       "nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1])"},
      {"conv2d_transpose_wide_grouped", "%x: Tensor[(2, 6, 9, 11), f32], %w: Tensor[(6, 2, 2, 3), f32]",
       "nn.relu(nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[0, 1, 0, 1], groups=2))"},
      {"conv2d_transpose_from_one_pixel", "%x: Tensor[(1, 10, 1, 1), f32], %w: Tensor[(10, 8, 4, 4), f32]",
       "nn.conv2d_transpose(%x, %w)"},
      {"max_pool", "%x: Tensor[(2, 3, 9, 10), f32]",
       "(nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]), "
       "nn.max_pool2d(%x, pool_size=[2, 3], strides=[2, 2], ceil_mode=1, dilation=[1, 2]))"},
      {"avg_pool", "%x: Tensor[(1, 4, 7, 8), f32]",
       "(nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]), "
       "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], count_include_pad=1, ceil_mode=1))"},
      {"global_and_adaptive_pools", "%x: Tensor[(2, 3, 7, 5), f32]",
       "(nn.global_avg_pool2d(%x), nn.global_max_pool2d(%x), nn.adaptive_avg_pool2d(%x, output_size=[3, 2]))"},
      {"softmax", "%x: Tensor[(4, 6, 5), f32]",
       "(nn.softmax(%x), nn.softmax(%x, axis=1), nn.log_softmax(%x), nn.log_softmax(%x, axis=0))"},
      {"layer_norm", "%x: Tensor[(3, 4, 10), f32], %g: Tensor[(10), f32], %b: Tensor[(10), f32]",
       "nn.layer_norm(%x, %g, %b)"},
      {"layer_norm_middle_axis", "%x: Tensor[(3, 4, 10), f32], %g: Tensor[(4), f32], %b: Tensor[(4), f32]",
       "nn.layer_norm(%x, %g, %b, axis=1, epsilon=0.001)"},
      {"rms_norm", "%x: Tensor[(3, 4, 11), f32], %g: Tensor[(11), f32], %h: Tensor[(4), f32]",
       "(nn.rms_norm(%x, %g), nn.rms_norm(%x, %h, axis=1, epsilon=0.01))"},
      {"squeeze_excitation",
       "%x: Tensor[(2, 6, 3, 5), f32], %w: Tensor[(3, 6, 1, 1), f32], %b: Tensor[(3), f32], %v: Tensor[(6, 3, 1, 1), f32], "
       "%c: Tensor[(6), f32]",
       "(nn.squeeze_excitation(%x, %w, %b, %v, %c), nn.squeeze_excitation(%x, %w, %b, %v, %c, activation=\"silu\", "
       "gate=\"hard_sigmoid\", gate_offset=0.4))"},
      // Channels-last, with more channels than one pooling block and a partial second block.
      {"squeeze_excitation_channels_last",
       "%x: Tensor[(2, 3, 5, 70), f32], %w: Tensor[(6, 70, 1, 1), f32], %b: Tensor[(6), f32], "
       "%v: Tensor[(70, 6, 1, 1), f32], %c: Tensor[(70), f32]",
       "(nn.squeeze_excitation(%x, %w, %b, %v, %c, layout=\"NHWC\"), nn.squeeze_excitation(%x, %w, %b, %v, %c, "
       "activation=\"silu\", gate=\"hard_sigmoid\", layout=\"NHWC\"))"},
      {"masked_softmax", "%x: Tensor[(2, 3, 7), f32], %m: Tensor[(3, 7), f32], %b: Tensor[(2, 1, 7), bool]",
       "(nn.masked_softmax(%x, %m, scale=0.5), nn.masked_softmax(%x, %b, masked_value=-3.0), nn.masked_softmax(%x))"},
      // Heads split from (batch, tokens, channels) with an additive mask and a relu epilogue;
      // sequence-first heads (tokens, batch * heads, depth) with a bool mask.
      {"attention",
       "%q: Tensor[(2, 5, 12), f32], %k: Tensor[(2, 6, 12), f32], %v: Tensor[(2, 6, 6), f32], %m: Tensor[(5, 6), f32], "
       "%s: Tensor[(7, 4, 3), f32], %b: Tensor[(4, 7, 7), bool]",
       "%0 = nn.attention(%q, %k, %v, %m, scale=0.5, query_shape=[2, 5, 3, 4], query_axes=[0, 2, 1, 3], "
       "key_shape=[2, 6, 3, 4], key_axes=[0, 2, 3, 1], value_shape=[2, 6, 3, 2], value_axes=[0, 2, 1, 3], "
       "output_axes=[0, 2, 1, 3], output_shape=[2, 5, 6])\n  "
       "(nn.relu(%0), nn.attention(%s, %s, %s, %b, masked_value=-5.0, query_shape=[7, 4, 3], query_axes=[1, 0, 2], "
       "key_shape=[7, 4, 3], key_axes=[1, 2, 0], value_shape=[7, 4, 3], value_axes=[1, 0, 2], output_axes=[1, 0, 2], "
       "output_shape=[7, 12]))"},
      {"reductions", "%x: Tensor[(3, 4, 5), f32]",
       "(sum(%x, axis=[1]), mean(%x, axis=[0, 2], keepdims=1), max(%x), min(%x, axis=[-1]), prod(%x, axis=[2]), "
       "argmax(%x, axis=1), argmin(%x, axis=-1, keepdims=1))"},
      {"int_reductions", "%x: Tensor[(4, 6), i32]", "(sum(%x, axis=[1]), max(%x, axis=[0]), argmax(%x, axis=1))"},
      // Rows longer than the 16 reduction lanes, with a tail; softmax rows longer than its block.
      {"long_row_reductions", "%x: Tensor[(3, 37), f32], %n: Tensor[(2, 45), i32]",
       "(sum(%x, axis=[1]), mean(%x, axis=[-1]), max(%x, axis=[1]), min(%x, axis=[1]), sum(%n, axis=[1]), "
       "max(%n, axis=[1]))"},
      {"long_row_softmax_and_layer_norm", "%x: Tensor[(3, 40), f32], %y: Tensor[(2, 4100), f32], "
                                          "%g: Tensor[(40), f32], %b: Tensor[(40), f32]",
       "(nn.softmax(%x), nn.log_softmax(%x), nn.softmax(%y), nn.layer_norm(%x, %g, %b))"},
      // Fusion shapes.
      {"elementwise_chain_multiple_users", "%x: Tensor[(16, 33), f32], %y: Tensor[(33), f32]",
       "%0 = add(%x, %y)\n  %1 = multiply(%0, %0)\n  %2 = sigmoid(%1)\n  %3 = subtract(%2, %0)\n  (%3, %0)"},
      {"softmax_of_scaled_matmul", "%q: Tensor[(2, 8, 16), f32], %k: Tensor[(2, 8, 16), f32]",
       "%0 = nn.batch_matmul(%q, %k, transpose_b=1)\n  %1 = multiply(%0, constant([0.25], Tensor[(), f32]))\n  nn.softmax(%1)"},
      {"conv_transpose_epilogue", "%x: Tensor[(1, 4, 6, 6), f32], %w: Tensor[(8, 4, 3, 3), f32]",
       "%0 = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]))\n  transpose(%0, axes=[0, 2, 3, 1])"},
      {"reduction_prologue", "%x: Tensor[(6, 7), f32]", "mean(exp(%x), axis=[1])"},
      // Element loops over rows of >= 16 columns (RowIndex): per-row and per-column broadcasts,
      // a transpose, and a reshape whose broadcast period neither divides nor is a multiple of
      // the row length.
      {"decomposed_layer_norm", "%x: Tensor[(3, 5, 48), f32], %g: Tensor[(48), f32], %b: Tensor[(48), f32]",
       "%0 = subtract(%x, mean(%x, axis=[-1], keepdims=1))\n  %1 = mean(power(%0, constant([2], Tensor[(), f32])), "
       "axis=[-1], keepdims=1)\n  %2 = divide(%0, sqrt(add(%1, constant([1e-05], Tensor[(), f32]))))\n  "
       "add(multiply(%2, %g), %b)"},
      {"row_loop_transpose_and_broadcasts", "%x: Tensor[(4, 24, 32), f32], %y: Tensor[(24, 1), f32]",
       "%0 = add(%x, %y)\n  (transpose(%0, axes=[0, 2, 1]), multiply(%0, %y))"},
      {"row_loop_reshaped_broadcast", "%x: Tensor[(4, 30), f32], %y: Tensor[(30), f32], %z: Tensor[(20), f32]",
       "add(reshape(add(%x, %y), newshape=[6, 20]), %z)"},
      // Ops without a generator: their groups run through the reference kernels.
      {"trigonometric", "%x: Tensor[(9), f32]",
       "%0 = add(abs(%x), constant([1], Tensor[(), f32]))\n  (sin(%x), cos(%x), tan(%x), asin(%x), acos(%x), "
       "atan(%x), sinh(%x), cosh(%x), asinh(%x), atanh(%x), acosh(%0), sign(%x))"},
      {"remainders", "%x: Tensor[(4, 5), i32], %y: Tensor[(5), i32], %f: Tensor[(6), f32]",
       "%0 = add(%y, constant([1], Tensor[(), i32]))\n  %1 = add(abs(%f), constant([0.5], Tensor[(), f32]))\n  "
       "(truncated_mod(%x, %0), floor_mod(negative(%x), %0), truncated_mod(%f, %1), floor_mod(%f, %1))"},
      {"gathers_and_scatters", "%x: Tensor[(3, 4), f32], %u: Tensor[(2, 4), f32]",
       "%0 = constant([2, 0, 1, 1, 0, 2, 2, 0], Tensor[(2, 4), i64])\n  (gather_elements(%x, %0), "
       "scatter_elements(%x, %0, %u, reduction=\"add\"), gather_nd(%x, constant([2, 1, 0, 3], Tensor[(2, 2), i64])), "
       "scatter_nd(%x, constant([1], Tensor[(1, 1), i64]), constant([1, 2, 3, 4], Tensor[(1, 4), f32])), "
       "one_hot(constant([0, 2, -1], Tensor[(3), i64]), constant([0, 1], Tensor[(2), f32]), depth=3))"},
      {"topk_cumsum_trilu", "%x: Tensor[(3, 5), f32]",
       "%0 = topk(%x, k=2)\n  (%0.0, %0.1, cumsum(%x, axis=1, exclusive=1), trilu(%x, k=1))"},
      {"einsum_lrn", "%a: Tensor[(2, 3), f32], %b: Tensor[(3, 4), f32], %x: Tensor[(1, 5, 2, 2), f32]",
       "(einsum(%a, %b, equation=\"ij,jk->ik\"), nn.lrn(%x, size=3))"},
      {"concat_of_convs", "%x: Tensor[(1, 3, 5, 5), f32], %w: Tensor[(4, 3, 1, 1), f32], %v: Tensor[(2, 3, 3, 3), f32]",
       "concatenate(nn.relu(nn.conv2d(%x, %w)), nn.relu(nn.conv2d(%x, %v, padding=[1, 1, 1, 1])), axis=1)"},      {"grid_sample_det", "%x: Tensor[(1, 2, 3, 4), f32], %g: Tensor[(1, 2, 5, 2), f32], %m: Tensor[(2, 3, 3), f32]",
       "(image.grid_sample(%x, %g), image.grid_sample(%x, %g, mode=\"bicubic\", padding_mode=\"reflection\"), "
       "linalg.det(%m))"},
      {"shifts", "%x: Tensor[(6), i32], %y: Tensor[(6), i32]", "(left_shift(%x, %y), right_shift(%x, %y))"},
  };
  return cases;
}

void PrintTo(const OpCase& c, std::ostream* os) { *os << c.name; }

Function CaseFunction(const OpCase& c) {
  return testing::ParseMainFunction("def @main(" + c.signature + ") {\n  " + c.body + "\n}\n");
}

class NativeOpTest : public ::testing::TestWithParam<OpCase> {
 public:
  static void SetUpTestSuite() {
    std::vector<Function> functions;
    for (const OpCase& c : Cases()) functions.push_back(CaseFunction(c));
    std::vector<CompileResult> results = NativeBackend().CompileAll(functions, testing::NativeTestOptions());
    for (size_t i = 0; i < results.size(); ++i) compiled()[Cases()[i].name] = std::move(results[i]);
  }
  static void TearDownTestSuite() { compiled().clear(); }

 protected:
  static std::map<std::string, CompileResult>& compiled() {
    static std::map<std::string, CompileResult> results;
    return results;
  }
};

TEST_P(NativeOpTest, MatchesReference) {
  const OpCase& c = GetParam();
  CompileResult& result = compiled().at(c.name);
  ASSERT_NE(result.executable, nullptr) << result.error;
  const Function function = CaseFunction(c);
  EXPECT_TRUE(testing::ExecutableMatchesReference(*result.executable, function, 1));
  EXPECT_TRUE(testing::ExecutableMatchesReference(*result.executable, function, 2));
}

INSTANTIATE_TEST_SUITE_P(Ops, NativeOpTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// Every op of the registry appears in some case above, so a new op cannot miss a test.
TEST(NativeOpCoverageTest, EveryRegistryOpIsTested) {
  std::string all_text;
  for (const OpCase& c : Cases()) all_text += c.body + "\n";
  // A call is the op's name not preceded by a name character (so "max(" in "argmax(" does not count).
  const auto is_name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
  for (const OpDef* op : OpRegistry::Global().AllOps()) {
    bool called = false;
    for (size_t at = all_text.find(op->name + "("); at != std::string::npos && !called;
         at = all_text.find(op->name + "(", at + 1)) {
      called = at == 0 || !is_name_char(all_text[at - 1]);
    }
    EXPECT_TRUE(called) << op->name << " has no native test case";
  }
}

// The comparison can fail: the ragged dense product differs from the reference's product of
// the same inputs with one element of the last row changed by 1% of the inputs' range [-1, 1],
// which moves that output row by about 1% of a typical output.
TEST(NativeOpOracleTest, DetectsOneChangedInputElementOfAProduct) {
  const auto ragged = std::find_if(Cases().begin(), Cases().end(),
                                   [](const OpCase& c) { return c.name == "dense_ragged_tile_and_depth_block"; });
  ASSERT_NE(ragged, Cases().end());
  const Function function = CaseFunction(*ragged);
  const std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
  const std::vector<Value> args = RandomArguments(function, 1);
  const Value actual = InvokeExecutable(*executable, function, args);
  ASSERT_TRUE(CompareValues(actual, Evaluate(function, args)).ok());
  std::vector<Value> changed = args;
  Tensor x = args[0].tensor().Clone();
  x.data<float>()[12 * 257 + 100] += 0.02f;
  changed[0] = Value(x);
  EXPECT_FALSE(CompareValues(actual, Evaluate(function, changed)).ok());
}

}  // namespace
}  // namespace collage
