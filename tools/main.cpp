// The rfguard command line. Exceptions end here: everything below reports
// errors as data, and this boundary maps them to exit codes.
#include <malloc.h>

#include <exception>
#include <iostream>

#include "tools/cli/cli.h"

int main(int argc, char** argv) {
  // The bounded checker allocates and frees whole databases in a loop; without a
  // high trim threshold glibc returns the heap top to the kernel every time
  // (hundreds of thousands of brk calls, 4x the run time).
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 256 << 20);  // large blocks from the heap, not fresh mappings
  try {
    return rfguard::runCli(argc, argv, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "rfguard: internal error: " << e.what() << "\n";
    return 3;
  }
}
