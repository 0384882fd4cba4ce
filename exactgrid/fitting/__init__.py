"""Answer fit questions: one at a time (:func:`fit`), through a solver session on one encoding
(:mod:`.session`), or many at once on a process pool or a Dask cluster (:mod:`.many`).

Every grid shown has been checked by the finder, which shares no code with the encoder.
"""

from ..question import Verdict
from .answer import Explanation, FitAnswer, ModelSize, VerificationError, model_size, verified_answer
from .decide import EXPORT_FORMATS, fit

__all__ = ["EXPORT_FORMATS", "Explanation", "FitAnswer", "ModelSize", "Verdict", "VerificationError", "fit",
           "model_size", "verified_answer"]

