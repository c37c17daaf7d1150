/**
 * mgpu's model of MLIR: the IR core, the dialects mgpu reads (builtin, func, arith, cf, llvm, gpu), the
 * parser, printer and verifier. No native code. The parser's internals ({@code dev.mgpu.mlir.internal})
 * are not exported.
 */
module dev.mgpu.model {
    exports dev.mgpu.dialect;
    exports dev.mgpu.dialect.arith;
    exports dev.mgpu.dialect.builtin;
    exports dev.mgpu.dialect.cf;
    exports dev.mgpu.dialect.func;
    exports dev.mgpu.dialect.gpu;
    exports dev.mgpu.dialect.llvm;
    exports dev.mgpu.dialect.math;
    exports dev.mgpu.dialect.memref;
    exports dev.mgpu.dialect.nvvm;
    exports dev.mgpu.dialect.rocdl;
    exports dev.mgpu.dialect.scf;
    exports dev.mgpu.dialect.vector;
    exports dev.mgpu.ir;
    exports dev.mgpu.mlir;
    exports dev.mgpu.op;
    exports dev.mgpu.text;
    exports dev.mgpu.verify;

    uses dev.mgpu.dialect.gpu.OffloadingHandler;
}
