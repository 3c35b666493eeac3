// Parses the text format of docs/TEXT_FORMAT.md into a Module, then type-checks it.
//
// A recursive-descent parser over the on-demand Lexer with a small lookahead buffer.
// Bindings are parsed in a loop, so recursion depth grows only with inline nesting of
// expressions, types and functions, which is capped at kMaxNesting. Every node the parser
// creates carries its source location, so TypeErrors from InferType point into the text.
#include "parser/parser.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "parser/lexer.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

constexpr int kMaxNesting = 256;

// A `: Type` or `-> Type` written in the text, checked against the inferred type.
struct Annotation {
  Expr node;
  Type type;
  SourceLocation location;
  std::string what;  // how the annotated value reads in the message; empty: DescribeExpr
};

struct ParsedDefinition {
  std::string name;
  Function function;
  std::vector<Annotation> annotations;
};

struct NamedValue {
  Expr value;
  int line;
  int column;
};

// The number of elements of `shape`; nullopt when it overflows int64.
std::optional<int64_t> ElementCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dimension : shape) {
    if (dimension == 0) return 0;
  }
  for (int64_t dimension : shape) {
    if (__builtin_mul_overflow(count, dimension, &count)) return std::nullopt;
  }
  return count;
}

std::string DTypeList() {
  std::string names;
  for (DType dtype : AllDTypes()) {
    names += (names.empty() ? "" : ", ") + std::string(DTypeName(dtype));
  }
  return names;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file_name, const std::vector<Tensor>& meta_table)
      : lexer_(text, file_name), meta_table_(meta_table) {}

  Module Parse() {
    std::vector<ParsedDefinition> definitions;
    std::unordered_map<std::string, Token> definition_names;
    while (Peek().kind != TokenKind::kEnd) {
      const Token keyword = Peek();
      if (keyword.kind != TokenKind::kIdentifier || keyword.text != "def") {
        Fail(keyword, "expected 'def' but found " + DescribeToken(keyword));
      }
      Take();
      const Token name = Expect(TokenKind::kGlobal, "a function name such as @main");
      auto [previous, inserted] = definition_names.emplace(name.text, name);
      if (!inserted) {
        Fail(name, "duplicate function @" + name.text + " (first defined at " + LineColumn(previous->second) + ")");
      }
      annotations_.clear();
      Function function = ParseFunctionRest(name, 0);
      definitions.push_back(ParsedDefinition{name.text, std::move(function), std::move(annotations_)});
    }
    Module module;
    for (const ParsedDefinition& definition : definitions) {
      InferType(definition.function);
      CheckAnnotations(definition.annotations);
      module.Add(definition.name, definition.function);
    }
    return module;
  }

 private:
  // ---- tokens ----

  const Token& Peek(size_t ahead = 0) {
    assert(ahead < lookahead_.size() && "the parser looks at most one token past the next");
    while (lookahead_count_ <= ahead) {
      lookahead_[(lookahead_begin_ + lookahead_count_) % lookahead_.size()] = lexer_.Next();
      ++lookahead_count_;
    }
    return lookahead_[(lookahead_begin_ + ahead) % lookahead_.size()];
  }

  Token Take() {
    Peek();
    Token token = std::move(lookahead_[lookahead_begin_]);
    lookahead_begin_ = (lookahead_begin_ + 1) % lookahead_.size();
    --lookahead_count_;
    last_line_ = token.line;
    return token;
  }

  bool PeekIs(TokenKind kind, size_t ahead = 0) { return Peek(ahead).kind == kind; }
  bool PeekWord(std::string_view word, size_t ahead = 0) {
    return Peek(ahead).kind == TokenKind::kIdentifier && Peek(ahead).text == word;
  }

  bool TakeIf(TokenKind kind) {
    if (!PeekIs(kind)) return false;
    Take();
    return true;
  }

  // Consumes a token of `kind`; `expected` overrides how the expectation reads.
  Token Expect(TokenKind kind, std::string_view expected = {}) {
    if (!PeekIs(kind)) {
      Fail(Peek(), "expected " + (expected.empty() ? DescribeTokenKind(kind) : std::string(expected)) +
                       " but found " + DescribeToken(Peek()));
    }
    return Take();
  }

  // After an element of a list closed by `close`: consumes ',' and returns true (another element
  // follows), or consumes `close` and returns false.
  bool ListContinues(TokenKind close) {
    if (TakeIf(close)) return false;
    if (TakeIf(TokenKind::kComma)) return true;
    Fail(Peek(), "expected ',' or " + DescribeTokenKind(close) + " but found " + DescribeToken(Peek()));
  }

  SourceLocation Location(const Token& token) const { return lexer_.LocationOf(token.line, token.column); }
  static std::string LineColumn(const Token& token) {
    return std::to_string(token.line) + ":" + std::to_string(token.column);
  }

  [[noreturn]] void Fail(const Token& at, const std::string& message) const { throw ParseError(Location(at), message); }

  template <typename NodePtr>
  NodePtr Located(NodePtr node, const Token& at) const {
    node->set_location(Location(at));
    return node;
  }

  void CheckNesting(int depth) {
    if (depth > kMaxNesting) {
      Fail(Peek(), "nesting deeper than " + std::to_string(kMaxNesting) + " levels (use bindings)");
    }
  }

  // ---- numbers and attribute values ----

  int64_t ParseInteger(const Token& token) const {
    int64_t value = 0;
    const char* end = token.text.data() + token.text.size();
    auto [ptr, error] = std::from_chars(token.text.data(), end, value);
    if (error != std::errc() || ptr != end) Fail(token, "bad number '" + token.text + "': out of range for int64");
    return value;
  }

  static bool IsNumber(const Token& token) {
    return token.kind == TokenKind::kInteger || token.kind == TokenKind::kFloat ||
           (token.kind == TokenKind::kIdentifier && (token.text == "inf" || token.text == "nan"));
  }

  // `token` must satisfy IsNumber.
  template <typename Floating>
  Floating ParseFloating(const Token& token) const {
    std::string_view text = token.text;
    const bool negative = !text.empty() && text[0] == '-';
    const std::string_view magnitude = negative ? text.substr(1) : text;
    const Floating sign = negative ? Floating(-1) : Floating(1);
    if (magnitude == "inf") return sign * std::numeric_limits<Floating>::infinity();
    if (magnitude == "nan") return std::copysign(std::numeric_limits<Floating>::quiet_NaN(), sign);
    Floating value{};
    auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || ptr != text.data() + text.size()) {
      Fail(token, "bad number '" + token.text + "': out of range for " +
                      (sizeof(Floating) == sizeof(float) ? "a 32-bit float" : "a 64-bit float"));
    }
    return value;
  }

  AttrValue ParseAttrValue() {
    const Token token = Peek();
    if (token.kind == TokenKind::kString) return Take().text;
    if (token.kind == TokenKind::kInteger) return ParseInteger(Take());
    if (IsNumber(token)) return ParseFloating<double>(Take());
    if (token.kind != TokenKind::kLeftBracket) {
      Fail(token, "expected an attribute value (a number, a string or a [list]) but found " + DescribeToken(token));
    }
    Take();
    std::vector<Token> elements;
    bool any_float = false;
    if (!TakeIf(TokenKind::kRightBracket)) {
      do {
        if (!IsNumber(Peek()))
          Fail(Peek(), "expected a number in an attribute list but found " + DescribeToken(Peek()));
        any_float |= Peek().kind != TokenKind::kInteger;
        elements.push_back(Take());
      } while (ListContinues(TokenKind::kRightBracket));
    }
    if (any_float) {
      std::vector<double> values;
      for (const Token& element : elements) values.push_back(ParseFloating<double>(element));
      return values;
    }
    std::vector<int64_t> values;
    for (const Token& element : elements) values.push_back(ParseInteger(element));
    return values;
  }

  // `name=value` where the name is an identifier or a string; records the name token.
  void ParseAttr(Attrs& attrs, std::vector<Token>& name_tokens) {
    const Token name = Take();
    Take();  // '='
    if (attrs.Has(name.text)) Fail(name, "duplicate attribute '" + name.text + "'");
    attrs.Set(name.text, ParseAttrValue());
    name_tokens.push_back(name);
  }

  bool PeekAttr() {
    return (PeekIs(TokenKind::kIdentifier) || PeekIs(TokenKind::kString)) && PeekIs(TokenKind::kEquals, 1);
  }

  // ---- types ----

  Type ParseType(int depth) {
    CheckNesting(depth);
    const Token token = Peek();
    if (PeekWord("Tensor")) {
      Take();
      Expect(TokenKind::kLeftBracket);
      Expect(TokenKind::kLeftParen, "'(' starting the shape");
      Shape shape;
      if (!TakeIf(TokenKind::kRightParen)) {
        while (true) {
          const Token dimension = Expect(TokenKind::kInteger, "a dimension");
          shape.push_back(ParseInteger(dimension));
          if (shape.back() < 0) Fail(dimension, "negative dimension " + dimension.text);
          if (TakeIf(TokenKind::kRightParen)) break;
          Expect(TokenKind::kComma, "',' or ')'");
          if (TakeIf(TokenKind::kRightParen)) break;
        }
      }
      Expect(TokenKind::kComma);
      const Token dtype_name = Peek();
      std::optional<DType> dtype;
      if (dtype_name.kind == TokenKind::kIdentifier) dtype = ParseDType(dtype_name.text);
      if (!dtype) Fail(dtype_name, "bad dtype " + DescribeToken(dtype_name) + " (expected one of " + DTypeList() + ")");
      Take();
      Expect(TokenKind::kRightBracket);
      try {
        return TensorType(*dtype, std::move(shape));
      } catch (const TypeError& error) {
        Fail(token, error.what());
      }
    }
    if (token.kind == TokenKind::kLeftParen) {
      Take();
      std::vector<Type> fields;
      if (TakeIf(TokenKind::kRightParen)) return TupleType({});
      fields.push_back(ParseType(depth + 1));
      if (TakeIf(TokenKind::kRightParen)) Fail(token, "a 1-tuple type needs a trailing comma: (T,)");
      Expect(TokenKind::kComma, "',' or ')'");
      while (!TakeIf(TokenKind::kRightParen)) {
        fields.push_back(ParseType(depth + 1));
        if (!ListContinues(TokenKind::kRightParen)) break;
      }
      return TupleType(std::move(fields));
    }
    if (PeekWord("fn")) {
      Take();
      Expect(TokenKind::kLeftParen);
      std::vector<Type> params;
      if (!TakeIf(TokenKind::kRightParen)) {
        do {
          params.push_back(ParseType(depth + 1));
        } while (ListContinues(TokenKind::kRightParen));
      }
      Expect(TokenKind::kArrow);
      return FuncType(std::move(params), ParseType(depth + 1));
    }
    Fail(token, "expected a type (Tensor[...], a tuple type or fn (...) -> ...) but found " + DescribeToken(token));
  }

  // ---- scopes ----

  void Declare(const Token& name, Expr value) {
    auto [previous, inserted] = scopes_.back().emplace(name.text, NamedValue{value, name.line, name.column});
    if (!inserted) {
      Fail(name, "duplicate binding name %" + name.text + " (first defined at " +
                     std::to_string(previous->second.line) + ":" + std::to_string(previous->second.column) + ")");
    }
  }

  Expr Lookup(const Token& name) {
    auto found = scopes_.back().find(name.text);
    if (found != scopes_.back().end()) return found->second.value;
    for (size_t i = 0; i + 1 < scopes_.size(); ++i) {
      if (scopes_[i].count(name.text)) {
        Fail(name, "undefined variable %" + name.text +
                       " in this function (it is defined in an enclosing function; functions are closed, so pass it "
                       "as a parameter)");
      }
    }
    Fail(name, "undefined variable %" + name.text);
  }

  // ---- functions ----

  // From the parameter list of `def @name(...)` or `fn (...)` to the closing '}'.
  Function ParseFunctionRest(const Token& start, int depth) {
    CheckNesting(depth);
    scopes_.emplace_back();
    Expect(TokenKind::kLeftParen, "'(' starting the parameters");
    std::vector<Var> params;
    if (!TakeIf(TokenKind::kRightParen)) {
      do {
        const Token name = Expect(TokenKind::kLocal, "a parameter such as %x");
        Type type = TakeIf(TokenKind::kColon) ? ParseType(depth + 1) : nullptr;
        Var param = Located(MakeVar(name.text, std::move(type)), name);
        Declare(name, param);
        params.push_back(std::move(param));
      } while (ListContinues(TokenKind::kRightParen));
    }
    std::optional<Annotation> result_annotation;
    if (TakeIf(TokenKind::kArrow)) {
      const Token type_start = Peek();
      result_annotation = Annotation{nullptr, ParseType(depth + 1), Location(type_start), "the function's result"};
    }
    Attrs attrs;
    if (PeekWord("attrs")) {
      Take();
      Expect(TokenKind::kLeftParen, "'(' after attrs");
      std::vector<Token> names;
      if (!TakeIf(TokenKind::kRightParen)) {
        do {
          if (!PeekAttr()) Fail(Peek(), "expected name=value but found " + DescribeToken(Peek()));
          ParseAttr(attrs, names);
        } while (ListContinues(TokenKind::kRightParen));
      }
    }
    Expect(TokenKind::kLeftBrace, "'{' starting the function body");
    while (PeekIs(TokenKind::kLocal) && PeekIs(TokenKind::kEquals, 1)) ParseBinding(depth);
    if (PeekIs(TokenKind::kLocal)) {
      const TokenKind next = Peek(1).kind;
      if (next != TokenKind::kDot && next != TokenKind::kLeftParen && next != TokenKind::kRightBrace &&
          next != TokenKind::kEnd) {
        Fail(Peek(1), "expected '=' after %" + Peek().text + " but found " + DescribeToken(Peek(1)));
      }
    }
    if (PeekIs(TokenKind::kRightBrace)) Fail(Peek(), "expected the function's result before '}'");
    Expr body = ParseExpr(depth + 1);
    Expect(TokenKind::kRightBrace, "'}' after the function's result");
    scopes_.pop_back();
    if (result_annotation) {
      result_annotation->node = body;
      annotations_.push_back(std::move(*result_annotation));
    }
    return Located(MakeFunction(std::move(params), std::move(body), std::move(attrs)), start);
  }

  // `%name = expr [: Type]`
  void ParseBinding(int depth) {
    const Token name = Take();
    Take();  // '='
    Expr value = ParseExpr(depth + 1);
    if (TakeIf(TokenKind::kColon)) {
      const Token type_start = Peek();
      annotations_.push_back(Annotation{value, ParseType(depth + 1), Location(type_start), ""});
    }
    Declare(name, std::move(value));
  }

  // ---- expressions ----

  Expr ParseExpr(int depth) {
    CheckNesting(depth);
    const Token start = Peek();
    Expr expr = ParsePrimary(depth);
    while (true) {
      if (TakeIf(TokenKind::kDot)) {
        const Token index = Expect(TokenKind::kInteger, "a tuple index after '.'");
        const int64_t value = ParseInteger(index);
        if (value < 0 || value > std::numeric_limits<int>::max()) Fail(index, "bad tuple index " + index.text);
        expr = Located(MakeTupleGetItem(std::move(expr), static_cast<int>(value)), start);
      } else if (PeekIs(TokenKind::kLeftParen) && Peek().line == last_line_) {
        if (expr->kind() != ExprKind::kFunction) {
          Fail(start, "cannot call " + DescribeToken(start) + ": it is a " + DescribeExpr(*expr) + ", not a function");
        }
        Take();
        Arguments arguments = ParseArguments(depth);
        expr = Located(MakeCall(std::move(expr), std::move(arguments.args), std::move(arguments.attrs)), start);
      } else {
        return expr;
      }
    }
  }

  Expr ParsePrimary(int depth) {
    const Token token = Peek();
    switch (token.kind) {
      case TokenKind::kLocal: Take(); return Lookup(token);
      case TokenKind::kLeftParen: Take(); return ParseParenthesized(token, depth);
      case TokenKind::kIdentifier:
        if (token.text == "fn") {
          Take();
          return ParseFunctionRest(token, depth + 1);
        }
        if (token.text == "constant" && PeekIs(TokenKind::kLeftParen, 1)) {
          Take();
          return ParseConstant(token, depth);
        }
        if (PeekIs(TokenKind::kLeftParen, 1)) {
          Take();
          return ParseOpCall(token, depth);
        }
        break;
      case TokenKind::kGlobal:
        Fail(token,
             "cannot refer to the global function @" + token.text + " (calls go to an op or to an inline fn binding)");
      case TokenKind::kInteger:
      case TokenKind::kFloat:
        Fail(token, "expected an expression but found " + DescribeToken(token) + " (write scalars as constant([" +
                        token.text + "], Tensor[(), f32]))");
      default: break;
    }
    Fail(token, "expected an expression but found " + DescribeToken(token));
  }

  // After '(': `()`, `(e)` (grouping), `(e,)`, `(e1, e2, ...)`.
  Expr ParseParenthesized(const Token& open, int depth) {
    if (TakeIf(TokenKind::kRightParen)) return Located(MakeTuple({}), open);
    Expr first = ParseExpr(depth + 1);
    if (TakeIf(TokenKind::kRightParen)) return first;
    Expect(TokenKind::kComma, "',' or ')'");
    std::vector<Expr> fields{std::move(first)};
    while (!TakeIf(TokenKind::kRightParen)) {
      fields.push_back(ParseExpr(depth + 1));
      if (!ListContinues(TokenKind::kRightParen)) break;
    }
    return Located(MakeTuple(std::move(fields)), open);
  }

  struct Arguments {
    std::vector<Expr> args;
    Attrs attrs;
    std::vector<Token> attr_names;
  };

  // After '(' up to and including ')': positional arguments, then name=value attributes.
  Arguments ParseArguments(int depth) {
    Arguments result;
    if (TakeIf(TokenKind::kRightParen)) return result;
    do {
      if (PeekAttr()) {
        ParseAttr(result.attrs, result.attr_names);
      } else {
        if (!result.attrs.empty()) Fail(Peek(), "positional argument after attributes");
        result.args.push_back(ParseExpr(depth + 1));
      }
    } while (ListContinues(TokenKind::kRightParen));
    return result;
  }

  Expr ParseOpCall(const Token& name, int depth) {
    const OpDef* op = OpRegistry::Global().Find(name.text);
    if (op == nullptr) Fail(name, "unknown op '" + name.text + "'");
    Take();  // '('
    Arguments arguments = ParseArguments(depth);
    Attrs attrs;
    try {
      attrs = NormalizeAttrs(*op, arguments.attrs);
    } catch (const TypeError& error) {
      // Point at the attribute the message names, else at the op.
      const std::string message = error.what();
      const Token* at = &name;
      for (const Token& attr_name : arguments.attr_names) {
        if (message.find("'" + attr_name.text + "'") != std::string::npos) at = &attr_name;
      }
      Fail(*at, message);
    }
    return Located(MakeCall(GetOp(name.text), std::move(arguments.args), std::move(attrs)), name);
  }

  // After 'constant': `([v0, v1, ...], Type)` or `(meta[K], Type)`.
  Expr ParseConstant(const Token& keyword, int depth) {
    Take();  // '('
    if (PeekWord("meta")) {
      Take();
      Expect(TokenKind::kLeftBracket, "'[' after meta");
      const Token index = Expect(TokenKind::kInteger, "a meta index");
      Expect(TokenKind::kRightBracket);
      Expect(TokenKind::kComma);
      const Token type_start = Peek();
      const Type written_type = ParseConstantType(depth);
      const TensorTypeNode* type = AsTensorType(written_type);
      Expect(TokenKind::kRightParen);
      const int64_t position = ParseInteger(index);
      if (position < 0 || position >= static_cast<int64_t>(meta_table_.size())) {
        Fail(index, "constant meta[" + index.text + "] has no data in this file (it was printed without its values; " +
                        std::to_string(meta_table_.size()) + " meta constants were supplied)");
      }
      const Tensor& data = meta_table_[static_cast<size_t>(position)];
      if (data.dtype() != type->dtype || data.shape() != type->shape) {
        Fail(type_start, "meta[" + index.text + "] holds a " + TypeToString(TensorType(data.dtype(), data.shape())) +
                             " but the constant is written as " + TypeToString(written_type));
      }
      return Located(MakeConstant(data), keyword);
    }
    Expect(TokenKind::kLeftBracket, "'[' starting the constant's values");
    std::vector<Token> values;
    if (!TakeIf(TokenKind::kRightBracket)) {
      do {
        if (!IsNumber(Peek())) Fail(Peek(), "expected a number in a constant but found " + DescribeToken(Peek()));
        values.push_back(Take());
      } while (ListContinues(TokenKind::kRightBracket));
    }
    Expect(TokenKind::kComma);
    const Type written_type = ParseConstantType(depth);
    const TensorTypeNode* type = AsTensorType(written_type);
    Expect(TokenKind::kRightParen);
    // Counted before allocating, so a huge written shape is an error, not an allocation.
    const std::optional<int64_t> count = ElementCount(type->shape);
    if (!count || *count != static_cast<int64_t>(values.size())) {
      Fail(keyword, "constant has " + std::to_string(values.size()) + " values but its type " +
                        TypeToString(written_type) + " holds " + (count ? std::to_string(*count) : "too many"));
    }
    Tensor data = Tensor::Zeros(type->dtype, type->shape);
    for (size_t i = 0; i < values.size(); ++i) StoreElement(data, static_cast<int64_t>(i), values[i]);
    return Located(MakeConstant(std::move(data)), keyword);
  }

  // A type that must be a tensor type.
  Type ParseConstantType(int depth) {
    const Token type_start = Peek();
    Type type = ParseType(depth + 1);
    if (AsTensorType(type) == nullptr) {
      Fail(type_start, "a constant's type must be a tensor type, not " + TypeToString(type));
    }
    return type;
  }

  void StoreElement(Tensor& data, int64_t index, const Token& token) const {
    const DType dtype = data.dtype();
    if (IsFloatingPoint(dtype)) {
      // f16 / bf16 values are printed as the exact float they hold, so float parsing is exact.
      data.SetFromDouble(index, dtype == DType::kF64 ? ParseFloating<double>(token) : ParseFloating<float>(token));
      return;
    }
    if (token.kind != TokenKind::kInteger) {
      Fail(token,
           "expected an integer in a " + std::string(DTypeName(dtype)) + " constant but found " + DescribeToken(token));
    }
    const int64_t value = ParseInteger(token);
    const auto [low, high] = Int64Range(dtype);
    if (value < low || value > high) {
      Fail(token, "value " + token.text + " is out of range for " + std::string(DTypeName(dtype)));
    }
    if (dtype == DType::kI64) {
      data.data<int64_t>()[index] = value;
    } else if (dtype == DType::kU64) {
      data.data<uint64_t>()[index] = static_cast<uint64_t>(value);  // in range: not negative
    } else {
      data.SetFromDouble(index, static_cast<double>(value));  // exact: |value| < 2^32
    }
  }

  // ---- type checking ----

  static void CheckAnnotations(const std::vector<Annotation>& annotations) {
    for (const Annotation& annotation : annotations) {
      const Type& inferred = annotation.node->checked_type();
      if (TypeEqual(inferred, annotation.type)) continue;
      const std::string what = annotation.what.empty() ? DescribeExpr(*annotation.node) : annotation.what;
      throw TypeError(annotation.location.ToString() + ": annotated type " + TypeToString(annotation.type) +
                      " does not match inferred type " + TypeToString(inferred) + " of " + what);
    }
  }

  Lexer lexer_;
  const std::vector<Tensor>& meta_table_;
  // The tokens read ahead, a ring of lookahead_count_ from lookahead_begin_ on.
  std::array<Token, 2> lookahead_;
  size_t lookahead_begin_ = 0;
  size_t lookahead_count_ = 0;
  int last_line_ = 0;
  // Names visible in each open function, innermost last; functions are closed, so lookups
  // use only the innermost (the others serve error messages).
  std::vector<std::unordered_map<std::string, NamedValue>> scopes_;
  std::vector<Annotation> annotations_;  // of the definition being parsed
};

}  // namespace

Module ParseModule(std::string_view text, const std::string& file_name, const std::vector<Tensor>& meta_table) {
  return Parser(text, file_name, meta_table).Parse();
}

Module ParseModuleFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("cannot read IR file '" + path + "'");
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) throw Error("cannot read IR file '" + path + "'");
  return ParseModule(contents.str(), path);
}

}  // namespace collage
