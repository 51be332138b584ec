"""Figures of the independence-scores chapter (Moral)."""

from __future__ import annotations

__all__: list[str] = []
