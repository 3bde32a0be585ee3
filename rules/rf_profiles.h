#pragma once
// Engine profiles: the sound policy, and what StarRocks, Doris and Trino do at
// joins (seeds/001), gaps included. Non-join nodes follow the shared hooks.
#include <optional>
#include <string_view>
#include <vector>

#include "rules/rf_hooks.h"

namespace rfguard {

/// Which policy places filters.
enum class Profile { Sound, Doris, StarRocks, Trino };

/// "sound", "doris", "starrocks", "trino".
const char* profileName(Profile p);
/// Parses a profile name.
std::optional<Profile> parseProfile(std::string_view name);
/// Every profile, sound first.
const std::vector<Profile>& allProfiles();

/// One way a filter may continue below a join: into `child` as `expr`.
struct JoinMove {
  size_t child = 0;  ///< also set when refused: where the move would have gone
  ExprPtr expr;
  Decision decision;  ///< why (ok) or why not (!ok, expr unset)
};

/// May `join` produce a filter from `conjunct` under the profile?
Decision generateUnder(Profile p, const PlanNode& join, const ExprPtr& conjunct,
                       EquiConjunct* split);
/// Where filter `f`, applied as `e` at `join`'s output, continues under the profile:
/// the moves taken and the ones refused (lineage and equality copies together).
std::vector<JoinMove> joinMovesUnder(Profile p, const PlanNode& join, const ExprPtr& e,
                                     const RuntimeFilter& f);
/// May `scan` apply `f` to `target` under the profile?
Decision consumeUnder(Profile p, const PlanNode& scan, const ExprPtr& target,
                      const RuntimeFilter& f);

}  // namespace rfguard
