// CLI test input: a Latin-1 byte nvcc quotes back in its error (not UTF-8).
__global__ void k(){ int x = 1 é; }
