/**
 * The CPU target: kernels translated through the host's back end into a shared object that follows the CPU
 * kernel ABI of {@code mgpu.h}, and the work-item machinery that runs a block's threads as loops: which kernels
 * need their threads together ({@code WorkItemInliner}), where barriers and shuffles cut the loops and what
 * crosses them ({@code WorkItemPlan}), the emitter of those loops ({@code WorkItemLoops}), the loop nest,
 * per-thread memory and the layout of the grid the runtime passes.
 */
package dev.mgpu.codegen.internal.device.cpu;
