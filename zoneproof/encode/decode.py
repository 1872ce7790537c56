"""A Z3 model of an unrolled transition system, back to card types, states and actions."""

from __future__ import annotations

import z3

from ..model import (
    PLAYER_FIELDS,
    Action,
    ActionKind,
    CardType,
    GameState,
    ObjectState,
    PlayerState,
    Zone,
    zone_key,
)
from .variables import ASSIGNED_FIELDS, BOOL_FIELDS, BOOL_PLAYER_FIELDS, DERIVED_FIELDS

K = ActionKind


def decode(system, model: z3.ModelRef, depth: int, final_state: bool = True) -> tuple[tuple[CardType, ...], list[GameState], list[Action]]:
    """Card types, states 0..depth and actions 0..depth-1 of a model. Without `final_state` the
    last action is one the rules leave with no outcome (lint's conflicts): state `depth` is
    free in the model, so it is not decoded, and the last action records no order."""

    def as_int(expr) -> int:
        return model.eval(expr, model_completion=True).as_long()

    def as_bool(expr) -> bool:
        return z3.is_true(model.eval(expr, model_completion=True))

    codes = system.codes
    slots = range(len(system.slots))
    kinds = list(ActionKind)
    types = list(CardType)

    def field_value(name: str, expr):
        return codes.field_of(name, as_bool(expr) if name in BOOL_FIELDS else as_int(expr))

    card_types = tuple(types[as_int(x)] for x in system.card_type)
    states = []
    for t in range(depth + 1 if final_state else depth):
        s = system.state(t)
        states.append(GameState(tuple(
            ObjectState(**{name: field_value(name, s.field(name, c)) for name in (*ASSIGNED_FIELDS, *DERIVED_FIELDS)},
                        shown=tuple(p for p in range(system.players) if as_bool(system.shown(t, p, c))))
            for c in slots
        ), _players(system, s, as_int, as_bool), system.player_records and as_bool(s.started)))
    actions = []
    for t in range(depth):
        a = system.step(t)
        kind = kinds[as_int(a.kind)]
        zone = codes.zone_of(as_int(a.zone))
        player = codes.player_of(as_int(a.player))
        actions.append(Action(
            kind=kind,
            card=codes.slot_of(as_int(a.card)),
            player=player,
            n=as_int(a.n),
            zone=None if zone is Zone.NOWHERE else zone,
            order=reordered_piles(kind, player, zone, states[t], states[t + 1]) if t + 1 < len(states) else (),
            cards=tuple(c for c in slots if as_bool(a.pick[c])),
            to_command=as_bool(a.to_command),
            targets=tuple(x for x in (codes.slot_of(as_int(a.aim)),) if x is not None),
        ))
    return card_types, states, actions


def _players(system, s, as_int, as_bool) -> tuple[PlayerState, ...]:
    if not system.player_records:
        return ()
    return tuple(
        PlayerState(**{f: (as_bool if f in BOOL_PLAYER_FIELDS else as_int)(s.player(f, p)) for f in PLAYER_FIELDS})
        for p in range(system.players)
    )


def reordered_piles(kind: ActionKind, player: int | None, zone: Zone, before: GameState, after: GameState):
    """The `order` record of an action: the new top-to-bottom order of each pile it reordered."""
    if kind in (K.SHUFFLE, K.SCRY):
        keys = [(Zone.LIBRARY, player)]
    elif kind is K.REORDER:
        keys = [(zone, player)]
    elif kind is K.MULLIGAN:
        # a partial Paris mulligan (903.8) sets cards aside in exile and draws from the top: no shuffle
        set_aside = any(o.zone is Zone.HAND and o2.zone is Zone.EXILE for o, o2 in zip(before.objects, after.objects))
        keys = [] if set_aside else [(Zone.LIBRARY, player)]
    elif kind is K.KEEP:
        returned = any(o.zone is Zone.EXILE and o2.zone is Zone.LIBRARY for o, o2 in zip(before.objects, after.objects))
        keys = [(Zone.LIBRARY, player)] if returned else []
    elif kind is K.SHUFFLE_HAND_INTO_LIBRARY:
        receivers = sorted({
            after.objects[c].whose
            for c, (o, o2) in enumerate(zip(before.objects, after.objects))
            if o.zone is Zone.HAND and o2.zone is Zone.LIBRARY
        })
        keys = [(Zone.LIBRARY, q) for q in receivers]
    else:
        return ()
    return tuple((zone_key(z, p), tuple(reversed(after.zone_members(z, p)))) for z, p in keys)
