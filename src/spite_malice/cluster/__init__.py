"""Several game servers on one machine behind a real load balancer: ``spite-malice cluster``.

:mod:`.postgres` runs a private PostgreSQL server, :mod:`.balancer` runs HAProxy with the
repository's ``deploy/haproxy.cfg``, and :mod:`.launcher` starts them with N instances of
``spite-malice serve`` and stops them all together. Nothing here is needed to run one server;
docs/deploying.md shows the same parts on several machines.
"""

from __future__ import annotations

from .launcher import Cluster, ClusterError, Instance

__all__ = ["Cluster", "ClusterError", "Instance"]
