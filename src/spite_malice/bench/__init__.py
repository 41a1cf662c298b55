"""The speed benchmarks behind ``spite-malice bench`` (:mod:`.engine`: the engine's fast
and checked paths) and ``spite-malice research-bench`` (:mod:`.research`: the research
adapters against the engine), in one place. Load tests that need a running server or a
cluster are scripts in the repository's ``benchmarks/`` folder."""

from __future__ import annotations
