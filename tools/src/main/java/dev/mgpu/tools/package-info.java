/**
 * The {@code gpu-translate} command line: {@link dev.mgpu.tools.OptionParser} reads the arguments into {@link
 * dev.mgpu.tools.Options}, {@link dev.mgpu.tools.Translation} runs them (read, split, parse, translate, emit,
 * link), with diagnostics printed as clang prints them, dependency files, embedded files, output written safely
 * into place, the resident compile server and the training run of its class-data-sharing archive.
 */
package dev.mgpu.tools;
