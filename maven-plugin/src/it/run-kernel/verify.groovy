// The executable was built by mgpu:generate and run by exec-maven-plugin; its numbers are in the log.
def log = new File(basedir, 'build.log').text
def exe = new File(basedir, 'target/mgpu/squares')
assert exe.canExecute() : "no executable at $exe"
assert new File(basedir, 'target/mgpu/squares.d').text.contains('squares.mlir')
assert log.contains('mgpu: compiling squares.mlir (no squares yet)')
def printed = log.readLines().findAll { it ==~ /-?\d+/ }
assert printed == ['0', '2', '6', '12', '20', '30', '42', '56'] : "printed: $printed"
// Run again, here, with the runtime found through the executable's rpath alone.
def p = new ProcessBuilder(exe.path).redirectErrorStream(true)
p.environment().put('MGPU_BACKEND', 'cpu')
def proc = p.start()
def out = proc.inputStream.text
assert proc.waitFor() == 0 : out
assert out == '0\n2\n6\n12\n20\n30\n42\n56\n' : out
return true
