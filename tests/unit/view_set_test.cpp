// ViewSet (ir/view_set.h): an open-addressed set of string views that takes
// a ColumnId's stored hash and grows past its first table.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ir/view_set.h"

using namespace rfguard;

TEST_CASE("a view set holds each text once, found as a view, a string or a column id") {
  ViewSet set;
  CHECK(!set.contains("t.k"));
  const std::string k = "t.k";
  const ColumnId id("lineitem.l_orderkey");
  CHECK(set.insert(k));
  CHECK(!set.insert(std::string_view("t.k")));
  CHECK(set.insert(id));
  CHECK(!set.insert(std::string("lineitem.l_orderkey")));
  CHECK(set.size() == 2);
  CHECK(set.contains(ColumnId("t.k")));
  CHECK(set.contains(std::string_view("lineitem.l_orderkey")));
  CHECK(!set.contains("lineitem.l_partkey"));
}

TEST_CASE("a view set keeps every element as it grows") {
  std::vector<std::string> texts;
  for (int i = 0; i < 1000; ++i)
    texts.push_back("t" + std::to_string(i % 37) + ".c" + std::to_string(i));
  ViewSet set;
  for (const auto& t : texts) CHECK(set.insert(t));
  CHECK(set.size() == texts.size());
  for (const auto& t : texts) CHECK(set.contains(t));
  CHECK(!set.contains("t0.c1000"));
}

TEST_CASE("a view set made with room starts empty and keeps every element past that room") {
  for (size_t room : {size_t{0}, size_t{1}, size_t{64}, size_t{100}}) {
    CAPTURE(room);
    ViewSet set(room);
    CHECK(set.size() == 0);
    CHECK(!set.contains("a.k"));
    std::vector<std::string> texts;
    for (size_t i = 0; i < 3 * room + 5; ++i) texts.push_back("a.c" + std::to_string(i));
    for (const auto& t : texts) CHECK(set.insert(t));
    for (const auto& t : texts) CHECK(!set.insert(t));
    CHECK(set.size() == texts.size());
    for (const auto& t : texts) CHECK(set.contains(t));
    CHECK(!set.contains("a.k"));
  }
}

TEST_CASE("a view set holds the empty text, whether its view has a data pointer or not") {
  ViewSet set;
  CHECK(!set.contains(""));
  CHECK(set.insert(std::string_view{}));
  CHECK(!set.insert(""));
  CHECK(set.contains(std::string_view{}));
  CHECK(set.contains(std::string()));
  CHECK(set.size() == 1);
}
