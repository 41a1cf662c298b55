"""Every benchmark, in one place: the speed benchmarks behind ``spite-malice bench``
(:mod:`.engine`: the engine's fast and checked paths) and ``spite-malice research-bench``
(:mod:`.research`: the research adapters against the engine), OpenSpiel's per-move cost in
two source trees (:mod:`.openspiel_compare`), the load of one server (:mod:`.server_load`)
and of a cluster (:mod:`.cluster_load`), storing moves (:mod:`.store_append`) and analysing
a game (:mod:`.analysis_time`, :mod:`.web_analysis_time`). The scripts in the repository's
``benchmarks/`` folder that the docs name (``benchmarks/load.py`` and the others) launch
these modules."""

from __future__ import annotations
