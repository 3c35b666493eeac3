// The pattern text syntax: printing, parse(print(p)) == p as text, pattern tables with
// comments and sub-patterns, and the messages of malformed text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "pattern/pattern_matcher.h"
#include "pattern/pattern_parser.h"
#include "pattern/pattern_printer.h"
#include "pattern/pattern_test_util.h"

namespace collage {
namespace {

using testing::ConstantOf;
using testing::F32;
using testing::TensorVar;

std::string Reprinted(const std::string& text) { return PatternToString(ParsePattern(text, "test.pat")); }

TEST(PatternTextTest, BuiltPatternsPrintInTheTextSyntax) {
  Pattern conv = IsOp("nn.conv2d").HasAttr({{"groups", int64_t{1}}})(Wildcard(), IsConstant());
  EXPECT_EQ(PatternToString(IsOp("nn.relu")(IsOp("add")(conv, IsConstant()))),
            "nn.relu(add(nn.conv2d{groups=1}(*, const), const))");
  EXPECT_EQ(PatternToString(IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard())), "nn.relu(*) | sigmoid(*)");
  EXPECT_EQ(PatternToString(IsOp("add")(IsOp("nn.dense")(Wildcard(), IsConstant()), IsConstant()).Optional()),
            "add(nn.dense(*, const), const)?");
  EXPECT_EQ(PatternToString(IsTuple({Wildcard(), IsVar()}).GetItem(1)), "(*, var).1");
  EXPECT_EQ(PatternToString(IsTuple({IsVar("x")})), "(%x,)");
  EXPECT_EQ(PatternToString(IsTupleGetItem(Wildcard())), "*.*");
  EXPECT_EQ(PatternToString(Wildcard().HasType(F32({1, 3, 224, 224}))), "*:Tensor[(1, 3, 224, 224), f32]");
  EXPECT_EQ(PatternToString(Wildcard().HasDType(DType::kI64)), "*:i64");
  EXPECT_EQ(PatternToString(Wildcard().HasShape({2, 3})), "*:(2, 3)");
  EXPECT_EQ(PatternToString((IsOp("nn.relu")(Wildcard()) | Wildcard()).HasDType(DType::kF16)), "(nn.relu(*) | *):f16");
  EXPECT_EQ(PatternToString(Dominates(IsOp("nn.conv2d")(Wildcard(), Wildcard()), IsOp("nn.relu")(Wildcard()),
                                      IsOp("add")(Wildcard(), Wildcard()))),
            "dominates(nn.conv2d(*, *), nn.relu(*), add(*, *))");
  EXPECT_EQ(PatternToString(IsVar("input.1")), "%\"input.1\"");
}

TEST(PatternTextTest, ParsePrintRoundTripsExactly) {
  const std::vector<std::string> texts = {
      "nn.relu(add(nn.conv2d(*, const), const))",
      "nn.conv2d{groups=1}(*, const)",
      "nn.conv2d{groups=1, padding=[1, 1, 1, 1], strides=[2, 2]}(*, const)",
      "nn.leaky_relu{alpha=0.1}(*) | nn.leaky_relu{alpha=-inf}(*) | nn.leaky_relu{alpha=1e-05}(*)",
      "image.resize2d{method=\"linear\", scales=[0.5, 2.0]}(*)",
      "nn.relu(*) | sigmoid(*) | tanh(*)",
      "nn.relu(*) | (sigmoid(*) | tanh(*))",
      "add(nn.dense(*, const), const)?",
      "nn.relu(add(nn.conv2d(*, const), const)?)?",
      "(*, const, var)",
      "(*,)",
      "()",
      "(nn.relu(*), *).1",
      "split(*).*",
      "*:Tensor[(1, 3, 224, 224), f32]",
      "*:f32",
      "nn.relu(*):(1, 64, 56, 56)",
      "*:()",
      "*:(Tensor[(1), f32],)",
      "*:(Tensor[(2, 3), f32], Tensor[(), i64])",
      "(nn.relu(*) | sigmoid(*)):f32",
      "nn.relu(*):f32?",
      "dominates(nn.conv2d(*, *), nn.relu(*) | sigmoid(*), add(*, *))",
      "(add | multiply)(*, const)",
      "*{Composite=\"onednn.conv2d\"}(*, *)",
      "*{Composite=\"a\"}(*){tag=1}",
      "%x",
      "%\"input.1\"",
      "add(var, %\"a \\\"quoted\\\" name\")",
      "transpose{axes=[0, -1, 1]}(*)",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const std::string printed = Reprinted(text);
    EXPECT_EQ(printed, text);
    EXPECT_EQ(Reprinted(printed), printed);
  }
}

TEST(PatternTextTest, TextIsNormalizedWhenPrinted) {
  EXPECT_EQ(Reprinted("  nn.relu( add ( * ,const) )|sigmoid(*)  "), "nn.relu(add(*, const)) | sigmoid(*)");
  EXPECT_EQ(Reprinted("((nn.relu(*)))"), "nn.relu(*)");
  EXPECT_EQ(Reprinted("nn.leaky_relu{alpha=1}(*)"), "nn.leaky_relu{alpha=1}(*)");
  EXPECT_EQ(Reprinted("reshape{newshape=[1, 2.5]}(*)"), "reshape{newshape=[1.0, 2.5]}(*)");
  EXPECT_EQ(Reprinted("*:(2, 3,)"), "*:(2, 3)");
  // Attributes of an op call print before its arguments.
  EXPECT_EQ(Reprinted("nn.relu(*){tag=1}"), "nn.relu{tag=1}(*)");
  EXPECT_EQ(Reprinted("add(\n  *,  # a comment inside brackets\n  const)\n"), "add(*, const)");
}

TEST(PatternTextTest, ParsedPatternsMatchLikeBuiltOnes) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Expr conv = CallOp("nn.conv2d", {x, ConstantOf({4, 3, 3, 3})});
  Expr grouped = CallOp("nn.conv2d", {x, ConstantOf({3, 1, 3, 3})}, {{"groups", int64_t{3}}});
  Expr relu = CallOp("nn.relu", {CallOp("add", {conv, ConstantOf({1, 4, 1, 1})})});
  Function function = MakeFunction({x}, MakeTuple({relu, grouped}));
  EXPECT_EQ(FindAllMatches(ParsePattern("nn.conv2d{groups=1}(*, const)"), function).size(), 1u);
  EXPECT_EQ(FindAllMatches(ParsePattern("nn.conv2d(*, const)"), function).size(), 2u);
  EXPECT_EQ(FindAllMatches(ParsePattern("nn.relu(add(nn.conv2d(*, const), const)?)?"), function).size(), 4u);
  EXPECT_EQ(FindAllMatches(ParsePattern("(nn.relu(*), *)"), function).size(), 1u);
  EXPECT_EQ(FindAllMatches(ParsePattern("(add | nn.relu)(*)"), function).size(), 1u);
}

