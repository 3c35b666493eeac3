#include "backend/native/kernel_cache.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "backend/native/runtime_headers.h"
#include "support/error.h"
#include "support/hash.h"
#include "support/private_directory.h"

namespace collage::native {
namespace {

constexpr size_t kKernelsPerTranslationUnit = 16;
constexpr const char* kSymbolPlaceholder = "@SYMBOL@";

std::string Hex(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::atomic<uint64_t> g_serial{0};

std::string TemporaryName(const std::string& path) {
  return path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(g_serial.fetch_add(1));
}

// Writes `text` to `path` through a temporary file and a rename.
void WriteAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = TemporaryName(path);
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out) throw Error("native: cannot write " + temporary);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error("native: cannot write " + path);
  }
}

// dlopen with a process-wide memo (shared objects are never unloaded).
void* OpenSharedObject(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, void*> handles;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = handles.find(path); it != handles.end()) return it->second;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) handles[path] = handle;
  return handle;
}

}  // namespace

std::string RuntimeHeadersKey() {
  static const std::string key = [] {
    std::string all;
    for (const auto& [name, text] : RuntimeHeaders()) all += name + '\0' + text + '\0';
    return Hex(StableHash(all));
  }();
  return key;
}

std::string DefaultNativeCacheDir() {
  if (const char* dir = std::getenv("COLLAGE_CACHE_DIR"); dir && *dir) return std::string(dir) + "/native";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/collage/native";
  return PrivateTemporaryCacheDirectory() + "/native";
}

KernelCache::KernelCache(std::string dir, CompilerConfig config) : dir_(std::move(dir)), config_(std::move(config)) {}

std::vector<LoadedKernel> KernelCache::Load(const std::vector<GeneratedKernel>& kernels) const {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) throw Error("native: cannot create the cache folder " + dir_ + ": " + error.message());

  // The runtime headers, once per header version.
  const std::string include_dir = dir_ + "/include-" + RuntimeHeadersKey();
  if (!std::filesystem::exists(include_dir)) {
    const std::string temporary = TemporaryName(include_dir);
    std::filesystem::create_directories(temporary);
    for (const auto& [name, text] : RuntimeHeaders()) WriteAtomically(temporary + "/" + name, text);
    std::filesystem::rename(temporary, include_dir, error);
    if (error) std::filesystem::remove_all(temporary);  // another process won the race
  }

  std::string key_prefix =
      std::string(kGeneratorVersion) + '\0' + CompilerVersion(config_) + '\0' + RuntimeHeadersKey();
  for (const std::string& flag : CompilerFlags(config_)) key_prefix += '\0' + flag;
  const uint64_t prefix_hash = StableHash(key_prefix);

  std::vector<std::string> keys;
  std::map<std::string, std::string> sources;  // missing kernels by key, with their symbol filled in
  std::vector<LoadedKernel> loaded(kernels.size());
  const auto symbol_of = [](const std::string& key) { return "collage_native_" + key; };
  const auto try_load = [&](const std::string& key) -> KernelFunction {
    const std::string batch = ReadFile(dir_ + "/" + key + ".kernel");
    if (batch.empty()) return nullptr;
    void* handle = OpenSharedObject(dir_ + "/" + batch);
    return handle ? reinterpret_cast<KernelFunction>(dlsym(handle, symbol_of(key).c_str())) : nullptr;
  };
  for (size_t k = 0; k < kernels.size(); ++k) {
    const std::string key = Hex(StableHash(kernels[k].source, prefix_hash));
    keys.push_back(key);
    loaded[k].function = try_load(key);
    if (!loaded[k].function) sources[key] = ReplaceAll(kernels[k].source, kSymbolPlaceholder, symbol_of(key));
  }

  // Compile the missing kernels: split into translation units, compiled in parallel.
  std::vector<std::vector<std::string>> batches;
  {
    std::vector<std::string> missing;
    for (const auto& entry : sources) missing.push_back(entry.first);
    const size_t jobs = std::max<size_t>(1, std::thread::hardware_concurrency());
    const size_t count = std::max((missing.size() + kKernelsPerTranslationUnit - 1) / kKernelsPerTranslationUnit,
                                  std::min(jobs, missing.size()));
    batches.resize(count);
    for (size_t m = 0; m < missing.size(); ++m) batches[m % count].push_back(missing[m]);
  }
  std::map<std::string, std::string> errors;
  std::mutex errors_mutex;
  // Compiles `batch` into one shared object and records it for each kernel; on failure
  // retries one by one (when more than one) or records the error.
  std::function<void(const std::vector<std::string>&)> compile = [&](const std::vector<std::string>& batch) {
    std::string unit = "#include \"native_kernels.h\"\n";
    std::string batch_key_text;
    for (const std::string& key : batch) {
      unit += "\n" + sources.at(key);
      batch_key_text += key;
    }
    const std::string stem = "batch-" + Hex(StableHash(batch_key_text, prefix_hash));
    const std::string name = stem + ".so";
    const std::string source_path = TemporaryName(dir_ + "/" + stem) + ".cc";
    try {
      WriteAtomically(source_path, unit);
      CompileSharedObject(config_, source_path, include_dir, dir_ + "/" + name);
      if (std::rename(source_path.c_str(), (dir_ + "/" + stem + ".cc").c_str()) != 0) std::remove(source_path.c_str());
      for (const std::string& key : batch) WriteAtomically(dir_ + "/" + key + ".kernel", name);
    } catch (const Error& failure) {
      std::remove(source_path.c_str());
      if (batch.size() > 1) {
        for (const std::string& key : batch) compile({key});
        return;
      }
      std::lock_guard<std::mutex> lock(errors_mutex);
      errors[batch[0]] = failure.what();
    }
  };
  std::vector<std::thread> workers;
  for (const auto& batch : batches) workers.emplace_back(compile, batch);
  for (std::thread& worker : workers) worker.join();

  for (size_t k = 0; k < kernels.size(); ++k) {
    if (loaded[k].function) continue;
    if (auto it = errors.find(keys[k]); it != errors.end()) {
      loaded[k].error = it->second;
      continue;
    }
    loaded[k].function = try_load(keys[k]);
    if (!loaded[k].function) {
      const char* reason = dlerror();
      loaded[k].error = "native: cannot load the compiled kernel" + std::string(reason ? ": " : "") + (reason ? reason : "");
    }
  }
  return loaded;
}

}  // namespace collage::native
