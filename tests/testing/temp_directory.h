// A fresh directory under the system temp dir for one test, removed with its contents
// when the object goes out of scope.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace collage::testing {

class TempDirectory {
 public:
  TempDirectory() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test_name =
        info != nullptr ? std::string(info->test_suite_name()) + "_" + info->name() : std::string("test");
    path_ = std::filesystem::temp_directory_path() / ("collage_" + test_name + "_" + std::to_string(getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  // The path of `name` inside the directory.
  std::string PathOf(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace collage::testing
