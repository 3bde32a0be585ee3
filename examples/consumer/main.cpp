// Plans a SQL file's runtime filters as StarRocks would, verifies them, and
// checks that the sound profile's placement verifies clean. Exit 0 when the
// StarRocks gap is found and the sound placement is clean.
#include <rfguard/rfguard.h>

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: rfguard_consumer FILE.sql\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> errors;
  auto plans = rfguard::api::Plans::fromSql(text.str(), argv[1], &errors);
  if (!plans) {
    for (const auto& e : errors) std::cerr << e;
    return 2;
  }
  plans->normalize();
  rfguard::api::Plans engine = plans->clone();
  size_t placed = engine.planRuntimeFilters(rfguard::api::Profile::StarRocks);
  auto findings = engine.verify();
  std::cout << "rfguard " << rfguard::api::version() << ": " << engine.size() << " queries, "
            << placed << " StarRocks consumers, " << findings.size() << " findings\n";
  for (const auto& f : findings)
    std::cout << "  " << f.query << " " << f.code << " RF" << f.filter << " at " << f.line << ":"
              << f.column << "\n";
  size_t sound = plans->planRuntimeFilters(rfguard::api::Profile::Sound);
  auto clean = plans->verify();
  std::cout << "sound: " << sound << " consumers, " << clean.size() << " findings\n";
  if (plans->render(rfguard::api::Format::Json).find("\"rfguard-plan\"") == std::string::npos)
    return 1;
  return !findings.empty() && clean.empty() ? 0 : 1;
}
