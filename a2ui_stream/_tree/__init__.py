"""The tree layer: JSON values as immutable trees.

Owns JSON Pointer (RFC 6901) with A2UI's write rules, RFC 6902 patches applied and
computed, and sharing the identity of unchanged subtrees, so later layers can skip
work with an ``is`` check. Knows nothing of A2UI operations or AG-UI events.

May import: ``a2ui_stream._wire`` (diagnostics, limits, numbers) and msgspec.
"""
