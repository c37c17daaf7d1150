/* Stands in for the HIP backend when the HIP headers were not found at build time. */
#include "internal.h"

static int absent_probe(const char **why) {
  *why = "libmgpu was built without the HIP backend (no HIP headers)";
  return 0;
}

const mgpu_backend mgpu_hip_backend = {.name = "hip", .kind = MGPU_KIND_ROCDL, .probe = absent_probe};
