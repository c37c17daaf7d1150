/**
 * The AMD GPU target: what differs for AMDGPU when kernels are translated through LLVM's AMDGPU back end
 * (triple, calling convention, address spaces, the special registers, barriers, shuffles, printf, the device
 * library), and the linking of its objects by lld into code objects.
 */
package dev.mgpu.codegen.internal.device.amdgpu;
