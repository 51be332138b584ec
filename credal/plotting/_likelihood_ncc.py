"""Figures of the likelihood-based naive credal classifier chapter (Antonucci, Cattaneo & Corani)."""

from __future__ import annotations

__all__: list[str] = []
