"""Finding model files offline and checking them against their pinned SHA-256.

The manifest (``models/manifest.toml``) names each model, where it comes from and its
hash. A model comes either from a PyPI package (``package`` / ``module``) or is built
at set-up from another embedder's verified graph (``build_from``; ``make models`` runs
``python -m ragcore.inference.build``, which writes it under ``models/build/``).
Nothing is downloaded here: a model that is missing or not the pinned file is an error
that says which package to install, which command to run or which path to configure.
"""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ragcore.errors import ConfigError, ModelMismatchError, ModelNotFoundError

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # ragcore/
# A wheel carries the manifest as ragcore/_models; a source checkout has ../models.
_MODEL_DIRS = (_PACKAGE_DIR / "_models", _PACKAGE_DIR.parent / "models")


def models_dir() -> Path:
    """The folder holding ``manifest.toml`` and the small model files."""
    for candidate in _MODEL_DIRS:
        if (candidate / "manifest.toml").is_file():
            return candidate
    raise ModelNotFoundError(
        "the model manifest is missing (looked in "
        + ", ".join(str(d) for d in _MODEL_DIRS)
        + "); reinstall ragcore with `make setup`"
    )


class GraphFusion(StrEnum):
    """A rewrite ``make models`` applies to a built graph before quantizing it."""

    ATTENTION = "attention"
    """Each layer's Q/K/V projections and attention -> one ``com.microsoft.Attention``."""
    GELU = "gelu"
    """The exporter's erf GELU (five element-wise nodes) -> one ``BiasGelu``."""


@dataclass(frozen=True)
class EmbedderSpec:
    """One embedder entry of the manifest."""

    name: str
    file: str
    sha256: str
    tokenizer: str
    tokenizer_sha256: str
    dimension: int
    max_length: int
    pooling: str
    normalize: bool
    output: str
    package: str = ""
    module: str = ""
    build_from: str = ""
    """The embedder whose graph this one is built from (empty: shipped by ``package``)."""
    built_with: str = ""
    """The exact library versions that make the pinned bytes, e.g. ``onnx==1.23.2 ...``."""
    attention_heads: int = 0
    fusions: tuple[GraphFusion, ...] = ()
    """The rewrites a built graph gets, in order (see ``ragcore.inference.build``)."""
    disabled_optimizers: tuple[str, ...] = ()
    """onnxruntime graph optimizers not to run at load: a fused kernel that is slower
    than the nodes it replaces (measured; see the manifest)."""

    @property
    def built(self) -> bool:
        return bool(self.build_from)


BUILD_COMMAND = "`make models` (or `python -m ragcore.inference.build`)"


def embedder_spec(name: str) -> EmbedderSpec:
    """Read the manifest entry of embedder ``name``."""
    manifest = tomllib.loads((models_dir() / "manifest.toml").read_text("utf-8"))
    entries = manifest.get("embedders", {})
    if name not in entries:
        raise ConfigError(
            "embedder", name, f"choose one of {sorted(entries)} (models/manifest.toml)"
        )
    entry = entries[name]
    fields = {k: entry[k] for k in EmbedderSpec.__dataclass_fields__ if k in entry}
    try:
        fields["fusions"] = tuple(GraphFusion(f) for f in entry.get("fusions", ()))
    except ValueError as exc:
        raise ConfigError(
            "fusions", entry["fusions"], f"use some of {[f.value for f in GraphFusion]}"
        ) from exc
    fields["disabled_optimizers"] = tuple(entry.get("disabled_optimizers", ()))
    return EmbedderSpec(name=name, **fields)


def embedder_names() -> list[str]:
    """Every embedder the manifest names."""
    manifest = tomllib.loads((models_dir() / "manifest.toml").read_text("utf-8"))
    return sorted(manifest.get("embedders", {}))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(path: Path, expected_sha256: str, what: str, how_to_fix: str) -> Path:
    """Return ``path`` if it exists and hashes to ``expected_sha256``."""
    if not path.is_file():
        raise ModelNotFoundError(f"{what} not found at {path}: {how_to_fix}")
    actual = sha256_of(path)
    if actual != expected_sha256.lower():
        raise ModelMismatchError(
            f"{what} at {path} has sha256 {actual}, expected {expected_sha256}: "
            f"the file is corrupt or a different model; {how_to_fix}"
        )
    return path


def resolve_embedder(spec: EmbedderSpec, override: Path | None = None) -> tuple[Path, Path]:
    """Return the verified (model file, tokenizer file) of an embedder.

    ``override`` is a user-given model file; it must still match the pinned hash.
    """
    if spec.built:
        install = (
            f"it is built from embedder {spec.build_from!r} with {spec.built_with}: run "
            f"{BUILD_COMMAND}, or choose embedder {spec.build_from!r}"
        )
    else:
        install = f"install it with `pip install {spec.package}` (done by `make setup`)"
    if override is not None:
        model = Path(override)
    elif spec.built:
        model = built_model_path(spec)
    else:
        found = importlib.util.find_spec(spec.module)
        if found is None or not found.submodule_search_locations:
            raise ModelNotFoundError(
                f"embedder {spec.name!r}: Python package {spec.module!r} is not installed; "
                f"{install}, or set embedder_path to a local copy of {spec.file}"
            )
        model = Path(next(iter(found.submodule_search_locations))) / spec.file
    verify(model, spec.sha256, f"embedder {spec.name!r} model", install)
    tokenizer = verify(
        models_dir() / spec.tokenizer,
        spec.tokenizer_sha256,
        f"embedder {spec.name!r} tokenizer",
        "restore models/ from the ragcore repository",
    )
    return model, tokenizer


def built_model_path(spec: EmbedderSpec) -> Path:
    """Where ``make models`` writes a built embedder's graph (``file`` is relative to
    the folder holding the manifest)."""
    return models_dir() / spec.file
