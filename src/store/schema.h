// The run store's schema (docs/store-schema.md) and its version.
#pragma once

#include <string_view>

#include "core/result.h"
#include "store/db.h"

namespace ptxbench::store {

inline constexpr int kSchemaVersion = 1;

// Creates every table and index (idempotent) and records the schema version.
Status create_schema(Db& db);

// Fails with a clear message when the file's schema_version is not kSchemaVersion.
Status check_schema(Db& db);

}  // namespace ptxbench::store
