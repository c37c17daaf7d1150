// The build failed on the compiler's diagnostic, located in the source, and left no output behind.
def log = new File(basedir, 'build.log').text
def bad = new File(basedir, 'src/main/mlir/bad.mlir').canonicalPath
assert log.contains("${bad}:4:23: error: Invalid use of %zz (must be defined): undefined value") : log
assert log.contains('gpu-translate failed on bad.mlir (exit 1)') : log
assert log.contains('BUILD FAILURE')
assert !new File(basedir, 'target/mgpu/bad').exists()
assert !new File(basedir, 'target/mgpu/bad.args').exists()
return true
