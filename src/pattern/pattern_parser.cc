#include "pattern/pattern_parser.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "ir/op_registry.h"
#include "pattern/pattern_lexer.h"

namespace collage {
namespace {

using Kind = PatternTokenKind;

class PatternParser {
 public:
  PatternParser(std::string_view text, std::string file_name) : lexer_(text, std::move(file_name)) {
    current_ = lexer_.Next();
  }

  std::vector<LabelledPattern> ParseTable() {
    std::vector<LabelledPattern> entries;
    std::map<std::string, SourceLocation> label_locations;
    while (true) {
      SkipNewlines();
      if (current_.kind == Kind::kEnd) return entries;
      const PatternToken name = current_;
      if (name.kind != Kind::kName && name.kind != Kind::kSubPattern) {
        Fail(name, "expected a label (e.g. onednn.conv2d_relu) or a $name followed by ':=', found " +
                       DescribePatternToken(name));
      }
      Take();
      Expect(Kind::kDefine, "':=' after " + DescribePatternToken(name));
      Pattern pattern = ParseAlternatives();
      if (current_.kind != Kind::kNewline && current_.kind != Kind::kEnd) {
        Fail(current_, "expected the end of the line after the pattern, found " + DescribePatternToken(current_));
      }
      const SourceLocation location = lexer_.LocationOf(name.line, name.column);
      if (name.kind == Kind::kSubPattern) {
        auto [existing, inserted] = sub_patterns_.emplace(name.text, SubPattern{pattern, location});
        if (!inserted) {
          Fail(name, "sub-pattern '$" + name.text + "' is already defined at " + existing->second.location.ToString());
        }
      } else {
        auto [existing, inserted] = label_locations.emplace(name.text, location);
        if (!inserted)
          Fail(name, "duplicate label '" + name.text + "', first defined at " + existing->second.ToString());
        entries.push_back(LabelledPattern{name.text, pattern, location});
      }
    }
  }

  Pattern ParseSingle() {
    SkipNewlines();
    Pattern pattern = ParseAlternatives();
    SkipNewlines();
    if (current_.kind != Kind::kEnd) {
      Fail(current_, "expected the end of the pattern, found " + DescribePatternToken(current_));
    }
    return pattern;
  }

  std::map<std::string, Pattern> SubPatterns() const {
    std::map<std::string, Pattern> patterns;
    for (const auto& [name, sub_pattern] : sub_patterns_) patterns.emplace(name, sub_pattern.pattern);
    return patterns;
  }

 private:
  struct SubPattern {
    Pattern pattern;
    SourceLocation location;
  };

  [[noreturn]] void Fail(const PatternToken& at, const std::string& message) const {
    throw ParseError(lexer_.LocationOf(at.line, at.column), message);
  }

  PatternToken Take() {
    PatternToken taken = std::move(current_);
    current_ = lexer_.Next();
    return taken;
  }

  bool Accept(Kind kind) {
    if (current_.kind != kind) return false;
    Take();
    return true;
  }

  PatternToken Expect(Kind kind, const std::string& what) {
    if (current_.kind != kind) Fail(current_, "expected " + what + ", found " + DescribePatternToken(current_));
    return Take();
  }

  void SkipNewlines() {
    while (current_.kind == Kind::kNewline) Take();
  }

  // Runs a builder; its Error becomes a ParseError at `at`.
  template <typename Build>
  Pattern Built(const PatternToken& at, Build build) {
    try {
      return build();
    } catch (const ParseError&) {
      throw;
    } catch (const Error& error) {
      Fail(at, error.what());
    }
  }

