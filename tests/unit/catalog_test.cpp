// The catalog: copies share their tables and views until one of them adds one.
#include <doctest/doctest.h>

#include "ir/catalog.h"

using namespace rfguard;

namespace {

TableDef table(const std::string& name) {
  TableDef t;
  t.name = name;
  t.columns.push_back({"k", Type{}, false, true, std::nullopt});
  t.columns.push_back({"v", Type{}, true, false, std::nullopt});
  return t;
}

}  // namespace

TEST_CASE("an empty catalog has nothing and shares nothing") {
  Catalog empty, other;
  CHECK(empty.tables().empty());
  CHECK(empty.views().empty());
  CHECK(empty.table("a") == nullptr);
  CHECK(empty.view("a") == nullptr);
  CHECK(empty.ownColumnIds("a") == nullptr);
  REQUIRE(other.addTable(table("a")));
  CHECK(empty.tables().empty());
  CHECK(other.tables().size() == 1);
}

TEST_CASE("catalog copies share their entries until one of them adds a table or a view") {
  Catalog base;
  REQUIRE(base.addTable(table("a")));
  const TableDef* a = base.table("a");
  REQUIRE(a);
  Catalog copy = base;
  // Shared: the very same entries, no copy made.
  CHECK(&copy.tables() == &base.tables());
  CHECK(copy.table("a") == a);
  CHECK(copy.ownColumnIds("a") == base.ownColumnIds("a"));

  // The copy adds a table: it gets its own entries; the base is unchanged.
  REQUIRE(copy.addTable(table("b")));
  CHECK(&copy.tables() != &base.tables());
  CHECK(copy.tables().size() == 2);
  CHECK(base.tables().size() == 1);
  CHECK(base.table("b") == nullptr);
  CHECK(base.table("a") == a);  // what the base returned stays valid
  REQUIRE(copy.table("a"));
  CHECK(copy.table("a")->columns.size() == 2);
  REQUIRE(copy.ownColumnIds("b"));
  CHECK(std::vector<std::string>(copy.ownColumnIds("b")->begin(), copy.ownColumnIds("b")->end()) ==
        std::vector<std::string>{"b.k", "b.v"});

  // A catalog that owns its entries alone adds in place.
  const auto* before = &copy.tables();
  ViewDef v;
  v.name = "w";
  v.sql = "SELECT 1";
  REQUIRE(copy.addView(v));
  CHECK(&copy.tables() == before);
  CHECK(copy.view("w") != nullptr);
  CHECK(base.view("w") == nullptr);

  // Names stay unique across tables and views, in every copy.
  CHECK_FALSE(copy.addTable(table("w")));
  CHECK_FALSE(copy.addView(ViewDef{"a", {}, "SELECT 1", "", {}}));
  Catalog third = copy;
  CHECK_FALSE(third.addTable(table("b")));
  CHECK(&third.tables() == &copy.tables());  // a refused addition copies nothing
}

TEST_CASE("a copy keeps the shared entries alive when the catalog it copied goes") {
  Catalog copy;
  const TableDef* a = nullptr;
  {
    Catalog base;
    REQUIRE(base.addTable(table("a")));
    copy = base;
    a = copy.table("a");
  }
  REQUIRE(copy.table("a") == a);
  CHECK(a->name == "a");
  CHECK(a->columns[1].name == "v");
}
