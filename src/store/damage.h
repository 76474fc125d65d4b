// What of a run file is not as ptxbench wrote it ("X: ...: the run file is damaged", with what
// to do): named when the file is opened (RunStore::open_read_only), before any command reads,
// judges or writes anything (issue 38), so that no reader has checks of its own.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "store/db.h"

namespace ptxbench::store {

inline constexpr std::string_view kUseAnIntactCopy =
    "use an intact copy of the run file; `ptxbench rejudge` cannot repair it";

// A run file whose rows are not what ptxbench wrote: `what` names the row and what is wrong.
Error damaged(const std::filesystem::path& file, const std::string& what);

// The words for a stored name no ptxbench writes, as check_rows says them when a file is opened
// and the readers when it changed since: "its stored category 'x' is no verdict ptxbench
// writes", "stored status 'x' is no state ptxbench writes".
std::string unknown_verdict(const std::string& stored);
std::string unknown_status(const std::string& stored);

// A stored JSON column: null when empty; an Error when it is not JSON (a damaged run file),
// never a string or a null that a reader would count as another verdict (issue 38).
Result<Json> stored_json(const std::optional<std::string>& s, const std::filesystem::path& file,
                         const std::string& where);

// The run's settings: a JSON object, as every run is created with; null, empty or another
// type would be read as a run of no turn budgets and no settings (issue 38: S21, S22).
Result<Json> stored_settings(const std::optional<std::string>& s,
                             const std::filesystem::path& file);

// Every row a reader relies on (the run's configuration, stored_config.h; the turns and
// messages of trajectories that exist; every turn's row): the first damaged one named.
Status check_rows(Db& db);

}  // namespace ptxbench::store