  // Every nested pattern (a group, a tuple field, an argument) starts here, so this bounds
  // the recursion: deeper nesting is an error, not a stack overflow.
  Pattern ParseAlternatives() {
    if (nesting_ == kMaxNesting) {
      Fail(current_, "patterns nested deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ++nesting_;
    struct Unnest {
      int& nesting;
      ~Unnest() { --nesting; }
    } unnest{nesting_};
    Pattern pattern = ParsePostfix();
    while (current_.kind == Kind::kPipe) {
      Take();
      pattern = pattern | ParsePostfix();
    }
    return pattern;
  }

  Pattern ParsePostfix() {
    Pattern pattern = ParsePrimary();
    while (true) {
      const PatternToken at = current_;
      switch (current_.kind) {
        case Kind::kLeftParen: {
          Take();
          std::vector<Pattern> args = ParseList(Kind::kRightParen, "the call's arguments");
          pattern = pattern.CallWith(std::move(args));
          break;
        }
        case Kind::kLeftBrace: pattern = pattern.HasAttr(ParseAttrs()); break;
        case Kind::kColon:
          Take();
          pattern = ParseConstraint(pattern);
          break;
        case Kind::kDot: {
          Take();
          if (Accept(Kind::kStar)) {
            pattern = pattern.GetItem(kAnyTupleIndex);
          } else {
            const PatternToken index = Expect(Kind::kInteger, "a tuple index or '*' after '.'");
            pattern = pattern.GetItem(static_cast<int>(ParseInteger(index, std::numeric_limits<int>::max())));
          }
          break;
        }
        case Kind::kQuestion:
          Take();
          pattern = Built(at, [&] { return pattern.Optional(); });
          break;
        default: return pattern;
      }
    }
  }

  // Patterns separated by commas up to `close` (already past the opening bracket).
  std::vector<Pattern> ParseList(Kind close, const std::string& what) {
    std::vector<Pattern> items;
    if (Accept(close)) return items;
    while (true) {
      items.push_back(ParseAlternatives());
      if (Accept(close)) return items;
      Expect(Kind::kComma, "',' or the closing bracket of " + what);
    }
  }

  Pattern ParsePrimary() {
    const PatternToken token = current_;
    switch (token.kind) {
      case Kind::kStar: Take(); return Wildcard();
      case Kind::kVarName: Take(); return IsVar(token.text);
      case Kind::kSubPattern: {
        Take();
        auto found = sub_patterns_.find(token.text);
        if (found == sub_patterns_.end()) {
          Fail(token, "unknown sub-pattern '$" + token.text + "'; define it on an earlier line with '$" + token.text +
                          " := ...'");
        }
        return found->second.pattern;
      }
      case Kind::kLeftParen: return ParseParenthesized();
      case Kind::kName: {
        Take();
        if (token.text == "const") return IsConstant();
        if (token.text == "var") return IsVar();
        if (token.text == "dominates") return ParseDominates(token);
        if (OpRegistry::Global().Find(token.text) == nullptr) {
          Fail(token, "unknown op '" + token.text + "'; expected a registered op name, '*', const, var or dominates");
        }
        return IsOp(token.text);
      }
      default:
        Fail(token, "expected a pattern ('*', const, var, %name, an op name, $name, dominates or '('), found " +
                        DescribePatternToken(token));
    }
  }

  // After '(': a grouped pattern or a tuple.
  Pattern ParseParenthesized() {
    Take();
    if (Accept(Kind::kRightParen)) return IsTuple({});
    Pattern first = ParseAlternatives();
    if (Accept(Kind::kRightParen)) return first;
    Expect(Kind::kComma, "',' or ')' after a parenthesized pattern");
    std::vector<Pattern> fields{first};
    for (Pattern& field : ParseList(Kind::kRightParen, "the tuple")) fields.push_back(std::move(field));
    return IsTuple(std::move(fields));
  }

  Pattern ParseDominates(const PatternToken& keyword) {
    Expect(Kind::kLeftParen, "'(' after dominates");
    std::vector<Pattern> operands = ParseList(Kind::kRightParen, "dominates(...)");
    if (operands.size() != 3) {
      Fail(keyword, "dominates takes 3 patterns (parent, path, child), got " + std::to_string(operands.size()));
    }
    return Dominates(operands[0], operands[1], operands[2]);
  }

  Attrs ParseAttrs() {
    Take();  // '{'
    Attrs attrs;
    while (true) {
      const PatternToken name = Expect(Kind::kName, "an attribute name in '{...}'");
      if (attrs.Has(name.text)) Fail(name, "attribute '" + name.text + "' is constrained twice");
      Expect(Kind::kEquals, "'=' after the attribute name '" + name.text + "'");
      attrs.Set(name.text, ParseAttrValue());
      if (Accept(Kind::kRightBrace)) return attrs;
      Expect(Kind::kComma, "',' or '}' after an attribute value");
    }
  }

  AttrValue ParseAttrValue() {
    if (current_.kind == Kind::kString) return Take().text;
    if (Accept(Kind::kLeftBracket)) {
      std::vector<AttrValue> numbers;
      bool any_float = false;
      if (!Accept(Kind::kRightBracket)) {
        while (true) {
          numbers.push_back(ParseNumber());
          any_float = any_float || KindOf(numbers.back()) == AttrKind::kFloat;
          if (Accept(Kind::kRightBracket)) break;
          Expect(Kind::kComma, "',' or ']' in a list value");
        }
      }
      if (any_float) {
        std::vector<double> floats;
        for (const AttrValue& number : numbers) {
          floats.push_back(KindOf(number) == AttrKind::kInt ? static_cast<double>(std::get<int64_t>(number))
                                                            : std::get<double>(number));
        }
        return floats;
      }
      std::vector<int64_t> ints;
      for (const AttrValue& number : numbers) ints.push_back(std::get<int64_t>(number));
      return ints;
    }
    return ParseNumber();
  }

  AttrValue ParseNumber() {
    const bool negative = Accept(Kind::kMinus);
    const PatternToken token = current_;
    if (token.kind == Kind::kInteger) {
      Take();
      const int64_t magnitude = ParseInteger(token, std::numeric_limits<int64_t>::max());
      return negative ? -magnitude : magnitude;
    }
    if (token.kind == Kind::kFloat || (token.kind == Kind::kName && (token.text == "inf" || token.text == "nan"))) {
      Take();
      double value = token.text == "inf"   ? std::numeric_limits<double>::infinity()
                     : token.text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                           : std::strtod(token.text.c_str(), nullptr);
      if (!std::isfinite(value) && token.kind == Kind::kFloat) Fail(token, "number " + token.text + " is out of range");
      return negative ? -value : value;
    }
    Fail(token, "expected a value (a number, a string or a [list]), found " + DescribePatternToken(token));
  }

  int64_t ParseInteger(const PatternToken& token, int64_t max) {
    int64_t value = 0;
    const char* end = token.text.data() + token.text.size();
    auto [ptr, error] = std::from_chars(token.text.data(), end, value);
    if (error != std::errc() || ptr != end || value > max) Fail(token, "integer " + token.text + " is out of range");
    return value;
  }

  DType DTypeNamed(const PatternToken& name) const {
    std::optional<DType> dtype = ParseDType(name.text);
    if (!dtype) Fail(name, "unknown dtype '" + name.text + "'; expected f32, f16, bf16, i8, u8, i32, i64 or bool");
    return *dtype;
  }

  Pattern ParseConstraint(const Pattern& pattern) {
    const PatternToken token = current_;
    if (token.kind == Kind::kName && token.text != "Tensor") return pattern.HasDType(DTypeNamed(Take()));
    if (token.kind == Kind::kLeftParen) {
      Take();
      if (current_.kind == Kind::kInteger || current_.kind == Kind::kRightParen) {
        return pattern.HasShape(ParseShapeRest());
      }
      return pattern.HasType(ParseTupleTypeRest());
    }
    if (token.kind == Kind::kName) return pattern.HasType(ParseType());
    Fail(token, "expected a dtype (f32), a shape ((1, 3)) or a type (Tensor[(1, 3), f32]) after ':', found " +
                    DescribePatternToken(token));
  }

  // After '(': dimensions up to ')'.
  Shape ParseShapeRest() {
    Shape shape;
    if (Accept(Kind::kRightParen)) return shape;
    while (true) {
      shape.push_back(ParseInteger(Expect(Kind::kInteger, "a dimension"), std::numeric_limits<int64_t>::max()));
      if (Accept(Kind::kRightParen)) return shape;
      Expect(Kind::kComma, "',' or ')' in a shape");
      if (Accept(Kind::kRightParen)) return shape;
    }
  }

  Type ParseType() {
    if (Accept(Kind::kLeftParen)) return ParseTupleTypeRest();
    const PatternToken token = current_;
    if (token.kind != Kind::kName || token.text != "Tensor") {
      Fail(token, "expected a type (Tensor[...] or a tuple of types), found " + DescribePatternToken(token));
    }
    Take();
    Expect(Kind::kLeftBracket, "'[' after Tensor");
    Expect(Kind::kLeftParen, "a shape such as (1, 3) in Tensor[...]");
    Shape shape = ParseShapeRest();
    Expect(Kind::kComma, "',' after the shape in Tensor[...]");
    const DType dtype = DTypeNamed(Expect(Kind::kName, "a dtype in Tensor[...]"));
    Expect(Kind::kRightBracket, "']' after the dtype in Tensor[...]");
    return TensorType(dtype, std::move(shape));
  }

  // After '(': field types up to ')'.
  Type ParseTupleTypeRest() {
    std::vector<Type> fields;
    while (!Accept(Kind::kRightParen)) {
      fields.push_back(ParseType());
      if (Accept(Kind::kRightParen)) break;
      Expect(Kind::kComma, "',' or ')' in a tuple type");
    }
    return TupleType(std::move(fields));
  }

  static constexpr int kMaxNesting = 256;

  PatternLexer lexer_;
  PatternToken current_;
  std::map<std::string, SubPattern> sub_patterns_;
  int nesting_ = 0;
};

}  // namespace

std::vector<LabelledPattern> ParsePatternTable(std::string_view text, const std::string& file_name) {
  return PatternParser(text, file_name).ParseTable();
}

PatternDefinitions ParsePatternDefinitions(std::string_view text, const std::string& file_name) {
  PatternParser parser(text, file_name);
  PatternDefinitions definitions;
  definitions.entries = parser.ParseTable();
  definitions.sub_patterns = parser.SubPatterns();
  return definitions;
}

std::vector<LabelledPattern> ParsePatternTableFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error(path + ": cannot read the pattern table file");
  std::ostringstream text;
  text << file.rdbuf();
  return ParsePatternTable(text.str(), path);
}

Pattern ParsePattern(std::string_view text, const std::string& file_name) {
  return PatternParser(text, file_name).ParseSingle();
}

}  // namespace collage
