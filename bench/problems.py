"""The QiMeng benchmark problems: a KernelBench-style suite of 30 kernels.

Each problem is one MLIR file under bench/problems/ (one public func.func on
tensors: the inputs in order, then one output tensor that is the destination,
returning the result; or, for the problems marked `returned`, the inputs
alone, the result built inside with tensor.empty and returned, as torch-mlir
writes it) and an entry here: its input and output shapes, the
PyTorch eager computation it must match (the reference, also the eager
baseline), and its useful FLOPs and minimum bytes moved.

Level 1 follows KernelBench v0.1 (ScalingIntelligence/KernelBench at bb27f27,
2024-10-24) with its shapes; level 2 is QiMeng's own list of fused kernels,
modelled on KernelBench level 2 with the shapes of the closest level 2
problem where one exists. Parameters (Linear and Conv2d weights and biases,
LayerNorm's affine weight and bias) are inputs, drawn like the activations
with torch.randn. Linear weights are stored [in, out] (the transpose of
nn.Linear's weight), so the references compute x @ w.

FLOPs count each arithmetic operation or activation function once per
element it touches (2*M*N*K for a matmul, 1 per element for relu, gelu or
sigmoid); bytes are every input read once plus the output written once.

Standard library only at import time: torch is imported inside the
reference functions, which take the inputs as torch tensors (float32 or
float64, on any device) and return the output.
"""
from dataclasses import dataclass
from math import prod
from typing import Callable


@dataclass(frozen=True)
class Input:
    shape: tuple
    dtype: str = "float32"   # "float32" or "int64" ...
    kind: str = "randn"      # "randn" (torch.randn, as KernelBench) or "rand"


@dataclass(frozen=True)
class Output:
    shape: tuple
    dtype: str = "float32"


@dataclass(frozen=True)
class Problem:
    name: str            # "L1-08-relu"
    level: int           # 1 or 2
    mlir: str            # path relative to bench/problems, e.g. "level1/08_relu.mlir"
    entry: str           # the func name in the file
    kernelbench: str     # the KernelBench file it follows, e.g. "level1/19_ReLU.py", or "" if none
    inputs: tuple        # one Input per MLIR argument before the output argument, in order
    output: Output       # shape and dtype of the result (the return; and the last MLIR argument unless returned)
    reference: Callable  # def f(*tensors) -> tensor: the PyTorch eager computation
    flops: int           # useful floating-point operations
    bytes: int           # minimum bytes moved: every input read once + the output written once
    note: str = ""       # what differs from KernelBench v0.1, or where level 2 shapes come from
    returned: bool = False  # the result is built inside and returned (no output argument)
    shapes: str = "v0.1"  # "v0.1", or "current": KernelBench's current problem files


_ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8,
             "int64": 8, "int32": 4, "int8": 1, "bool": 1}


def _size(spec):
    return prod(spec.shape) * _ITEMSIZE[spec.dtype]


# The problems written in the returned-result form (a third or more).
_RETURNED = {"square_matmul", "transposed_b_matmul", "relu", "gelu", "softmax",
             "layernorm", "sum_reduce", "argmax", "conv2d_3x3",
             "linear_bias_relu", "layernorm_gelu", "elementwise_chain"}


def _problem(level, number, stem, entry, kernelbench, inputs, output,
             reference, flops, note="", shapes="v0.1"):
    """A Problem named and placed by its level, number and file stem (a
    current-shapes twin: named K<level>-..., its file under current/)."""
    inputs = tuple(Input(tuple(s)) if isinstance(s, (tuple, list)) else s
                   for s in inputs)
    if isinstance(output, (tuple, list)):
        output = Output(tuple(output))
    return Problem(
        name="%s%d-%02d-%s" % ("K" if shapes == "current" else "L", level,
                                number, stem.replace("_", "-")),
        level=level,
        mlir="%s/%02d_%s.mlir" % ("current" if shapes == "current"
                                  else "level%d" % level, number, stem),
        entry=entry,
        kernelbench=kernelbench,
        inputs=inputs,
        output=output,
        reference=reference,
        flops=int(flops),
        bytes=sum(_size(s) for s in inputs) + _size(output),
        note=note,
        returned=entry in _RETURNED,
        shapes=shapes)


