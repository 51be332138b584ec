"""Figures of the robust Bayes classifier chapter (Ramoni & Sebastiani)."""

from __future__ import annotations

__all__: list[str] = []
