"""Figures of the exact model averaging chapter (Dash & Cooper)."""

from __future__ import annotations

__all__: list[str] = []
