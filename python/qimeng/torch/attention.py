"""Fused attention ops as their math, so torch-mlir can lower them.

On a CUDA device, `torch.nn.functional.scaled_dot_product_attention`
dispatches to a fused kernel (`_scaled_dot_product_efficient_attention`,
`_scaled_dot_product_flash_attention` or `_scaled_dot_product_cudnn_attention`)
before AOTAutograd's decomposition table is consulted for the public op, and
torch-mlir cannot lower those ("Lowering TorchFX IR -> Torch Backend IR
failed"). Here each becomes `_scaled_dot_product_attention_math` (matmul,
scale, mask, softmax, matmul), which torch-mlir lowers to linalg and QiMeng
plans like any other graph.

The fused ops also return what their own backward kernels need (the
log-sum-exp, random-number state, sequence offsets). Nothing reads them once
the forward is decomposed: autograd differentiates the math ops instead, and
inference drops them. They are returned empty, of the right type; the
log-sum-exp is computed when `compute_log_sumexp` asks for it.
"""

import torch

aten = torch.ops.aten


def _bias(query, key, attn_bias, is_causal):
    """The additive bias of the scores: the causal mask (query i sees keys
    up to i) from index comparisons — the math op's own mask is a tensor
    made with `torch.ones`, which torch-mlir cannot lower on the meta
    device — plus `attn_bias`."""
    if not is_causal:
        return attn_bias
    rows = torch.arange(query.shape[-2], device=query.device)
    cols = torch.arange(key.shape[-2], device=query.device)
    seen = rows.unsqueeze(1) >= cols.unsqueeze(0)
    causal = torch.where(seen, 0.0, float("-inf")).to(query.dtype)
    return causal if attn_bias is None else causal + attn_bias


def _math(query, key, value, bias, dropout_p, scale):
    return aten._scaled_dot_product_attention_math.default(
        query, key, value, bias, dropout_p, False, scale=scale)[0]


def _log_sum_exp(query, key, bias, scale):
    """The log-sum-exp of each query's scaled scores (rows of the softmax)."""
    if scale is None:
        scale = query.shape[-1] ** -0.5
    scores = torch.matmul(query, key.transpose(-2, -1)) * scale
    if bias is not None:
        scores = scores + bias
    return torch.logsumexp(scores.float(), dim=-1)


def _empty(query, dtype):
    return torch.empty((0,), dtype=dtype, device=query.device)


def _indices(query, count):
    """`count` distinct empty int64 tensors (outputs must not alias)."""
    return [_empty(query, torch.int64) for _ in range(count)]


def _attend(query, key, value, attn_bias, dropout_p, is_causal, scale,
            log_sum_exp):
    """The output and, when `log_sum_exp`, the log-sum-exp (else empty)."""
    bias = _bias(query, key, attn_bias, is_causal)
    out = _math(query, key, value, bias, dropout_p, scale)
    lse = (_log_sum_exp(query, key, bias, scale) if log_sum_exp else
           _empty(query, torch.float32))
    return out, lse


def _flash_outputs(query, key, out, lse):
    """The nine results of the flash and cuDNN ops: output, log-sum-exp,
    sequence offsets, maximal lengths, random state, debug mask."""
    offsets, state = _indices(query, 2), _indices(query, 2)
    return (out, lse, *offsets, query.shape[-2], key.shape[-2], *state,
            _empty(query, query.dtype))


def efficient_attention(query, key, value, attn_bias, compute_log_sumexp,
                        dropout_p=0.0, is_causal=False, *, scale=None):
    """`aten._scaled_dot_product_efficient_attention` as its math."""
    out, lse = _attend(query, key, value, attn_bias, dropout_p, is_causal,
                       scale, compute_log_sumexp)
    return (out, lse, *_indices(query, 2))


def flash_attention(query, key, value, dropout_p=0.0, is_causal=False,
                    return_debug_mask=False, *, scale=None):
    """`aten._scaled_dot_product_flash_attention` as its math."""
    out, lse = _attend(query, key, value, None, dropout_p, is_causal, scale,
                       True)
    return _flash_outputs(query, key, out, lse)


def cudnn_attention(query, key, value, attn_bias, compute_log_sumexp,
                    dropout_p=0.0, is_causal=False, return_debug_mask=False,
                    *, scale=None):
    """`aten._scaled_dot_product_cudnn_attention` as its math."""
    out, lse = _attend(query, key, value, attn_bias, dropout_p, is_causal,
                       scale, compute_log_sumexp)
    return _flash_outputs(query, key, out, lse)


def register(table):
    """Adds the fused attention ops to an ATen decomposition table."""
    table[aten._scaled_dot_product_efficient_attention.default] = \
        efficient_attention
    table[aten._scaled_dot_product_flash_attention.default] = flash_attention
    table[aten._scaled_dot_product_cudnn_attention.default] = cudnn_attention