# --- References (PyTorch eager) ----------------------------------------------

def _matmul(a, b):
    import torch
    return torch.matmul(a, b)


def _batched_matmul(a, b):
    import torch
    return torch.bmm(a, b)


def _matmul_transposed_b(a, b):
    import torch
    return torch.matmul(a, b.T)


def _relu(x):
    import torch
    return torch.relu(x)


def _gelu(x):
    import torch
    return torch.nn.functional.gelu(x)


def _sigmoid(x):
    import torch
    return torch.sigmoid(x)


def _softmax(x):
    import torch
    return torch.softmax(x, dim=1)


def _log_softmax(x):
    import torch
    return torch.log_softmax(x, dim=1)


def _layernorm_last3(x, w, b):
    import torch
    return torch.nn.functional.layer_norm(x, tuple(x.shape[1:]), w, b, 1e-5)


def _rmsnorm(x):
    import torch
    rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5)
    return x / rms


def _sum_dim1_keepdim(x):
    import torch
    return torch.sum(x, dim=1, keepdim=True)


def _max_dim1(x):
    import torch
    return torch.max(x, dim=1)[0]


def _argmax_dim1(x):
    import torch
    return torch.argmax(x, dim=1)


def _conv2d(x, w):
    import torch
    return torch.nn.functional.conv2d(x, w)


def _depthwise_conv2d(x, w):
    import torch
    return torch.nn.functional.conv2d(x, w.unsqueeze(1), groups=w.shape[0])


def _maxpool2d(x):
    import torch
    return torch.nn.functional.max_pool2d(x, kernel_size=2, stride=2,
                                          padding=1, dilation=3)


def _linear_bias_relu(x, w, b):
    import torch
    return torch.relu(torch.addmm(b, x, w))


def _gemm_scale_leaky_relu(x, w, b):
    import torch
    return torch.nn.functional.leaky_relu(torch.addmm(b, x, w) * 2.0, 0.1)


def _linear_gelu_softmax(x, w, b):
    import torch
    return torch.softmax(torch.nn.functional.gelu(torch.addmm(b, x, w)), dim=1)


def _conv2d_bias_relu(x, w, b):
    import torch
    return torch.relu(torch.nn.functional.conv2d(x, w, b))


def _matmul_residual_add(x, w, b):
    import torch
    t = torch.addmm(b, x, w)
    return t * 0.5 + t


def _linear_sigmoid_sum(x, w, b):
    import torch
    return torch.sum(torch.sigmoid(torch.addmm(b, x, w)), dim=1)


def _layernorm_gelu(x, w, b):
    import torch
    f = torch.nn.functional
    return f.gelu(f.layer_norm(x, (x.shape[-1],), w, b, 1e-5))


def _softmax_matmul(q, k, v):
    import torch
    scores = torch.matmul(q, k.transpose(-2, -1)) * 0.125
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def _elementwise_chain(x):
    import torch
    return torch.tanh(torch.relu(x * 2.0 + 1.0))


def _matmul_divide_sum(x, w):
    import torch
    return torch.sum(torch.matmul(x, w) / 2, dim=1, keepdim=True) * 1.5


# --- Level 1: KernelBench v0.1 -----------------------------------------------

_ACT = (16, 16384)          # KernelBench level 1 activations: batch 16, dim 16384
_NORM = (16, 64, 256, 256)  # KernelBench level 1 norms: batch 16, 64 features, 256x256
_RED = (16, 256, 256)       # KernelBench level 1 reductions over dim 1

