// A C program linked against the library (found at run time through its rpath) prints what the kernel made.
def dir = new File(basedir, 'target/mgpu')
assert new File(dir, 'libcubes.so').isFile()
assert new File(dir, 'libcubes.so.d').text.contains('cubes.mlir')
def run = { List<String> cmd ->
    def pb = new ProcessBuilder(cmd).directory(basedir).redirectErrorStream(true)
    pb.environment().put('MGPU_BACKEND', 'cpu')
    def p = pb.start()
    def out = p.inputStream.text
    assert p.waitFor() == 0 : "${cmd}: ${out}"
    return out
}
def cc = System.getenv('CC') ?: 'cc'
run([cc, 'src/main/c/main.c', "-L${dir}", "-Wl,-rpath,${dir}", '-lcubes', '-o', 'target/app'].collect { it.toString() })
def out = run([new File(basedir, 'target/app').path])
assert out == '0\n1\n8\n27\n64\n125\n' : out
return true
