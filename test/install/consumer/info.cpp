// Prints the device the runtime chooses, through the public C API only.
#include <slmc/runtime.h>
#include <cstdio>

int main() {
  slmc_device_info info;
  if (slmc_get_device_info(&info) != SLMC_SUCCESS) {
    std::fprintf(stderr, "slmc-info: %s\n", slmc_last_error());
    return 1;
  }
  std::printf("backend: %s\ndevice: %s\ngroup-local memory: %zu bytes\n",
              slmc_backend_name(info.backend), info.name, info.max_group_local_memory);
  return 0;
}
