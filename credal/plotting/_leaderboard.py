"""Figures of the leaderboard and performance chapters."""

from __future__ import annotations

__all__: list[str] = []
