// Three builds in one log: all compiled, then none (up to date), then all again (-O1 is another command).
def log = new File(basedir, 'build.log').text
def summaries = log.readLines().findAll { it.contains('[INFO] mgpu: ') && it.contains(' of 2 compiled') }
        .collect { it.substring(it.indexOf('mgpu: ')) }
def out = new File(basedir, 'target/mgpu').canonicalPath
assert summaries == ["mgpu: 2 of 2 compiled, 0 up to date, into $out",
                     "mgpu: 0 of 2 compiled, 2 up to date, into $out",
                     "mgpu: 2 of 2 compiled, 0 up to date, into $out"].collect { it.toString() } : summaries
assert log.contains('mgpu: squares.mlir is up to date, skipped')
assert log.contains('mgpu: sub/scale.mlir is up to date, skipped')
assert log.contains('mgpu: compiling sub/scale.mlir (the configuration changed)')
assert !log.contains('draft-broken')
for (o in ['target/mgpu/squares.o', 'target/mgpu/sub/scale.o']) {
    def bytes = new File(basedir, o).bytes
    assert bytes.length > 64 && new String(bytes, 1, 3, 'US-ASCII') == 'ELF' : "$o is no object"
}
assert new File(basedir, 'target/mgpu/sub/scale.o.args').text.contains('-O1\n')
return true
