"""Figures of the credal AODE chapter (Corani & Antonucci)."""

from __future__ import annotations

__all__: list[str] = []
