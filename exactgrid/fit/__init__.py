"""Answer fit questions: one at a time (:func:`fit`), through a solver session on one encoding
(:mod:`.session`), or many at once on a process pool or a Dask cluster (:mod:`.many`).

Every grid shown has been checked by the finder, which shares no code with the encoder.
"""

import sys
import types
from typing import Any

from ..question import Verdict
from .answer import Explanation, FitAnswer, ModelSize, VerificationError, model_size, verified_answer
from .decide import EXPORT_FORMATS, fit

__all__ = ["EXPORT_FORMATS", "Explanation", "FitAnswer", "ModelSize", "Verdict", "VerificationError", "fit",
           "model_size", "verified_answer"]


class _FitModule(types.ModuleType):
    """This package, callable as :func:`fit`. Importing a subpackage binds it on its parent, so
    once ``exactgrid.fit`` is imported, ``eg.fit`` is this module rather than the function that
    ``import exactgrid as eg`` offers lazily; calling it does the same either way."""

    def __call__(self, *args: Any, **kwargs: Any) -> FitAnswer:
        return fit(*args, **kwargs)


sys.modules[__name__].__class__ = _FitModule
