"""The zone semantics: every action kind's concrete meaning and symbolic meaning, side by side,
one module per family of actions, behind the registry (registry.py), which checks at import that
no half is missing."""

from . import battlefield, exile_command, hand, library, pregame, replacement, sba, stack, visibility  # noqa: F401  (they register the actions)
from .registry import ACTIONS, HOOKS, ActionSpec, Listed, PlayerUse, Target, check_complete, kinds_where, spec

check_complete()

__all__ = ["ACTIONS", "HOOKS", "ActionSpec", "Listed", "PlayerUse", "Target", "kinds_where", "spec"]
