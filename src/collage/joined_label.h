// A descriptive label built by joining labels with '+' (a union of sub-graphs is labelled by
// its sides' labels), spelled out only when asked: the partitioner labels hundreds of thousands
// of candidate unions and prints a few of them.
//
// A label is an immutable tree: a leaf holds text, a join holds its two sides, shared with the
// labels it was joined from, so joining allocates one small node (a count and two pointers)
// whatever the lengths. Nodes count their references themselves (atomically: labels are copied
// across threads), which keeps a join at a third of a shared_ptr-based node's size; the
// partitioner holds a million of them. Neither spelling out nor releasing a label recurses, so
// joins may nest arbitrarily deep.
#pragma once

#include <string>

namespace collage {

class JoinedLabel {
 public:
  JoinedLabel() = default;
  JoinedLabel(std::string text);  // NOLINT(google-explicit-constructor): a label is its text
  JoinedLabel(const JoinedLabel& other);
  JoinedLabel(JoinedLabel&& other) noexcept : root_(other.root_) { other.root_ = nullptr; }
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
  struct Node;  // a leaf or a join, with its reference count
  struct LeafNode;
  struct JoinNode;
  static Node* Retained(Node* node);
  // Drops one reference and deletes every node left without one.
  static void Release(Node* node);

  Node* root_ = nullptr;  // null: the empty label; holds one reference; never modified once shared
};

}  // namespace collage
