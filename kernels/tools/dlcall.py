"""Developer helper: call a compiled ptxbench candidate from PyTorch on the GPU machine.

Used while writing the reference kernels, before `ptxbench eval` exists on the device.
It builds DLPack DLTensor structs (compact row-major, byte_offset 0) for torch tensors and
calls the candidate's `ptxbench_launch(inputs..., outputs..., stream)` entry point.

    import torch, dlcall
    lib = dlcall.load("gemm.so")
    dlcall.launch(lib, [A, B], [C])          # on torch.cuda.current_stream()
"""
import ctypes

import torch


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_KDL_CUDA = 2
_CODES = {torch.bfloat16: (4, 16), torch.float32: (2, 32), torch.float16: (2, 16)}


def to_dltensor(t: torch.Tensor):
    assert t.is_cuda and t.is_contiguous(), "candidate tensors must be contiguous CUDA tensors"
    code, bits = _CODES[t.dtype]
    shape = (ctypes.c_int64 * t.dim())(*t.shape)
    d = DLTensor(ctypes.c_void_p(t.data_ptr()), DLDevice(_KDL_CUDA, t.device.index or 0), t.dim(),
                 DLDataType(code, bits, 1), shape, None, 0)
    return d, shape  # keep shape alive with the struct


def load(path: str):
    lib = ctypes.CDLL(path)
    lib.ptxbench_launch.restype = None
    return lib


def launch(lib, inputs, outputs, stream=None):
    keep = [to_dltensor(t) for t in list(inputs) + list(outputs)]
    ptrs = [ctypes.pointer(d) for d, _ in keep]
    s = stream if stream is not None else torch.cuda.current_stream()
    lib.ptxbench_launch(*ptrs, ctypes.c_void_p(s.cuda_stream))
