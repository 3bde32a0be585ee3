// The rfguard command line. Exceptions end here: everything below reports
// errors as data, and this boundary maps them to exit codes.
#include <exception>
#include <iostream>

#include "tools/cli/cli.h"
#include "verifier/bounded.h"

int main(int argc, char** argv) {
  rfguard::tuneHeapForSearch();
  try {
    return rfguard::runCli(argc, argv, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "rfguard: internal error: " << e.what() << "\n";
    return rfguard::kExitInternalError;
  }
}
