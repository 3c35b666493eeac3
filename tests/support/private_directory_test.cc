// The private cache folder: created 0700, and refused when it is another user's, open to
// others, a symbolic link or not a folder.
#include "support/private_directory.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/error.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

std::string RefusalOf(const std::string& path) {
  try {
    EnsurePrivateDirectory(path);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(PrivateDirectoryTest, IsCreatedWithMode0700AndAcceptedAgain) {
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("cache");
  EnsurePrivateDirectory(path);
  struct stat status;
  ASSERT_EQ(stat(path.c_str(), &status), 0);
  EXPECT_TRUE(S_ISDIR(status.st_mode));
  EXPECT_EQ(status.st_mode & 07777, 0700u);
  EXPECT_EQ(status.st_uid, geteuid());
  EXPECT_EQ(RefusalOf(path), "");
}

TEST(PrivateDirectoryTest, AFolderOpenToOthersIsRefused) {
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("cache");
  ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
  ASSERT_EQ(chmod(path.c_str(), 0777), 0);
  EXPECT_EQ(RefusalOf(path), "cache folder '" + path +
                                 "' has mode 0777, open to other users (expected 0700): refusing to use it (set HOME "
                                 "to a folder of yours)");
}

TEST(PrivateDirectoryTest, ASymbolicLinkIsRefusedEvenToAPrivateFolder) {
  testing::TempDirectory directory;
  const std::string target = directory.PathOf("target");
  EnsurePrivateDirectory(target);
  const std::string path = directory.PathOf("cache");
  std::filesystem::create_directory_symlink(target, path);
  EXPECT_NE(RefusalOf(path).find("' is a symbolic link: refusing to use it"), std::string::npos) << RefusalOf(path);
}

TEST(PrivateDirectoryTest, AFileIsRefused) {
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("cache");
  std::ofstream(path) << "not a folder";
  EXPECT_NE(RefusalOf(path).find("' is not a folder: refusing to use it"), std::string::npos) << RefusalOf(path);
}

TEST(PrivateDirectoryTest, AnotherUsersFolderIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a folder to another user needs root";
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("cache");
  ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
  ASSERT_EQ(chown(path.c_str(), 4242, 4242), 0);
  EXPECT_NE(RefusalOf(path).find("' belongs to user 4242, not to user 0: refusing to use it"), std::string::npos)
      << RefusalOf(path);
}

}  // namespace
}  // namespace collage
