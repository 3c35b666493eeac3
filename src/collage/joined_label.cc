#include "collage/joined_label.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace collage {

struct JoinedLabel::Node {
  std::atomic<uint32_t> references{1};
  bool is_join = false;
};

struct JoinedLabel::LeafNode : Node {
  explicit LeafNode(std::string leaf_text) : text(std::move(leaf_text)) {}
  std::string text;
};

// Holds one reference to each side (null where the side is empty).
struct JoinedLabel::JoinNode : Node {
  JoinNode(Node* first_side, Node* second_side) : first(first_side), second(second_side) { is_join = true; }
  Node* first;
  Node* second;
};

JoinedLabel::Node* JoinedLabel::Retained(Node* node) {
  if (node != nullptr) node->references.fetch_add(1, std::memory_order_relaxed);
  return node;
}

// Iterative: a join whose two sides both die puts one aside, so a list is allocated only for
// trees released whole.
void JoinedLabel::Release(Node* node) {
  // Drops one reference to a node; returns it when that was the last, for deleting.
  auto dropped_last = [](Node* dropped) {
    return dropped != nullptr && dropped->references.fetch_sub(1, std::memory_order_acq_rel) == 1 ? dropped : nullptr;
  };
  node = dropped_last(node);
  std::vector<Node*> dying;
  while (node != nullptr) {
    Node* next = nullptr;
    if (node->is_join) {
      auto* join = static_cast<JoinNode*>(node);
      Node* first = dropped_last(join->first);
      Node* second = dropped_last(join->second);
      delete join;
      next = first != nullptr ? first : second;
      if (first != nullptr && second != nullptr) dying.push_back(second);
    } else {
      delete static_cast<LeafNode*>(node);
    }
    if (next == nullptr && !dying.empty()) {
      next = dying.back();
      dying.pop_back();
    }
    node = next;
  }
}

JoinedLabel::JoinedLabel(std::string text) {
  if (!text.empty()) root_ = new LeafNode(std::move(text));
}

JoinedLabel::JoinedLabel(const JoinedLabel& other) : root_(Retained(other.root_)) {}

JoinedLabel JoinedLabel::Join(const JoinedLabel& first, const JoinedLabel& second) {
  JoinedLabel joined;
  joined.root_ = new JoinNode(Retained(first.root_), Retained(second.root_));
  return joined;
}

JoinedLabel& JoinedLabel::operator=(const JoinedLabel& other) {
  JoinedLabel replaced(other);
  std::swap(root_, replaced.root_);
  return *this;
}

JoinedLabel& JoinedLabel::operator=(JoinedLabel&& other) noexcept {
  JoinedLabel replaced(std::move(other));
  std::swap(root_, replaced.root_);
  return *this;
}

JoinedLabel::~JoinedLabel() { Release(root_); }

bool JoinedLabel::empty() const { return root_ == nullptr; }

std::string JoinedLabel::ToString() const {
  // Depth first, left to right, with each join's separator pending between its two sides.
  std::string text;
  struct Pending {
    const Node* node;
    bool separator;
  };
  std::vector<Pending> pending = {{root_, false}};
  while (!pending.empty()) {
    const Pending next = pending.back();
    pending.pop_back();
    if (next.separator) {
      text += '+';
      continue;
    }
    if (next.node == nullptr) continue;
    if (!next.node->is_join) {
      text += static_cast<const LeafNode*>(next.node)->text;
      continue;
    }
    const auto* join = static_cast<const JoinNode*>(next.node);
    pending.push_back({join->second, false});
    pending.push_back({nullptr, true});
    pending.push_back({join->first, false});
  }
  return text;
}

}  // namespace collage
