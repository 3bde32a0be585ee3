// Reasons written when read: what they hold, through copies, moves and assignment.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "rules/reason.h"

using namespace rfguard;

namespace {
/// A counted value a reason captures: the count says how many copies are alive.
struct Counted {
  std::shared_ptr<std::string> words;
  std::string operator()() const { return *words; }
};
}  // namespace

TEST_CASE("a reason holds what it prints, inline or on the heap, through copies and moves") {
  auto words = std::make_shared<std::string>("kept");
  std::string big(200, 'x');  // a capture larger than the inline buffer
  Reason small = Reason::later(Counted{words});
  Reason large = Reason::later([words, big] { return *words + big.substr(0, 3); });
  CHECK(words.use_count() == 3);
  CHECK(small.text() == "kept");
  CHECK(large.text() == "keptxxx");

  Reason copies[2] = {small, large};
  CHECK(words.use_count() == 5);
  CHECK(copies[0].text() == "kept");
  CHECK(copies[1].text() == "keptxxx");

  Reason moved(std::move(small));
  CHECK(moved.text() == "kept");
  CHECK(small.text().empty());  // NOLINT: a moved-from reason says nothing, as before
  CHECK(words.use_count() == 5);

  Reason assigned = "at once";
  CHECK(assigned.text() == "at once");
  assigned = large;
  CHECK(assigned.text() == "keptxxx");
  CHECK(words.use_count() == 6);
  assigned = std::move(moved);
  CHECK(assigned.text() == "kept");
  CHECK(words.use_count() == 5);
  const Reason& self = assigned;
  assigned = self;
  CHECK(assigned.text() == "kept");
  assigned = std::string("plain words");
  CHECK(assigned.text() == "plain words");
  CHECK(words.use_count() == 4);
  CHECK(Reason().text().empty());
}
