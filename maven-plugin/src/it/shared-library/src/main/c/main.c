/* Calls the function of libcubes.so that mgpu:generate made from src/main/mlir/cubes.mlir. */
void cubes(void);

int main(void) {
    cubes();
    return 0;
}
