"""The stack: casting (601.2, 405.2, 903.8 from the command zone), resolving (405.5, 400.7a, 708),
countering, and a casting proposal that turns out illegal (601.2e)."""

from __future__ import annotations

from dataclasses import replace

from ..model import PLAYER_NAMES, SPELL_ONLY_TYPES, ActionKind, Behaviour, CardType, ObjectState, Zone
from ..terms import And, If, Implies, Not, Or
from .kernel import encode_move, identity, move, new_object
from .registry import PlayerUse, Target, concrete, implements, symbolic
from .step import ConcreteStep, Effect, SymbolicStep

K = ActionKind


@implements(Behaviour.COMMANDER_CAST, half="concrete")
def require_castable(step: ConcreteStep, c: int, o: ObjectState, p: int) -> None:
    """The card is where player p may cast it from: p's hand, or the command zone for a
    commander p owns (903.8)."""
    if o.zone is Zone.COMMAND and step.slot(c).is_commander and step.slot(c).owner == p:
        rule = step.on(Behaviour.COMMANDER_CAST)
        step.require(rule is not None, f"no rule in force lets {PLAYER_NAMES[p]} cast {step.name(c)} from the command zone")
        step.cite(rule)
        return
    step.require(o.zone is Zone.HAND and o.whose == p, f"{step.name(c)} is not in {PLAYER_NAMES[p]}'s hand")


@implements(Behaviour.COMMANDER_CAST, half="symbolic")
def castable(step: SymbolicStep, c: int):
    """Slot c is where the acting player may cast it from: their hand, or the command zone for a
    commander they own (903.8); a token or a land cannot be cast."""
    s, player = step.s, step.a.player
    if step.slots[c].is_token:
        return step.false
    where = step.in_zone(s, c, Zone.HAND, player)
    if step.slots[c].is_commander:
        from_command = And(s.zone[c] == step.Z[Zone.COMMAND], player == step.owner(c), step.on(Behaviour.COMMANDER_CAST))
        where = Or(where, from_command)
    return And(where, step.card_type(c) != step.codes.type[CardType.LAND])


def require_spell_card(step: ConcreteStep, c: int) -> None:
    step.require(not step.slot(c).is_token, "a token cannot be cast")
    step.require(step.card_type(c) is not CardType.LAND, f"{step.name(c)} is a land and cannot be cast")


@concrete(K.CAST, Target.CARD, PlayerUse.ALWAYS, moves_card=True)
def do_cast(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    require_castable(step, c, o, p)
    require_spell_card(step, c)
    move(step, c, Zone.STACK, p, controller=p)


@symbolic(K.CAST)
def encode_cast(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.STACK, step.a.player, controller=step.a.player), event=castable(step, c))


@concrete(K.REVERSE_ILLEGAL_CAST, Target.CARD, PlayerUse.ALWAYS)
@implements(Behaviour.ILLEGAL_CAST_REVERSED, half="concrete")
def do_reverse_illegal_cast(step: ConcreteStep) -> None:
    """Player p proposes casting a card (601.2a moves it to the stack), the proposal turns out
    illegal (601.2e), and the game returns to the moment before the proposal (601.2): the card
    is where it was, the same object. Without 601.2 the move back is an ordinary zone change,
    so the card returns to where it was as a new object (400.7)."""
    c, o = step.target()
    require_castable(step, c, o, step.action.player)
    require_spell_card(step, c)
    rule = step.on(Behaviour.ILLEGAL_CAST_REVERSED)
    if rule:
        step.cite(rule)
        return
    step.objects[c] = o.moved(**new_object(step, o))


@symbolic(K.REVERSE_ILLEGAL_CAST)
@implements(Behaviour.ILLEGAL_CAST_REVERSED, half="symbolic")
def encode_reverse_illegal_cast(step: SymbolicStep, c: int) -> Effect:
    renew = And(Not(step.on(Behaviour.ILLEGAL_CAST_REVERSED)), step.on(Behaviour.NEW_OBJECT))
    return Effect(castable(step, c), step.true, identity(step, c, renew))


