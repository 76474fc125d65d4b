// The state behind a RunStore (store.h), shared by the files that implement it: store.cc
// (rows) and run_file_open.cc (making and opening a run file). Private to src/store.
#pragma once

#include <mutex>
#include <optional>

#include "core/file_lock.h"
#include "store/db.h"
#include "store/store.h"

namespace ptxbench::store {

struct RunStore::Impl {
  // A writer's lock on its file (core/file_lock.h). Declared before `db`, so that it is
  // released after the connection is closed.
  std::optional<FileLock> lock;
  Db db;
  mutable std::mutex mu;
  explicit Impl(Db d, std::optional<FileLock> l = std::nullopt)
      : lock(std::move(l)), db(std::move(d)) {}
};

}  // namespace ptxbench::store