LEVEL1 = [
    _problem(1, 1, "square_matmul", "square_matmul",
             "level1/1_Square_matrix_multiplication_.py",
             [(2048, 2048), (2048, 2048)], (2048, 2048), _matmul,
             2 * 2048 ** 3),
    _problem(1, 2, "rect_matmul", "rect_matmul",
             "level1/2_Standard_matrix_multiplication_.py",
             [(1024, 4096), (4096, 2048)], (1024, 2048), _matmul,
             2 * 1024 * 4096 * 2048),
    _problem(1, 3, "batched_matmul", "batched_matmul",
             "level1/3_Batched_matrix_multiplication.py",
             [(128, 128, 256), (128, 256, 512)], (128, 128, 512),
             _batched_matmul, 2 * 128 * 128 * 256 * 512),
    _problem(1, 4, "matvec", "matvec",
             "level1/4_Matrix_vector_multiplication_.py",
             [(256, 131072), (131072,)], (256,), _matmul,
             2 * 256 * 131072,
             note="vector and result 1-D (131072 and 256; KernelBench: "
                  "131072x1 and 256x1), same data"),
    _problem(1, 5, "large_k_matmul", "large_k_matmul",
             "level1/6_Matmul_with_large_K_dimension_.py",
             [(256, 131072), (131072, 256)], (256, 256), _matmul,
             2 * 256 * 256 * 131072),
    _problem(1, 6, "small_k_matmul", "small_k_matmul",
             "level1/7_Matmul_with_small_K_dimension_.py",
             [(16384, 32), (32, 16384)], (16384, 16384), _matmul,
             2 * 16384 * 16384 * 32),
    _problem(1, 7, "transposed_b_matmul", "transposed_b_matmul",
             "level1/17_Matmul_with_transposed_B.py",
             [(1024, 4096), (2048, 4096)], (1024, 2048), _matmul_transposed_b,
             2 * 1024 * 2048 * 4096),
    _problem(1, 8, "relu", "relu", "level1/19_ReLU.py",
             [_ACT], _ACT, _relu, prod(_ACT)),
    _problem(1, 9, "gelu", "gelu", "level1/26_GELU_.py",
             [_ACT], _ACT, _gelu, prod(_ACT)),
    _problem(1, 10, "sigmoid", "sigmoid", "level1/21_Sigmoid.py",
             [_ACT], _ACT, _sigmoid, prod(_ACT)),
    # max, subtract, exp, sum, divide
    _problem(1, 11, "softmax", "softmax", "level1/23_Softmax.py",
             [_ACT], _ACT, _softmax, 5 * prod(_ACT)),
    # max, subtract, exp, sum, subtract (+ one log per row)
    _problem(1, 12, "log_softmax", "log_softmax", "level1/24_LogSoftmax.py",
             [_ACT], _ACT, _log_softmax, 5 * prod(_ACT) + _ACT[0]),
    # mean 1, variance 3, normalize 2, affine 2
    _problem(1, 13, "layernorm", "layernorm", "level1/40_LayerNorm.py",
             [_NORM, _NORM[1:], _NORM[1:]], _NORM, _layernorm_last3,
             8 * prod(_NORM),
             note="affine weight and bias are randn inputs (nn.LayerNorm "
                  "starts at ones and zeros)"),
    # square and sum 2, divide 1
    _problem(1, 14, "rmsnorm", "rmsnorm", "level1/36_RMSNorm_.py",
             [_NORM], _NORM, _rmsnorm, 3 * prod(_NORM)),
    _problem(1, 15, "sum_reduce", "sum_reduce",
             "level1/47_Sum_reduction_over_a_dimension.py",
             [_RED], (16, 1, 256), _sum_dim1_keepdim, prod(_RED)),
    _problem(1, 16, "max_reduce", "max_reduce",
             "level1/49_Max_reduction_over_a_dimension.py",
             [_RED], (16, 256), _max_dim1, prod(_RED)),
    _problem(1, 17, "argmax", "argmax",
             "level1/51_Argmax_over_a_dimension.py",
             [_RED], Output((16, 256), "int64"), _argmax_dim1, prod(_RED)),
    _problem(1, 18, "conv2d_3x3", "conv2d_3x3",
             "level1/63_conv_standard_2D__square_input__square_kernel.py",
             [(16, 3, 256, 256), (64, 3, 3, 3)], (16, 64, 254, 254), _conv2d,
             2 * 16 * 64 * 254 * 254 * 3 * 3 * 3),
    _problem(1, 19, "depthwise_conv2d", "depthwise_conv2d",
             "level1/82_conv_depthwise_2D_square_input_square_kernel.py",
             [(16, 3, 256, 256), (3, 3, 3)], (16, 3, 254, 254),
             _depthwise_conv2d, 2 * 16 * 3 * 254 * 254 * 3 * 3),
    # one comparison per window element
    _problem(1, 20, "maxpool2d", "maxpool2d", "level1/42_Max_Pooling_2D.py",
             [(16, 32, 128, 128)], (16, 32, 64, 64), _maxpool2d,
             16 * 32 * 64 * 64 * 2 * 2),
]

