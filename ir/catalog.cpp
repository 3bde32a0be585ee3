#include "ir/catalog.h"

namespace rfguard {

int TableDef::columnIndex(const std::string& n) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == n) return static_cast<int>(i);
  return -1;
}

bool Catalog::addTable(TableDef t) {
  if (tables_.count(t.name) || views_.count(t.name)) return false;
  std::vector<ColumnId> ids;
  ids.reserve(t.columns.size());
  for (const auto& c : t.columns) ids.emplace_back(t.name + "." + c.name);
  ownIds_.emplace(t.name, std::move(ids));
  std::string key = t.name;
  tables_.emplace(std::move(key), std::move(t));
  return true;
}

const std::vector<ColumnId>* Catalog::ownColumnIds(const std::string& name) const {
  auto it = ownIds_.find(name);
  return it == ownIds_.end() ? nullptr : &it->second;
}

bool Catalog::addView(ViewDef v) {
  if (tables_.count(v.name) || views_.count(v.name)) return false;
  std::string key = v.name;
  views_.emplace(std::move(key), std::move(v));
  return true;
}

const TableDef* Catalog::table(const std::string& name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}

const ViewDef* Catalog::view(const std::string& name) const {
  auto it = views_.find(name);
  return it == views_.end() ? nullptr : &it->second;
}

}  // namespace rfguard
