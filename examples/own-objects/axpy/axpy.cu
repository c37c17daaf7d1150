// axpy for NVIDIA GPUs: y[i] = a * x[i] + y[i]. The host passes memrefs as bare pointers.
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
