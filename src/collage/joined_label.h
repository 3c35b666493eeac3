// A descriptive label built by joining labels with '+' (a union of sub-graphs is labelled by
// its sides' labels), spelled out only when asked: the partitioner labels hundreds of thousands
// of candidate unions and prints a few of them.
//
// A label is an immutable tree: a leaf holds text, a join holds its two sides, shared with the
// labels it was joined from, so joining allocates one small node whatever the lengths. Neither
// spelling out nor releasing a label recurses, so joins may nest arbitrarily deep.
#pragma once

#include <memory>
#include <string>

namespace collage {

class JoinedLabel {
 public:
  JoinedLabel() = default;
  JoinedLabel(std::string text);  // NOLINT(google-explicit-constructor): a label is its text
  JoinedLabel(const JoinedLabel&) = default;
  JoinedLabel(JoinedLabel&&) noexcept = default;
  // Assignments hand the replaced label to a temporary, whose destructor releases it.
  JoinedLabel& operator=(const JoinedLabel& other);
  JoinedLabel& operator=(JoinedLabel&& other) noexcept;
  // Releases the nodes it alone holds without recursion.
  ~JoinedLabel();

  // first + "+" + second.
  static JoinedLabel Join(const JoinedLabel& first, const JoinedLabel& second);

  // The label's text (built on each call, without recursion however deep the joins).
  std::string ToString() const;
  bool empty() const;

 private:
  struct Node {
    bool is_join = false;
    std::string text;             // a leaf's text
    std::shared_ptr<Node> first;  // a join's sides (null where empty)
    std::shared_ptr<Node> second;
  };

  std::shared_ptr<Node> root_;  // null: the empty label; never modified once shared
};

}  // namespace collage
