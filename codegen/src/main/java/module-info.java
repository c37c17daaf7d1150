/**
 * mgpu's translation of a verified model into an LLVM host module through bytedeco's LLVM, and the
 * offloading handlers. The implementation ({@code dev.mgpu.codegen.internal}) is not exported.
 */
module dev.mgpu.codegen {
    requires transitive dev.mgpu.model;
    requires transitive org.bytedeco.llvm;
    requires org.bytedeco.javacpp;

    exports dev.mgpu.codegen;
}
