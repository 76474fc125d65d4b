// ptxbench glue for MatmulTutorial's FlashAttention-3-style forward
// (examples/attention/cuda/gqa-hopper/fa3.cu; our code). scripts/public-kernels.sh appends it
// after the patched public source, once per task: PUBGLUE_CAUSAL is 0 for mha_with_lse_d128 and
// 1 for mha_with_lse_d128_causal (the script defines it just before this file).
//
// The public host function (kernels/public/mattut_fa3.patch keeps its signature):
//   flash_attn_fwd_varlen(q, k, v, o, cu_seqlens_q, cu_seqlens_k, total_q, total_k,
//                         max_seqlen_q, max_seqlen_k, batch, nheads, nkv_heads, headdim,
//                         softmax_scale, is_causal, stream, workspace_lse, workspace_semaphore,
//                         seqused_q, seqused_k, leftpad_k)
// takes variable-length ("THD") tensors: Q, O [total_q][nheads][128], K, V
// [total_k][nkv_heads][128], bf16, sequence b being rows cu_seqlens[b] .. cu_seqlens[b+1]; it
// writes O, and (after the patch) the natural-log LSE as [nheads][total_q] floats into
// workspace_lse; workspace_semaphore is one int, its persistent tile counter.
//
// ptxbench's tensors are Q, K, V, O [B][H][S][128] and LSE [B][H][S]. Seen as B*H sequences of S
// rows with ONE head, that is the THD layout exactly: row (b*H + h)*S + s of a [B*H*S][1][128]
// tensor is element [b][h][s][:], and LSE [1][B*H*S] is LSE[b][h][s]. So the glue passes
// batch = B*H, nheads = nkv_heads = 1, total = B*H*S, cu_seqlens = {0, S, 2S, ..., B*H*S}, the
// task's LSE output as workspace_lse, and scale 1/sqrt(128); the causal mask of varlen FA3
// (key j allowed for query i when j <= i + seqlen_k - seqlen_q) is the task's (j <= i) since
// seqlen_k = seqlen_q = S. cu_seqlens and the semaphore live in a stream-ordered workspace of
// the call, freed after the launch.
#include <dlpack/dlpack.h>

#ifndef PUBGLUE_CAUSAL
#define PUBGLUE_CAUSAL 0
#endif

// ws[i] = i * S for i in [0, nseq]: the cumulative sequence lengths of nseq sequences of S rows.
__global__ void pubglue_cu_seqlens(int* ws, int nseq, int S) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= nseq) ws[i] = i * S;
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const int B = (int)Q->shape[0], H = (int)Q->shape[1], S = (int)Q->shape[2];
  const int D = (int)Q->shape[3];
  if (D != 128) {  // the public kernel is written for head dimension 128 only
    fprintf(stderr, "fa3 glue: head dimension %d, the public kernel takes 128 only\n", D);
    return;
  }
  const int nseq = B * H, total = B * H * S;

  // [0, nseq]: cu_seqlens (the same array for Q and K); [nseq + 1]: the tile semaphore.
  int* ws = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&ws), sizeof(int) * (size_t)(nseq + 2), stream) !=
      cudaSuccess) {
    fprintf(stderr, "fa3 glue: cudaMallocAsync of %d ints failed\n", nseq + 2);
    return;  // nothing written: the call is judged on its poisoned outputs
  }
  pubglue_cu_seqlens<<<(nseq + 1 + 255) / 256, 256, 0, stream>>>(ws, nseq, S);

  flash_attn_fwd_varlen(Q->data, K->data, V->data, O->data, /*cu_seqlens_q=*/ws,
                        /*cu_seqlens_k=*/ws, /*total_q=*/total, /*total_k=*/total,
                        /*max_seqlen_q=*/S, /*max_seqlen_k=*/S, /*batch=*/nseq, /*nheads=*/1,
                        /*nkv_heads=*/1, /*headdim=*/D, /*softmax_scale=*/1.0f / sqrtf((float)D),
                        /*is_causal=*/PUBGLUE_CAUSAL, /*stream_ptr=*/stream,
                        /*workspace_lse=*/LSE->data, /*workspace_semaphore=*/ws + nseq + 1,
                        /*seqused_q=*/nullptr, /*seqused_k=*/nullptr, /*leftpad_k=*/nullptr);

  cudaFreeAsync(ws, stream);
}
