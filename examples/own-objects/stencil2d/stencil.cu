// 5-point stencil for NVIDIA GPUs, on a 2-D grid of 2-D blocks.
extern "C" __global__ void stencil(const float *in, float *out, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols)
    return;
  if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1)
    out[r * cols + c] = in[r * cols + c];
  else
    out[r * cols + c] =
        0.25f * (in[(r - 1) * cols + c] + in[(r + 1) * cols + c] + in[r * cols + c - 1] + in[r * cols + c + 1]);
}
