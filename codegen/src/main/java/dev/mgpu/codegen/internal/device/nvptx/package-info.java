/**
 * The NVIDIA GPU target: what differs for NVPTX when kernels are translated through LLVM's NVPTX back end
 * (triple, calling convention, address spaces, the special registers, barriers, shuffles, printf, libdevice, the
 * kernel annotations), and the finishing of PTX into cubins and fat binaries by ptxas and fatbinary where they
 * are installed.
 */
package dev.mgpu.codegen.internal.device.nvptx;
