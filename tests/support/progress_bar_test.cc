#include "support/progress_bar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace collage {
namespace {

// A clock the test moves by hand.
struct ManualClock {
  double seconds = 100.0;
  ProgressBar::Clock Function() {
    return [this] { return seconds; };
  }
};

size_t CountRedraws(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\r')); }

TEST(ProgressBarTest, DrawsBarCountTimeAndCurrentItem) {
  std::ostringstream out;
  ManualClock clock;
  ProgressBar bar("measuring", 4, out, ProgressBar::Display::kAlways, clock.Function());
  clock.seconds += 1.3;
  bar.Advance(1, "onednn: nn.conv2d 1x64x56x56");
  EXPECT_EQ(out.str(), "\rmeasuring [#######.......................] 1/4 1.3 s  onednn: nn.conv2d 1x64x56x56\033[K");
  clock.seconds += 2.0;
  bar.Advance(3);
  bar.Finish();
  const std::string text = out.str();
  const std::string last = text.substr(text.rfind('\r'));
  EXPECT_EQ(last, "\rmeasuring [##############################] 4/4 3.3 s\033[K\n");
}

TEST(ProgressBarTest, RedrawsAtMostTenTimesASecond) {
  std::ostringstream out;
  ManualClock clock;
  ProgressBar bar("tuning", 1000, out, ProgressBar::Display::kAlways, clock.Function());
  for (int item = 0; item < 999; ++item) {
    clock.seconds += 0.001;  // 999 items in about one second
    bar.Advance();
  }
  EXPECT_GE(CountRedraws(out.str()), 9u);
  EXPECT_LE(CountRedraws(out.str()), 11u);
  const size_t before_last = CountRedraws(out.str());
  bar.Advance();  // the last item is always drawn
  EXPECT_EQ(CountRedraws(out.str()), before_last + 1);
  EXPECT_NE(out.str().rfind("1000/1000"), std::string::npos);
}

TEST(ProgressBarTest, SilentWhenTheStreamIsNotATerminal) {
  std::ostringstream out;
  {
    ProgressBar bar("measuring", 3, out);
    EXPECT_FALSE(bar.displayed());
    bar.Advance(2, "something");
    bar.Finish();
    EXPECT_EQ(bar.done(), 2u);
  }
  ProgressBar never("measuring", 3, out, ProgressBar::Display::kNever);
  never.Advance();
  EXPECT_TRUE(out.str().empty());
}

TEST(ProgressBarTest, DestructionFinishesTheLineOnceAndLaterCallsDoNothing) {
  std::ostringstream out;
  ManualClock clock;
  {
    ProgressBar bar("x", 2, out, ProgressBar::Display::kAlways, clock.Function());
    bar.Advance(5);  // clamped to the total
    EXPECT_EQ(bar.done(), 2u);
    bar.Finish();
    bar.Advance();
    bar.Finish();
  }
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_EQ(text.back(), '\n');
}

TEST(ProgressBarTest, LongCurrentItemsAreCut) {
  std::ostringstream out;
  ManualClock clock;
  ProgressBar bar("x", 1, out, ProgressBar::Display::kAlways, clock.Function());
  bar.Advance(1, std::string(500, 'a'));
  EXPECT_LT(out.str().size(), 200u);
}

}  // namespace
}  // namespace collage
