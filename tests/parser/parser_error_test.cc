// Malformed and ill-typed IR text: every error names file:line:column and what was wrong.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "parser/parser.h"

namespace collage {
namespace {

constexpr const char* kFile = "bad.cir";

// Parses `text`, expecting an Error (ParseError or TypeError) whose message starts with
// "bad.cir:<position>: " and contains every key phrase.
void ExpectError(const std::string& text, const std::string& position, std::initializer_list<std::string> phrases) {
  try {
    ParseModule(text, kFile);
    ADD_FAILURE() << "expected an error at " << position << " for:\n" << text;
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(std::string(kFile) + ":" + position + ": ", 0), 0u) << message;
    for (const std::string& phrase : phrases) EXPECT_NE(message.find(phrase), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one-line messages: " << message;
  }
}

const std::string kHeader = "def @main(%x: Tensor[(1, 3, 8, 8), f32], %w: Tensor[(4, 3, 3, 3), f32]) {\n";

TEST(ParserErrorTest, ExpectedTokenButFoundAnother) {
  ExpectError("def @main(%x: Tensor[(2), f32, i8]) { %x }", "1:30", {"expected ']' but found ','"});
  ExpectError("def @main(%x: Tensor[(2), f32] %y: Tensor[(2), f32]) { %x }", "1:32",
              {"expected ',' or ')' but found '%y'"});
  ExpectError(kHeader + "  %0 = nn.relu(%x %w)\n  %0\n}\n", "2:19", {"expected ',' or ')'", "found '%w'"});
}

// A quoted name may hold a line break; the message quoting it stays one line (found by the
// text-IR fuzzer).
TEST(ParserErrorTest, NamesWithLineBreaksAreQuotedOnOneLine) {
  ExpectError("def @main(%x: Tensor[(2), f32]) { %\"a\nb\" }", "1:35", {"undefined variable %a\\nb"});
  ExpectError("def @main(%\"a\nb\": Tensor[(2), f32], %\"a\nb\": Tensor[(2), f32]) { %x }", "2:23",
              {"duplicate binding name %a\\nb (first defined at 1:11)"});
}

TEST(ParserErrorTest, TensorTypesTooLargeFor64BitsAreErrors) {
  // 2^31 * 2^31 * 2 elements wraps to a negative count; 2^32 * 2^32 wraps to 0.
  ExpectError("def @main(%x: Tensor[(2147483648, 2147483648, 2), f32]) { %x }", "1:15",
              {"shape (2147483648, 2147483648, 2) has more elements than a 64-bit count holds"});
  ExpectError("def @main(%x: Tensor[(4294967296, 4294967296), f32]) { %x }", "1:15",
              {"has more elements than a 64-bit count holds"});
  // 2^61 elements fit, 2^61 * 4 bytes do not.
  ExpectError("def @main(%x: Tensor[(2305843009213693952), f32]) { %x }", "1:15",
              {"shape (2305843009213693952) of 4-byte elements has more bytes than a 64-bit size holds"});
  // A zero extent makes the count 0 whatever the other extents.
  EXPECT_NO_THROW(ParseModule("def @main(%x: Tensor[(4294967296, 4294967296, 0), f32]) { %x }", kFile));
}

TEST(ParserErrorTest, AnOpWhoseResultTypeIsTooLargeIsATypeError) {
  // Each operand is 2^31 floats; their broadcast sum would be 2^62 floats, 2^64 bytes.
  ExpectError("def @main(%x: Tensor[(2147483648, 1), f32], %y: Tensor[(1, 2147483648), f32]) {\n  add(%x, %y)\n}\n",
              "2:3", {"add: ", "of 4-byte elements has more bytes than a 64-bit size holds"});
}

TEST(ParserErrorTest, UnknownOp) {
  ExpectError(kHeader + "  %0 = nn.conv3d(%x, %w)\n  %0\n}\n", "2:8", {"unknown op 'nn.conv3d'"});
}

TEST(ParserErrorTest, UndefinedVariable) {
  ExpectError(kHeader + "  %0 = add(%x, %y)\n  %0\n}\n", "2:16", {"undefined variable %y"});
}

TEST(ParserErrorTest, FunctionsAreClosed) {
  ExpectError(kHeader +
                  "  %0 = fn (%p: Tensor[(1, 3, 8, 8), f32]) {\n"
                  "    add(%p, %x)\n"
                  "  }\n"
                  "  %0(%x)\n}\n",
              "3:13", {"undefined variable %x", "enclosing function", "closed"});
}

TEST(ParserErrorTest, AttributeOfTheWrongKind) {
  ExpectError(kHeader + "  %0 = nn.conv2d(%x, %w, padding=\"same\")\n  %0\n}\n", "2:26",
              {"nn.conv2d", "attribute 'padding'", "int list"});
}

TEST(ParserErrorTest, UnknownAndDuplicateAttributes) {
  ExpectError(kHeader + "  %0 = nn.conv2d(%x, %w, strides=[1, 1], paddin=[1, 1, 1, 1])\n  %0\n}\n", "2:42",
              {"unknown attribute 'paddin'", "padding"});
  ExpectError(kHeader + "  %0 = nn.conv2d(%x, %w, groups=1, groups=2)\n  %0\n}\n", "2:36",
              {"duplicate attribute 'groups'"});
  ExpectError(kHeader + "  %0 = split(%x)\n  %0\n}\n", "2:8", {"split", "missing required attribute 'sizes'"});
}

TEST(ParserErrorTest, UnterminatedString) {
  ExpectError("def @main(%x: Tensor[(2), f32]) attrs(Compiler=\"native) {\n  %x\n}\n", "1:48", {"unterminated string"});
}

// Found by the text-IR fuzzer: a string token quoted in a message kept its line breaks.
TEST(ParserErrorTest, StringsQuotedInMessagesStayOnOneLine) {
  ExpectError("\"two\nlines\x01\tand a tab\"\ndef @main() { %x }", "1:1",
              {"expected 'def' but found string \"two\\nlines\\x01\\tand a tab\""});
}

// Found by the text-IR fuzzer: a quoted %name may span lines, and every token quoted in a
// message keeps it on one line.
TEST(ParserErrorTest, QuotedNamesInMessagesStayOnOneLine) {
  ExpectError("def @main(%x: Tensor[(2), f32]) { add(%x, constant([%\"a\nb\"], Tensor[(1), f32])) }", "1:53",
              {"'%a\\nb'"});
}

TEST(ParserErrorTest, BadNumbers) {
  ExpectError("def @main(%x: Tensor[(2), f32]) { add(%x, constant([1e], Tensor[(), f32])) }", "1:53",
              {"bad number '1e'"});
  ExpectError("def @main(%x: Tensor[(12abc), f32]) { %x }", "1:23", {"bad number '12abc'"});
  ExpectError("def @main(%x: Tensor[(99999999999999999999), f32]) { %x }", "1:23",
              {"bad number '99999999999999999999'", "out of range"});
  ExpectError("def @main() { constant([1e39], Tensor[(1), f32]) }", "1:25", {"bad number '1e39'", "32-bit float"});
}

TEST(ParserErrorTest, BadDType) {
  ExpectError("def @main(%x: Tensor[(2), f33]) { %x }", "1:27", {"bad dtype 'f33'", "f32, f16, bf16"});
}

TEST(ParserErrorTest, DuplicateNames) {
  ExpectError(kHeader + "  %0 = nn.relu(%x)\n  %0 = nn.relu(%0)\n  %0\n}\n", "3:3",
              {"duplicate binding name %0", "first defined at 2:3"});
  ExpectError("def @main(%x: Tensor[(2), f32], %x: Tensor[(2), f32]) { %x }", "1:33", {"duplicate binding name %x"});
  ExpectError("def @f() { constant([1.0], Tensor[(), f32]) }\ndef @f() { constant([2.0], Tensor[(), f32]) }", "2:5",
              {"duplicate function @f", "first defined at 1:5"});
}

TEST(ParserErrorTest, MetaConstantWithoutData) {
  ExpectError("def @main() {\n  constant(meta[3], Tensor[(2, 2), f32])\n}\n", "2:17",
              {"constant meta[3] has no data in this file"});
}

TEST(ParserErrorTest, ConstantValuesMustFitTheType) {
  ExpectError("def @main() {\n  constant([1, 2, 3], Tensor[(2, 2), i32])\n}\n", "2:3",
              {"constant has 3 values", "holds 4"});
  ExpectError("def @main() {\n  constant([1, 256], Tensor[(2), u8])\n}\n", "2:16",
              {"value 256 is out of range for u8"});
  ExpectError("def @main() {\n  constant([1.5], Tensor[(1), i32])\n}\n", "2:13", {"expected an integer", "i32"});
  ExpectError("def @main() {\n  constant([1.5], (Tensor[(1), f32],))\n}\n", "2:19",
              {"a constant's type must be a tensor type"});
  ExpectError("def @main() {\n  constant([1.0], Tensor[(4611686018427387904, 4), f32])\n}\n", "2:19",
              {"shape (4611686018427387904, 4) has more elements than a 64-bit count holds"});
}

TEST(ParserErrorTest, AnnotatedTypeMismatch) {
  ExpectError(
      kHeader + "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) : Tensor[(1, 4, 6, 6), f32]\n  %0\n}\n", "2:50",
      {"annotated type Tensor[(1, 4, 6, 6), f32] does not match inferred type Tensor[(1, 4, 8, 8), f32]", "nn.conv2d"});
  ExpectError("def @main(%x: Tensor[(2), f32]) -> Tensor[(2), i32] { nn.relu(%x) }", "1:36",
              {"annotated type Tensor[(2), i32]", "inferred type Tensor[(2), f32]", "result"});
}

TEST(ParserErrorTest, TypeErrorsPointAtTheOffendingCall) {
  // The weight has 2 input channels; the data has 3.
  ExpectError(
      "def @main(%x: Tensor[(1, 3, 8, 8), f32], %w: Tensor[(4, 2, 3, 3), f32]) {\n"
      "  %0 = nn.relu(%x)\n"
      "  %1 =   nn.conv2d(%0, %w)\n"
      "  %1\n"
      "}\n",
      "3:10", {"nn.conv2d", "channel"});
  ExpectError("def @main(%x: Tensor[(2), f32]) {\n  %0 = nn.relu(%x)\n  add(%0)\n}\n", "3:3",
              {"add", "expected 2 arguments, got 1"});
  ExpectError("def @main(%x: Tensor[(2), f32]) {\n  %0 = (%x, %x)\n  %0.2\n}\n", "3:3", {"out of range"});
}

TEST(ParserErrorTest, MisplacedOrMissingPieces) {
  ExpectError(kHeader + "  %0 nn.relu(%x)\n  %0\n}\n", "2:6", {"expected '='", "found 'nn.relu'"});
  ExpectError(kHeader + "  %0 = nn.relu(%x)\n  %0 = \n}\n", "4:1", {"expected an expression but found '}'"});
  ExpectError(kHeader + "  %0 = nn.relu(%x)\n}\n", "3:1", {"expected the function's result"});
  ExpectError(kHeader + "  %0 = nn.relu(%x)\n  %0\n", "4:1", {"expected '}'", "end of input"});
  ExpectError("fn @main() { }", "1:1", {"expected 'def' but found 'fn'"});
  ExpectError(kHeader + "  nn.leaky_relu(alpha=0.5, %x)\n}\n", "2:28", {"positional argument after attributes"});
  ExpectError(kHeader + "  %0 = nn.relu(%x)\n  %0(%x)\n}\n", "3:3", {"cannot call '%0'", "not a function"});
  ExpectError(kHeader + "  add(%x, 1.0)\n}\n", "2:11", {"expected an expression but found '1.0'", "constant("});
  ExpectError(kHeader + "  %0 = nn.relu(%x) $\n  %0\n}\n", "2:20", {"unexpected character '$'"});
  ExpectError(kHeader + "  %0 = @helper(%x)\n  %0\n}\n", "2:8", {"@helper"});
}

TEST(ParserErrorTest, DeepNestingIsAnErrorNotACrash) {
  std::string nested;
  for (int i = 0; i < 100000; ++i) nested += "nn.relu(";
  nested += "%x";
  for (int i = 0; i < 100000; ++i) nested += ")";
  ExpectError("def @main(%x: Tensor[(2), f32]) {\n" + nested + "\n}\n", "2:2049", {"nesting deeper than"});
}

// Every prefix of a valid file, and the file with each character replaced by one of a few
// troublesome ones, either parses or fails with a collage Error: never a crash or another
// exception type.
TEST(ParserErrorTest, TruncatedAndCorruptedTextOnlyThrowsErrors) {
  const std::string text =
      "def @main(%x: Tensor[(2, 2), f32], %\"in.1\": Tensor[(2, 2), f32]) -> (Tensor[(2, 2), f32],) {\n"
      "  %0 = add(%x, constant([1.5, -inf, nan, 2e-03], Tensor[(2, 2), f32])) : Tensor[(2, 2), f32]\n"
      "  %1 = fn (%p: Tensor[(2, 2), f32]) attrs(Primitive=1, Compiler=\"native\") { nn.leaky_relu(%p, alpha=0.5) }\n"
      "  %2 = %1(%0)  // a comment\n"
      "  %3 = split(%2, sizes=[1, 1], axis=1)\n"
      "  (maximum(%3.0, %\"in.1\"),)\n"
      "}\n";
  ASSERT_NO_THROW(ParseModule(text));
  auto parse_only_throws_errors = [](const std::string& candidate) {
    try {
      ParseModule(candidate, kFile);
    } catch (const Error&) {
    } catch (const std::exception& other) {
      ADD_FAILURE() << "non-Error exception '" << other.what() << "' for:\n" << candidate;
    }
  };
  for (size_t length = 0; length < text.size(); ++length) parse_only_throws_errors(text.substr(0, length));
  for (size_t at = 0; at < text.size(); ++at) {
    for (char replacement : {'(', ')', ',', '%', '"', '-', '9', '.', ' ', '\\', '\0'}) {
      std::string corrupted = text;
      corrupted[at] = replacement;
      parse_only_throws_errors(corrupted);
    }
  }
}

TEST(ParserErrorTest, UnreadableFileIsNamed) {
  try {
    ParseModuleFile("/nonexistent/model.cir");
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/model.cir"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace collage
