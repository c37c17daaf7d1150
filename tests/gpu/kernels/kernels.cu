// The four kernels of examples/kernels written in CUDA, with the same arguments (bare pointers), for
// nvcc -O3: what the GPU check compares mgpu's own PTX and cubins with.
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void stencil2d(const float *in, float *out) {
  long x = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long y = (long)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 64 && y < 64) {
    float v;
    if (x > 0 && x < 63 && y > 0 && y < 63)
      v = ((in[(y - 1) * 64 + x] + in[(y + 1) * 64 + x]) + (in[y * 64 + x - 1] + in[y * 64 + x + 1])) * 0.25f;
    else
      v = in[y * 64 + x];
    out[y * 64 + x] = v;
  }
}

extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < 256; t += 16) {
    As[ty][tx] = A[row * 256 + t + tx];
    Bs[ty][tx] = B[(t + ty) * 256 + col];
    __syncthreads();
    for (int k = 0; k < 16; k++)
      acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  C[row * 256 + col] = acc;
}

extern "C" __global__ void reduce(const float *x, float *sum, int n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, o, 32);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(sum, v);
}