# --- Level 2: QiMeng's fused kernels -----------------------------------------

_GEMM = (128, 1024, 512)  # batch, in, out of KernelBench level2/12 and /53

LEVEL2 = [
    # matmul, then bias and relu per output element
    _problem(2, 1, "linear_bias_relu", "linear_bias_relu", "",
             [(128, 1024), (1024, 512), (512,)], (128, 512),
             _linear_bias_relu, 2 * prod(_GEMM) + 2 * 128 * 512,
             note="QiMeng's own; shapes of level2/12 (batch 128, "
                  "1024 -> 512)"),
    # matmul, then bias, multiply, leaky relu
    _problem(2, 2, "gemm_scale_leaky_relu", "gemm_scale_leaky_relu",
             "level2/12_Gemm_Multiply_LeakyReLU.py",
             [(128, 1024), (1024, 512), (512,)], (128, 512),
             _gemm_scale_leaky_relu, 2 * prod(_GEMM) + 3 * 128 * 512),
    # matmul, then bias, gelu, softmax (5)
    _problem(2, 3, "linear_gelu_softmax", "linear_gelu_softmax", "",
             [(128, 1024), (1024, 512), (512,)], (128, 512),
             _linear_gelu_softmax, 2 * prod(_GEMM) + 7 * 128 * 512,
             note="QiMeng's own (no v0.1 problem); shapes of level2/12 "
                  "(batch 128, 1024 -> 512)"),
    # convolution, then bias and relu per output element
    _problem(2, 4, "conv2d_bias_relu", "conv2d_bias_relu",
             "level2/1_Conv2D_ReLU_BiasAdd.py",
             [(128, 3, 32, 32), (16, 3, 3, 3), (16,)], (128, 16, 30, 30),
             _conv2d_bias_relu,
             2 * 128 * 16 * 30 * 30 * 3 * 3 * 3 + 2 * 128 * 16 * 30 * 30,
             note="shapes of level2/1; relu(conv + bias) without level2/1's "
                  "second bias added after the ReLU"),
    # matmul, then bias, scale, residual add
    _problem(2, 5, "matmul_residual_add", "matmul_residual_add",
             "level2/40_Matmul_Scaling_ResidualAdd.py",
             [(128, 64), (64, 128), (128,)], (128, 128),
             _matmul_residual_add, 2 * 128 * 64 * 128 + 3 * 128 * 128),
    # matmul, then bias, sigmoid, sum
    _problem(2, 6, "linear_sigmoid_sum", "linear_sigmoid_sum",
             "level2/45_Gemm_Sigmoid_Sum_LogSumExp.py",
             [(128, 10), (10, 20), (20,)], (128,),
             _linear_sigmoid_sum, 2 * 128 * 10 * 20 + 3 * 128 * 20,
             note="shapes of level2/45 (batch 128, 10 -> 20); stops at the "
                  "sum, without level2/45's logsumexp over the batch"),
    # layernorm with affine (8), then gelu
    _problem(2, 7, "layernorm_gelu", "layernorm_gelu", "",
             [(4096, 1024), (1024,), (1024,)], (4096, 1024),
             _layernorm_gelu, 9 * 4096 * 1024,
             note="QiMeng's own (no v0.1 problem); 4096 rows of 1024"),
    # Q K^T, scale, softmax (5), P V
    _problem(2, 8, "softmax_matmul", "softmax_matmul", "",
             [(32, 128, 64), (32, 128, 64), (32, 128, 64)], (32, 128, 64),
             _softmax_matmul,
             2 * 2 * 32 * 128 * 128 * 64 + 6 * 32 * 128 * 128,
             note="QiMeng's own (no v0.1 problem); batch x heads 32, "
                  "sequence 128, head dim 64, scores scaled by 1/sqrt(64)"),
    _problem(2, 9, "elementwise_chain", "elementwise_chain", "",
             [_ACT], _ACT, _elementwise_chain, 4 * prod(_ACT),
             note="QiMeng's own (no v0.1 problem); 16x16384 as level 1's "
                  "activations"),
    # matmul, then divide and sum per element, one scale per row
    _problem(2, 10, "matmul_divide_sum", "matmul_divide_sum",
             "level2/14_Gemm_Divide_Sum_Scaling.py",
             [(128, 10), (10, 20)], (128, 1),
             _matmul_divide_sum, 2 * 128 * 10 * 20 + 2 * 128 * 20 + 128),
]

