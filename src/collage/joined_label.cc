#include "collage/joined_label.h"

#include <vector>

namespace collage {

JoinedLabel::JoinedLabel(std::string text) {
  if (!text.empty()) root_ = std::make_shared<Node>(Node{false, std::move(text), nullptr, nullptr});
}

JoinedLabel JoinedLabel::Join(const JoinedLabel& first, const JoinedLabel& second) {
  JoinedLabel joined;
  joined.root_ = std::make_shared<Node>(Node{true, "", first.root_, second.root_});
  return joined;
}

JoinedLabel& JoinedLabel::operator=(const JoinedLabel& other) {
  JoinedLabel replaced(other);
  root_.swap(replaced.root_);
  return *this;
}

JoinedLabel& JoinedLabel::operator=(JoinedLabel&& other) noexcept {
  JoinedLabel replaced(std::move(other));
  root_.swap(replaced.root_);
  return *this;
}

JoinedLabel::~JoinedLabel() {
  // A node released here has its sides moved out first, so each is released by this loop
  // rather than by the node's destructor.
  std::vector<std::shared_ptr<Node>> releasing;
  if (root_ != nullptr && root_.use_count() == 1) releasing.push_back(std::move(root_));
  while (!releasing.empty()) {
    const std::shared_ptr<Node> node = std::move(releasing.back());
    releasing.pop_back();
    for (std::shared_ptr<Node>* side : {&node->first, &node->second}) {
      if (*side != nullptr && side->use_count() == 1) releasing.push_back(std::move(*side));
    }
  }
}

bool JoinedLabel::empty() const { return root_ == nullptr; }

std::string JoinedLabel::ToString() const {
  // Depth first, left to right, with each join's separator pending between its two sides.
  std::string text;
  struct Pending {
    const Node* node;
    bool separator;
  };
  std::vector<Pending> pending = {{root_.get(), false}};
  while (!pending.empty()) {
    const Pending next = pending.back();
    pending.pop_back();
    if (next.separator) {
      text += '+';
      continue;
    }
    if (next.node == nullptr) continue;
    if (!next.node->is_join) {
      text += next.node->text;
      continue;
    }
    pending.push_back({next.node->second.get(), false});
    pending.push_back({nullptr, true});
    pending.push_back({next.node->first.get(), false});
  }
  return text;
}

}  // namespace collage
