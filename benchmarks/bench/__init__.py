"""Every benchmark, in one place: the speed benchmarks of the engine
(:mod:`.engine`: its fast and checked paths, ``benchmarks/engine.py``) and of the research
adapters against it (:mod:`.research`, ``benchmarks/research.py``), OpenSpiel's per-move cost in
two source trees (:mod:`.openspiel_compare`), the load of one server (:mod:`.server_load`)
and of a cluster (:mod:`.cluster_load`), storing moves (:mod:`.store_append`) and analysing
a game (:mod:`.analysis_time`, :mod:`.web_analysis_time`). The scripts beside this package in
``benchmarks/`` that the docs name (``benchmarks/load.py`` and the others) launch these
modules; none of it ships in the ``spite_malice`` package."""

from __future__ import annotations