TEST(PatternTextTest, TablesHaveLabelsCommentsAndSubPatterns) {
  const std::string text =
      "# oneDNN patterns\n"
      "\n"
      "$act := nn.relu(*) | sigmoid(*)   // either activation\n"
      "onednn.conv2d_bias_relu := nn.relu(add(nn.conv2d(*, const), const))\n"
      "onednn.dense_act := $act:f32\n"
      "onednn.pair := add($act,\n"
      "                   $act)\n"
      "   # trailing comment\n";
  std::vector<LabelledPattern> table = ParsePatternTable(text, "onednn.pat");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0].label, "onednn.conv2d_bias_relu");
  EXPECT_EQ(PatternToString(table[0].pattern), "nn.relu(add(nn.conv2d(*, const), const))");
  EXPECT_EQ(table[0].location.ToString(), "onednn.pat:4:1");
  EXPECT_EQ(PatternToString(table[1].pattern), "(nn.relu(*) | sigmoid(*)):f32");
  EXPECT_EQ(PatternToString(table[2].pattern), "add(nn.relu(*) | sigmoid(*), nn.relu(*) | sigmoid(*))");
  EXPECT_EQ(table[2].location.line, 6);

  const std::string printed = PatternTableToString(table);
  EXPECT_EQ(printed,
            "onednn.conv2d_bias_relu := nn.relu(add(nn.conv2d(*, const), const))\n"
            "onednn.dense_act := (nn.relu(*) | sigmoid(*)):f32\n"
            "onednn.pair := add(nn.relu(*) | sigmoid(*), nn.relu(*) | sigmoid(*))\n");
  EXPECT_EQ(PatternTableToString(ParsePatternTable(printed)), printed);
  EXPECT_TRUE(ParsePatternTable("").empty());
  EXPECT_TRUE(ParsePatternTable("# nothing but a comment\n\n").empty());

  // A sub-pattern used twice matches each place on its own.
  Var a = TensorVar("a");
  Var b = TensorVar("b");
  Expr sum = CallOp("add", {CallOp("nn.relu", {a}), CallOp("sigmoid", {b})});
  EXPECT_TRUE(MatchesPattern(table[2].pattern, sum));
}

TEST(PatternTextTest, TableFilesAreRead) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "collage_pattern_table_test.pat";
  {
    std::ofstream file(path);
    file << "test.relu := nn.relu(*)\n";
  }
  std::vector<LabelledPattern> table = ParsePatternTableFile(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].location.file, path.string());
  EXPECT_THROW(ParsePatternTableFile((std::filesystem::temp_directory_path() / "no_such_table.pat").string()), Error);
}

struct BadText {
  std::string text;
  std::string expected_message;  // the whole message, location first
};

