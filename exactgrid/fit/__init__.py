"""Answer fit questions: one at a time (:func:`fit`), through a solver session on one encoding
(:mod:`.session`), or many at once on a process pool or a Dask cluster (:mod:`.many`).

Every grid shown has been checked by the finder, which shares no code with the encoder.
"""

from ..question import Verdict
from .answer import FitAnswer, ModelSize, VerificationError, fit, model_size, verified_answer

__all__ = ["FitAnswer", "ModelSize", "Verdict", "VerificationError", "fit", "model_size", "verified_answer"]