@concrete(K.RESOLVE, Target.CARD, moves_card=True, graveyard_bound=True)
@implements(Behaviour.STACK_TOP_ONLY, Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN, half="concrete")
def do_resolve(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.STACK, f"{step.name(c)} is not on the stack")
    rule = step.on(Behaviour.STACK_TOP_ONLY)
    if rule:
        step.require(o.pos == len(step.pile(Zone.STACK, 0)) - 1, f"{step.name(c)} is not the top of the stack (405.5)")
        step.cite(rule)
    if step.card_type(c) in SPELL_ONLY_TYPES and not face_down_creature(step, o):
        move(step, c, Zone.GRAVEYARD, o.controller)
    else:
        face_down = o.face_down and step.on(Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN)
        if face_down:
            step.cite(face_down)
        move(step, c, Zone.BATTLEFIELD, o.controller, controller=o.controller, keep_effect=True, face_down=bool(face_down))


@implements(Behaviour.FACE_DOWN_CHARACTERISTICS, half="concrete")
def face_down_creature(step: ConcreteStep, o: ObjectState) -> bool:
    """708.2a: a face-down spell is a creature spell whatever the card is, so even a face-down
    instant or sorcery resolves onto the battlefield."""
    rule = o.face_down and step.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
    if rule:
        step.cite(rule)
    return bool(rule)


@symbolic(K.RESOLVE)
@implements(Behaviour.STACK_TOP_ONLY, Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN, Behaviour.FACE_DOWN_CHARACTERISTICS, half="symbolic")
def encode_resolve(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    controller = s.controller[c]
    top_ok = Implies(step.on(Behaviour.STACK_TOP_ONLY), step.is_top(s, c))
    to_grave = encode_move(step, c, Zone.GRAVEYARD, controller)
    stays_face_down = And(s.face_down[c], step.on(Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN))
    to_field = encode_move(step, c, Zone.BATTLEFIELD, controller, controller=controller, keep_effect=True, face_down=stays_face_down)
    graveyard_bound = And(step.is_spell_type(c), Not(And(s.face_down[c], step.on(Behaviour.FACE_DOWN_CHARACTERISTICS))))
    return Effect(
        And(s.zone[c] == step.Z[Zone.STACK], top_ok),
        If(graveyard_bound, to_grave.outcome, to_field.outcome),
        step.merge(c, graveyard_bound, to_grave.values, to_field.values),
        arrival=to_grave.arrival,
    )


@concrete(K.COUNTER, Target.CARD, moves_card=True, graveyard_bound=True)
def do_counter(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.STACK, f"{step.name(c)} is not on the stack")
    move(step, c, Zone.GRAVEYARD, o.controller)


@symbolic(K.COUNTER)
def encode_counter(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.GRAVEYARD, step.s.controller[c]), event=step.s.zone[c] == step.Z[Zone.STACK])


@concrete(K.CAST_FACE_DOWN, Target.CARD, PlayerUse.ALWAYS)
@implements(Behaviour.FACE_DOWN_CHARACTERISTICS, half="concrete")
def do_cast_face_down(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    step.require(o.zone is Zone.HAND and o.whose == p, f"{step.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
    step.require(not step.slot(c).is_token, "a token cannot be cast")
    if step.card_type(c) is CardType.LAND:
        rule = step.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
        step.require(rule is not None, f"{step.name(c)} is a land and cannot be cast (without 708.2a a face-down spell keeps its card types)")
        step.cite(rule)
    move(step, c, Zone.STACK, p, controller=p, face_down=True)


@symbolic(K.CAST_FACE_DOWN)
def encode_cast_face_down(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    castable_face_down = And(
        step.in_zone(s, c, Zone.HAND, p),
        step.false if step.slots[c].is_token else step.true,
        Or(step.card_type(c) != step.codes.type[CardType.LAND], step.on(Behaviour.FACE_DOWN_CHARACTERISTICS)),
    )
    return replace(encode_move(step, c, Zone.STACK, p, controller=p, face_down=step.true), event=castable_face_down)