// Found by the pattern-parser fuzzer: 100,000 nested parentheses overflowed the stack.
TEST(PatternTextTest, DeepNestingIsAParseErrorNotAStackOverflow) {
  EXPECT_NO_THROW(ParsePattern(std::string(200, '(') + "*" + std::string(200, ')')));
  for (const std::string& text : {std::string(100000, '(') + "*" + std::string(100000, ')'),
                                   "nn.relu(" + std::string(300, '(') + "*" + std::string(300, ')') + ")"}) {
    try {
      ParsePattern(text);
      ADD_FAILURE() << "expected a ParseError";
    } catch (const ParseError& error) {
      EXPECT_NE(std::string(error.what()).find("patterns nested deeper than 256 levels"), std::string::npos)
          << error.what();
    }
  }
}

TEST(PatternTextTest, MalformedTextIsAParseErrorWithLineAndColumn) {
  const std::vector<BadText> cases = {
      {"a := nn.relux(*)",
       "t.pat:1:6: unknown op 'nn.relux'; expected a registered op name, '*', const, var or dominates"},
      {"a nn.relu(*)", "t.pat:1:3: expected ':=' after 'a', found 'nn.relu'"},
      {"a := nn.relu(*", "t.pat:1:15: expected ',' or the closing bracket of the call's arguments, found end of input"},
      {"a := nn.relu(@)", "t.pat:1:14: unexpected character '@'"},
      {"a := *:f33", "t.pat:1:8: unknown dtype 'f33'; expected f32, f16, bf16, i8, u8, i32, i64 or bool"},
      {"a := *.x", "t.pat:1:8: expected a tuple index or '*' after '.', found 'x'"},
      {"a := $missing",
       "t.pat:1:6: unknown sub-pattern '$missing'; define it on an earlier line with '$missing := ...'"},
      {"a := *\na := const", "t.pat:2:1: duplicate label 'a', first defined at t.pat:1:1"},
      {"a := dominates(*, *)", "t.pat:1:6: dominates takes 3 patterns (parent, path, child), got 2"},
      {"a := *?",
       "t.pat:1:7: an optional pattern needs a call pattern with at least one argument (its pass-through), got a "
       "wildcard pattern"},
      {"a := nn.conv2d{groups=}(*, *)", "t.pat:1:23: expected a value (a number, a string or a [list]), found '}'"},
      {":= nn.relu(*)",
       "t.pat:1:1: expected a label (e.g. onednn.conv2d_relu) or a $name followed by ':=', found ':='"},
      {"a := nn.relu(*) sigmoid(*)", "t.pat:1:17: expected the end of the line after the pattern, found 'sigmoid'"},
      {"a := nn.leaky_relu{alpha=\"x}(*)", "t.pat:1:26: unterminated string; expected a closing '\"'"},
      {"# comment\n\nb := add(*, 3)",
       "t.pat:3:13: expected a pattern ('*', const, var, %name, an op name, $name, dominates or '('), found '3'"},
      {"c := add(\n  *,\n  nn.relux(*))",
       "t.pat:3:3: unknown op 'nn.relux'; expected a registered op name, '*', const, var or dominates"},
      {"$x := *\n$x := const", "t.pat:2:1: sub-pattern '$x' is already defined at t.pat:1:1"},
      {"a := *:Tensor[(1, 2), f32", "t.pat:1:26: expected ']' after the dtype in Tensor[...], found end of input"},
      {"a := nn.conv2d{groups=1, groups=2}(*, *)", "t.pat:1:26: attribute 'groups' is constrained twice"},
      {"a := / nn.relu(*)", "t.pat:1:6: unexpected character '/'"},
  };
  for (const BadText& bad : cases) {
    SCOPED_TRACE(bad.text);
    try {
      ParsePatternTable(bad.text, "t.pat");
      ADD_FAILURE() << "expected a ParseError";
    } catch (const ParseError& error) {
      EXPECT_EQ(std::string(error.what()), bad.expected_message);
      EXPECT_TRUE(error.location().IsKnown());
    }
  }
}

// Text quoted in a message (here a label holding bytes the lexer rejects, with line breaks after
// backslashes) stays on one line (found by the pattern-parser fuzzer).
TEST(PatternTextTest, MessagesQuotingTheInputStayOnOneLine) {
  for (const std::string& text : {std::string("ense_act\":\xa1= \\\noneense_act\":\xa1= \\\nonenn.p"),
                                  std::string("a := nn.leaky_relu{alpha=\"x\ny\"}(*)"),
                                  std::string("a := nn.relu(*) \"x\ny\"")}) {
    SCOPED_TRACE(text);
    try {
      ParsePatternTable(text, "t.pat");
      ADD_FAILURE() << "expected a ParseError";
    } catch (const ParseError& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("t.pat:", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

TEST(PatternTextTest, ASinglePatternMustEndAfterThePattern) {
  EXPECT_THROW(ParsePattern("nn.relu(*) )"), ParseError);
  EXPECT_THROW(ParsePattern(""), ParseError);
  EXPECT_THROW(ParsePattern("a := nn.relu(*)"), ParseError);
}

}  // namespace
}  // namespace collage
