#include "compile/compile_cache.h"

#include <unistd.h>

#include <system_error>

#include "compile/result_json.h"
#include "core/json.h"
#include "core/sha256.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

std::string sha256_of_file(const fs::path& p, bool* ok) {
  auto bytes = read_file(p);
  *ok = bytes.ok();
  return bytes.ok() ? sha256_hex(*bytes) : std::string();
}

}  // namespace

std::string cache_key(std::string_view source, const std::vector<std::string>& flags,
                      std::string_view arch, std::string_view toolkit_version) {
  Sha256 h;
  h.update(kCacheSchema).update(std::string_view("\0", 1));
  h.update(source).update(std::string_view("\0", 1));
  for (const auto& f : flags) h.update(f).update(std::string_view("\x1f", 1));
  h.update(std::string_view("\0", 1)).update(arch).update(std::string_view("\0", 1));
  h.update(toolkit_version);
  return h.hex_digest();
}

void point_into(CompileResult& r, const fs::path& dir) {
  auto set = [&](std::string& field, const char* name) {
    if (!field.empty()) field = (dir / name).string();
  };
  set(r.shared_object, "kernel.so");
  set(r.cubin, "kernel.cubin");
  set(r.sass, "kernel.sass");
}

Result<CompileResult> CompileCache::lookup(const std::string& key) const {
  fs::path dir = entry_dir(key);
  PTXB_TRY(std::string text, read_file(dir / "result.json"));
  Json j = parse_json(text);
  if (j.is_discarded() || !j.is_object())
    return make_error("cache entry has malformed result.json");
  if (j.value("schema", "") != kCacheSchema) return make_error("cache entry has another schema");
  PTXB_TRY(CompileResult r, compile_result_from_json(j));
  if (r.cache_key != key) return make_error("cache entry belongs to another key");
  point_into(r, dir);
  if (!r.shared_object.empty()) {
    bool ok = false;
    if (sha256_of_file(r.shared_object, &ok) != r.shared_object_sha256 || !ok)
      return make_error("cache entry's kernel.so is missing or altered");
  }
  for (const std::string& p : {r.cubin, r.sass})
    if (!p.empty() && !fs::exists(p)) return make_error("cache entry lacks " + p);
  return r;
}

Result<TempDir> CompileCache::make_build_dir() const {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec)
    return make_error("cannot create the compile cache " + root_.string() + ": " + ec.message(),
                      "set PTXBENCH_CACHE to a writable directory");
  remove_stale_build_dirs();
  return TempDir::create(".build-", root_);
}

// Build directories of compiles that were killed (a crash, Ctrl-C) are never published;
// remove those older than a day so they do not pile up.
void CompileCache::remove_stale_build_dirs() const {
  std::error_code ec;
  const auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (const auto& e : fs::directory_iterator(root_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(".build-", 0) != 0) continue;
    std::error_code ec2;
    if (fs::last_write_time(e.path(), ec2) < cutoff && !ec2) fs::remove_all(e.path(), ec2);
  }
}

Status CompileCache::publish(TempDir& build, const std::string& key,
                             const CompileResult& result) const {
  Json j = to_json(result);
  j["schema"] = kCacheSchema;
  PTXB_TRY_STATUS(write_file_atomic(build.path() / "result.json", to_text(j, 2) + "\n"));
  fs::path dest = entry_dir(key);
  std::error_code ec;
  if (fs::exists(dest, ec)) {  // a stale or corrupt entry, or --no-cache: move it aside first
    fs::path old = build.path().string() + ".old";
    fs::rename(dest, old, ec);
    fs::remove_all(old, ec);
  }
  if (::rename(build.path().c_str(), dest.c_str()) == 0) {
    build.keep();  // it lives on as the entry
    return {};
  }
  if (lookup(key).ok()) return {};  // another process published a valid entry first
  return make_error("cannot publish the compile cache entry " + dest.string() + ": " +
                    std::generic_category().message(errno));
}

}  // namespace ptxbench::compile
