#include "ir/catalog.h"

#include <algorithm>

namespace rfguard {

int TableDef::columnIndex(const std::string& n) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == n) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> TableDef::primaryKeyColumns() const {
  std::vector<std::string> out;
  for (const auto& c : columns)
    if (c.primaryKey) out.push_back(c.name);
  return out;
}

bool TableDef::isKey(std::vector<std::string> names) const {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  names = sorted(std::move(names));
  const auto pk = primaryKeyColumns();
  bool key = !pk.empty() && sorted(pk) == names;
  for (const auto& set : uniqueKeys) key = key || sorted(set) == names;
  return key;
}

Catalog::Entries& Catalog::own() {
  if (!entries_)
    entries_ = std::make_shared<Entries>();
  else if (entries_.use_count() > 1)
    entries_ = std::make_shared<Entries>(*entries_);
  return *entries_;
}

const Catalog::Entries& Catalog::none() {
  static const Entries none;
  return none;
}

bool Catalog::addTable(TableDef t) {
  if (table(t.name) || view(t.name)) return false;
  Entries& e = own();
  std::vector<ColumnId> ids;
  ids.reserve(t.columns.size());
  for (const auto& c : t.columns) ids.emplace_back(t.name + "." + c.name);
  e.ownIds.emplace(t.name, std::move(ids));
  std::string key = t.name;
  e.tables.emplace(std::move(key), std::move(t));
  return true;
}

const std::vector<ColumnId>* Catalog::ownColumnIds(const std::string& name) const {
  const auto& ids = entries().ownIds;
  auto it = ids.find(name);
  return it == ids.end() ? nullptr : &it->second;
}

bool Catalog::addView(ViewDef v) {
  if (table(v.name) || view(v.name)) return false;
  std::string key = v.name;
  own().views.emplace(std::move(key), std::move(v));
  return true;
}

const TableDef* Catalog::table(const std::string& name) const {
  const auto& tables = entries().tables;
  auto it = tables.find(name);
  return it == tables.end() ? nullptr : &it->second;
}

const ViewDef* Catalog::view(const std::string& name) const {
  const auto& views = entries().views;
  auto it = views.find(name);
  return it == views.end() ? nullptr : &it->second;
}

}  // namespace rfguard
