"""hoaregpu: prove CUDA kernels correct with the Hoare-quadruple logic of Kojima & Igarashi."""

__version__ = "0.1.0"