# Level 1 problems again at the shapes of KernelBench's current problem files
# (ScalingIntelligence/KernelBench at 423217d, 2026-03-05), where launch
# latency no longer hides a slow plan: the memory-bound ones (each moves
# gigabytes). LayerNorm's current shapes are v0.1's (L1-13).
_ACT_NOW = (4096, 393216)
_NORM_NOW = (112, 64, 512, 512)
_RED_NOW = (128, 4096, 4095)
_KB = "ScalingIntelligence/KernelBench at 423217d"

CURRENT = [
    _problem(1, 4, "matvec", "matvec",
             "level1/4_Matrix_vector_multiplication_.py",
             [(2048, 1048576), (1048576,)], (2048,), _matmul,
             2 * 2048 * 1048576,
             note="vector and result 1-D (KernelBench: 1048576x1, 2048x1)",
             shapes="current"),
    _problem(1, 8, "relu", "relu", "level1/19_ReLU.py",
             [_ACT_NOW], _ACT_NOW, _relu, prod(_ACT_NOW), shapes="current"),
    _problem(1, 11, "softmax", "softmax", "level1/23_Softmax.py",
             [_ACT_NOW], _ACT_NOW, _softmax, 5 * prod(_ACT_NOW),
             shapes="current"),
    _problem(1, 12, "log_softmax", "log_softmax", "level1/24_LogSoftmax.py",
             [_ACT_NOW], _ACT_NOW, _log_softmax,
             5 * prod(_ACT_NOW) + _ACT_NOW[0], shapes="current"),
    _problem(1, 14, "rmsnorm", "rmsnorm", "level1/36_RMSNorm_.py",
             [_NORM_NOW], _NORM_NOW, _rmsnorm, 3 * prod(_NORM_NOW),
             shapes="current"),
    _problem(1, 15, "sum_reduce", "sum_reduce",
             "level1/47_Sum_reduction_over_a_dimension.py",
             [_RED_NOW], (128, 1, 4095), _sum_dim1_keepdim, prod(_RED_NOW),
             shapes="current"),
    _problem(1, 16, "max_reduce", "max_reduce",
             "level1/49_Max_reduction_over_a_dimension.py",
             [_RED_NOW], (128, 4095), _max_dim1, prod(_RED_NOW),
             shapes="current"),
    _problem(1, 17, "argmax", "argmax",
             "level1/51_Argmax_over_a_dimension.py",
             [_RED_NOW], Output((128, 4095), "int64"), _argmax_dim1,
             prod(_RED_NOW), shapes="current"),
]

PROBLEMS = LEVEL1 + LEVEL2 + CURRENT


def by_name(name):
    """The problem called `name` (e.g. "L1-08-relu"); KeyError if none."""
    for problem in PROBLEMS:
        if problem.name == name:
            return problem
    raise KeyError("no benchmark problem named %r" % name)
