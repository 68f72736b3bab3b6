// What the C for Metal host programs of these examples share: a check of
// every CM runtime call that names the call, the CM error and slmc's last
// error, and reading a kernel program file.
#ifndef SLMC_EXAMPLES_CM_CM_EXAMPLE_H
#define SLMC_EXAMPLES_CM_CM_EXAMPLE_H

#include <cm_rt.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#define cm_result_check(call)                                                  \
  do {                                                                         \
    int result_ = (call);                                                      \
    if (result_ != CM_SUCCESS) {                                               \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #call,                      \
                   GetCmErrorString(result_), slmc_last_error());              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static std::string load_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(1);
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

#endif
