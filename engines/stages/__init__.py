"""The steps of the CPU reference engine, one class each, all with one interface (:class:`Stage`).

engines/pipeline.py lists them in order and runs them. Each stage gets the document as the
stages before it left it (:class:`DocumentState`) and the reading's fixed context
(:class:`engines.types.EngineContext`), says whether it has anything to do (``applies``) and
returns the document with its own findings added (``run``). A stage that cannot go on raises
:class:`engines.types.EngineError`, which ends the reading. The rules of each kind of evidence
live in the stage that reads it; the loop that runs them holds none.
"""

from engines.stages.base import DocumentState, IdentityZone, Stage, run_stages

__all__ = ["DocumentState", "IdentityZone", "Stage", "run_stages"]
