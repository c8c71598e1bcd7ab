from __future__ import annotations

import json

from installed_peers import node_peer, run_node


class TestNodePeer:
    def test_installs_the_pinned_version_once(self) -> None:
        """A pinned npm package installs into the cache and reports the pinned version."""
        folder = node_peer("is-number", ["is-number@7.0.0"])
        assert json.loads(run_node(folder, "versions.mjs", "is-number")) == {"is-number": "7.0.0"}
        marker = (folder / "installed-from.json").stat().st_mtime_ns
        assert node_peer("is-number", ["is-number@7.0.0"]) == folder
        assert (folder / "installed-from.json").stat().st_mtime_ns == marker
