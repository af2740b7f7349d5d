"""The IRONDIE rules engine: pure Python, no Django imports.

The dice catalogue (types, classes, colours, affinity) lives in ``dice``.
"""
