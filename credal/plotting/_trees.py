"""Figures of the credal decision trees chapter (Moral)."""

from __future__ import annotations

__all__: list[str] = []
