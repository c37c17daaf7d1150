/* The run-time choice among a fat binary's objects, for devices that this machine need not have. */
#include "mgpu.h"

#include <stdio.h>
#include <string.h>

static const mgpuObject objects[] = {
    {MGPU_KIND_NVVM, MGPU_FORMAT_BIN, "sm_80", "a", 1, -1},
    {MGPU_KIND_NVVM, MGPU_FORMAT_BIN, "sm_90", "b", 1, -1},
    {MGPU_KIND_NVVM, MGPU_FORMAT_ASSEMBLY, "sm_70", "c", 2, 3},
    {MGPU_KIND_NVVM, MGPU_FORMAT_ASSEMBLY, "sm_80", "d", 2, 3},
    {MGPU_KIND_NVVM, MGPU_FORMAT_FATBIN, "sm_86", "e", 1, -1},
    {MGPU_KIND_ROCDL, MGPU_FORMAT_BIN, "gfx90a", "f", 1, -1},
    {MGPU_KIND_CPU, MGPU_FORMAT_FATBIN, "", "g", 1, -1},
};

static void show(const char *device, const mgpuObjectTable *t, int kind, const char *chip, int major, int minor) {
  const mgpuObject *o = mgpuSelectObject(t, kind, chip, major, minor);
  printf("%s -> %s\n", device, o ? (const char *)o->data : "none");
}

int main(void) {
  mgpuObjectTable all = {7, objects, "all"};
  show("sm_90", &all, MGPU_KIND_NVVM, "sm_90", 9, 0);          /* exact cubin */
  show("sm_89", &all, MGPU_KIND_NVVM, "sm_89", 8, 9);          /* same major, highest minor <= 9: sm_86 */
  show("sm_80", &all, MGPU_KIND_NVVM, "sm_80", 8, 0);          /* exact */
  show("sm_100", &all, MGPU_KIND_NVVM, "sm_100", 10, 0);       /* no cubin: highest PTX <= 100 */
  show("gfx90a", &all, MGPU_KIND_ROCDL, "gfx90a:sramecc+:xnack-", 9, 0);
  show("gfx942", &all, MGPU_KIND_ROCDL, "gfx942", 9, 4);
  show("cpu", &all, MGPU_KIND_CPU, "", 0, 0);
  mgpuObjectTable nosm90 = {1, objects + 1, "only sm_90"};
  show("sm_100 with only an sm_90 cubin", &nosm90, MGPU_KIND_NVVM, "sm_100", 10, 0);
  mgpuObjectTable ptx = {2, objects + 2, "ptx only"};
  show("sm_75 with PTX 70 and 80", &ptx, MGPU_KIND_NVVM, "sm_75", 7, 5);
  show("sm_60 with PTX 70 and 80", &ptx, MGPU_KIND_NVVM, "sm_60", 6, 0);
  return 0;
}
