// The run store's schema (docs/store-schema.md) and its version.
#pragma once

#include <string_view>

#include "core/result.h"
#include "store/db.h"

namespace ptxbench::store {

// Version 2: turns.category may also be 'task_suite_error' (judge::Disposition).
inline constexpr int kSchemaVersion = 2;
// Files of versions kOldestReadableSchemaVersion..kSchemaVersion are read as they are.
inline constexpr int kOldestReadableSchemaVersion = 1;

// Creates every table and index (idempotent) and records the schema version.
Status create_schema(Db& db);

// Fails with a clear message when the file's schema_version is not one this ptxbench
// reads, or when a file that has one lacks a table or column ptxbench reads, or its run
// ("X is not a complete ptxbench run file (...)": damaged, with what to do).
Status check_schema(Db& db);

// Brings a readable file to kSchemaVersion before it is written again (a resumed run),
// in one transaction; a file already there is left alone.
Status upgrade_schema(Db& db);

}  // namespace ptxbench::store
