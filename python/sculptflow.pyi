"""Type stubs for the sculptflow module (python/src/*.cpp); docs/python.md."""

import os
from typing import Any, Literal, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

FLAG_MIN_STEP_CLAMPED: int
FLAG_ITERATION_CAP: int
FLAG_NON_FINITE: int
FLAG_CULLED: int
FLAG_FOLDED: int
FLAG_UNVERIFIED: int

_Path = Union[str, os.PathLike[str]]
Positions = npt.NDArray[np.float32]  # (N, 3), C-contiguous, in voxels

class Stroke:
    """A stroke: tools' poses in world units and the voxel size."""
    voxel_size: float
    @property
    def voxel_size_defaulted(self) -> bool: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def tool_count(self) -> int: ...
    @property
    def pose_counts(self) -> list[int]: ...
    @property
    def symmetry(self) -> str: ...
    def __init__(self, path: _Path, bin_voxel_size: Optional[float] = None) -> None: ...
    def to_voxels(self, positions: Positions) -> Positions: ...
    def write_json(self, path: _Path) -> None: ...

class Mesh:
    """A polygon mesh, in the units of its file; its arrays are read-only views."""
    @property
    def positions(self) -> npt.NDArray[np.float32]: ...
    @property
    def face_sizes(self) -> npt.NDArray[np.uint32]: ...
    @property
    def face_indices(self) -> npt.NDArray[np.uint32]: ...
    @property
    def mask(self) -> Optional[npt.NDArray[np.float32]]: ...
    @property
    def vertex_count(self) -> int: ...

class Context:
    """A headless Vulkan context and GPU solver kept between solves."""
    def __init__(self, validation: bool = False, device: str = "") -> None: ...
    @property
    def device_name(self) -> str: ...
    @property
    def driver_name(self) -> str: ...
    @property
    def validation_enabled(self) -> bool: ...
    @property
    def allocated_memory(self) -> int: ...
    @property
    def pipelines_built(self) -> int: ...
    def check_validation(self) -> None: ...

def default_stroke() -> Stroke: ...
def default_mesh(stroke: Stroke) -> Mesh: ...
def icosphere(subdivisions: int, center: Sequence[float], radius: float) -> Mesh: ...
def read_mesh(path: _Path) -> Mesh: ...

Method = Literal["bs32", "dp45", "tsit5", "rk4dbl", "rk4"]

@overload
def deform(positions: Positions, stroke: Stroke, *, method: Method = ..., tol: float = ...,
           mode: Literal["move", "continuous"] = ..., mask: Optional[npt.NDArray[np.float32]] = ...,
           backend: Literal["cpu", "gpu"] = ..., context: Optional[Context] = ...,
           statistics: Literal[False] = ..., voxel_size: Optional[float] = ..., steps: Optional[int] = ...,
           max_attempts: Optional[int] = ..., verify: bool = ..., threads: int = ...) -> Positions: ...
@overload
def deform(positions: Positions, stroke: Stroke, *, method: Method = ..., tol: float = ...,
           mode: Literal["move", "continuous"] = ..., mask: Optional[npt.NDArray[np.float32]] = ...,
           backend: Literal["cpu", "gpu"] = ..., context: Optional[Context] = ...,
           statistics: Literal[True], voxel_size: Optional[float] = ..., steps: Optional[int] = ...,
           max_attempts: Optional[int] = ..., verify: bool = ...,
           threads: int = ...) -> tuple[Positions, dict[str, Any]]: ...

@overload
def ground_truth(positions: Positions, stroke: Stroke, *, tol: float = ..., voxel_size: Optional[float] = ...,
                 details: Literal[False] = ...) -> npt.NDArray[np.float64]: ...
@overload
def ground_truth(positions: Positions, stroke: Stroke, *, tol: float = ..., voxel_size: Optional[float] = ...,
                 details: Literal[True]) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...

_Result = Union[Positions, tuple[Positions, dict[str, Any]]]
_Truth = Union[npt.NDArray[np.float64], tuple[npt.NDArray[np.float64], dict[str, Any]]]

def compare(result: _Result, truth: _Truth, *, converged: Optional[npt.NDArray[np.bool_]] = ...,
            reference: Optional[_Result] = ...) -> dict[str, Any]: ...
