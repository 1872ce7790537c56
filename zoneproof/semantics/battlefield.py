"""The battlefield: permanents put onto it (403.4, 400.4a, 708.3), destroyed, sacrificed, stolen,
tapped, marked, turned face up (708.7, 708.8), and tokens created (111.7)."""

from __future__ import annotations

from dataclasses import replace

from ..model import MAX_COUNTERS, PLAYER_NAMES, SPELL_ONLY_TYPES, ActionKind, Behaviour, CardType, Zone
from ..terms import And, Not, Or
from .kernel import NO_MEMORY, encode_move, identity, move, require_open, source_allowed, source_ok
from .registry import PlayerUse, Target, concrete, implements, symbolic
from .step import ConcreteStep, Effect, SymbolicStep

K = ActionKind
ONTO_BATTLEFIELD_SOURCES = (Zone.HAND, Zone.LIBRARY, Zone.GRAVEYARD, Zone.EXILE, Zone.COMMAND)


@concrete(K.DESTROY, Target.CARD, moves_card=True, graveyard_bound=True)
def do_destroy(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.BATTLEFIELD, f"{step.name(c)} is not on the battlefield")
    move(step, c, Zone.GRAVEYARD, o.controller)


@symbolic(K.DESTROY)
def encode_destroy(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.GRAVEYARD, step.s.controller[c]), event=step.s.zone[c] == step.Z[Zone.BATTLEFIELD])


@concrete(K.SACRIFICE, Target.CARD, PlayerUse.ALWAYS, moves_card=True, graveyard_bound=True)
def do_sacrifice(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    step.require(o.zone is Zone.BATTLEFIELD and o.controller == p, f"{PLAYER_NAMES[p]} does not control {step.name(c)} on the battlefield")
    move(step, c, Zone.GRAVEYARD, p)


@symbolic(K.SACRIFICE)
def encode_sacrifice(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    return replace(encode_move(step, c, Zone.GRAVEYARD, p), event=And(s.zone[c] == step.Z[Zone.BATTLEFIELD], s.controller[c] == p))


@concrete(K.GAIN_CONTROL, Target.CARD, PlayerUse.ALWAYS)
def do_gain_control(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    step.require(o.zone in (Zone.BATTLEFIELD, Zone.STACK), f"{step.name(c)} is neither a permanent nor a spell")
    step.require(o.controller != p, f"{PLAYER_NAMES[p]} already controls {step.name(c)}")
    step.objects[c] = o.moved(controller=p)


@symbolic(K.GAIN_CONTROL)
def encode_gain_control(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    guard = And(step.codes.zone_is(s.zone[c], (Zone.BATTLEFIELD, Zone.STACK)), s.controller[c] != p)
    return Effect(guard, step.true, {"controller": p})


@concrete(K.CREATE_TOKEN, Target.CARD, PlayerUse.ALWAYS)
def do_create_token(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    slot = step.slot(c)
    step.require(slot.is_token and slot.owner == p, f"{slot.name} is not a token slot of {PLAYER_NAMES[p]}")
    step.require(o.zone is Zone.NOWHERE and o.gen == 0, f"{slot.name} has already held an object")
    step.require(step.card_type(c) is CardType.CREATURE, f"{slot.name} is a {step.card_type(c).value} slot: tokens of the model are creatures, and other token slots hold copies of spells")
    require_open(step, Zone.BATTLEFIELD)
    step.objects[c] = o.moved(zone=Zone.BATTLEFIELD, whose=p, controller=p, gen=1, counters=0, tapped=False, attached=False, effect=False)


@symbolic(K.CREATE_TOKEN)
def encode_create_token(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    if not step.slots[c].is_token:
        return Effect(step.false, step.true, {})
    owner = step.owner(c)
    guard = And(p == owner, s.zone[c] == step.Z[Zone.NOWHERE], s.gen[c] == 0, step.card_type(c) == step.codes.type[CardType.CREATURE])
    opens = Not(step.zone_closed(Zone.BATTLEFIELD))
    return Effect(guard, opens, {"zone": step.Z[Zone.BATTLEFIELD], "whose": owner, "controller": p, "gen": step.int(1),
                                 "counters": step.int(0), "tapped": step.false, "attached": step.false, "effect": step.false})


@implements(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD, half="concrete")
def enter_battlefield(step: ConcreteStep, c: int, controller: int) -> None:
    """Put card c onto the battlefield under `controller`; an instant or sorcery stays where it is (400.4a)."""
    if step.card_type(c) in SPELL_ONLY_TYPES:
        rule = step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
        if rule:
            step.cite(rule)
            return
    move(step, c, Zone.BATTLEFIELD, controller, controller=controller)


@implements(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD, half="symbolic")
def encode_enter_battlefield(step: SymbolicStep, c: int, controller, event) -> Effect:
    """Slot c put onto the battlefield under `controller` where `event` holds (see enter_battlefield)."""
    moved = encode_move(step, c, Zone.BATTLEFIELD, controller, controller=controller)
    stays = And(step.is_spell_type(c), step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD))
    return Effect(event, Or(stays, moved.outcome), step.merge(c, stays, step.current(c), moved.values))


@concrete(K.PUT_ONTO_BATTLEFIELD, Target.CARD, PlayerUse.ALWAYS, moves_card=True, sources=ONTO_BATTLEFIELD_SOURCES)
def do_put_onto_battlefield(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(source_allowed(step, o.zone, ONTO_BATTLEFIELD_SOURCES), f"{step.name(c)} cannot be put onto the battlefield from {o.zone.value}")
    enter_battlefield(step, c, step.action.player)


@symbolic(K.PUT_ONTO_BATTLEFIELD)
def encode_put_onto_battlefield(step: SymbolicStep, c: int) -> Effect:
    return encode_enter_battlefield(step, c, step.a.player, source_ok(step, c, ONTO_BATTLEFIELD_SOURCES))


@concrete(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, Target.CARD, PlayerUse.ALWAYS, sources=ONTO_BATTLEFIELD_SOURCES)
@implements(Behaviour.FACE_DOWN_BEFORE_ENTERING, half="concrete")
def do_put_onto_battlefield_face_down(step: ConcreteStep) -> None:
    c, o = step.target()
    p = step.action.player
    step.require(source_allowed(step, o.zone, ONTO_BATTLEFIELD_SOURCES), f"{step.name(c)} cannot be put onto the battlefield from {o.zone.value}")
    if step.card_type(c) in SPELL_ONLY_TYPES:
        keeps_out = step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
        turned_first = step.on(Behaviour.FACE_DOWN_BEFORE_ENTERING)
        characteristics = step.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
        if keeps_out and turned_first and characteristics:
            # 708.3: turned face down before it enters, so it enters as a 2/2 creature (708.2a).
            step.cite(turned_first)
            step.cite(characteristics)
        elif keeps_out:
            step.cite(keeps_out)
            return
    move(step, c, Zone.BATTLEFIELD, p, controller=p, face_down=True)


@symbolic(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN)
@implements(Behaviour.FACE_DOWN_BEFORE_ENTERING, half="symbolic")
def encode_put_onto_battlefield_face_down(step: SymbolicStep, c: int) -> Effect:
    p = step.a.player
    moved = encode_move(step, c, Zone.BATTLEFIELD, p, controller=p, face_down=step.true)
    turned_first = And(step.on(Behaviour.FACE_DOWN_BEFORE_ENTERING), step.on(Behaviour.FACE_DOWN_CHARACTERISTICS))
    keeps_out = step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
    stays = And(step.is_spell_type(c), keeps_out, Not(turned_first))
    return Effect(source_ok(step, c, ONTO_BATTLEFIELD_SOURCES), Or(stays, moved.outcome), step.merge(c, stays, step.current(c), moved.values))


@concrete(K.TURN_FACE_UP, Target.CARD)
@implements(Behaviour.FACE_UP_PERMANENTS_ONLY, Behaviour.FACE_UP_SAME_OBJECT, half="concrete")
def do_turn_face_up(step: ConcreteStep) -> None:
    c, o = step.target()
    permanents_only = step.on(Behaviour.FACE_UP_PERMANENTS_ONLY)
    on_field = o.zone is Zone.BATTLEFIELD
    spell = o.zone is Zone.STACK and not permanents_only
    step.require(
        o.face_down and (on_field or spell),
        f"{step.name(c)} is not a face-down permanent" + (" (708.7: a spell cannot be turned face up)" if o.zone is Zone.STACK and permanents_only else ""),
    )
    if on_field and step.card_type(c) in SPELL_ONLY_TYPES:
        keeps_out = step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
        if keeps_out:
            # Face up it would be an instant or sorcery on the battlefield: it stays face down.
            step.cite(keeps_out)
            return
    same = step.on(Behaviour.FACE_UP_SAME_OBJECT)
    if same:
        step.cite(same)
        step.objects[c] = o.moved(face_down=False)
    else:
        step.objects[c] = o.moved(face_down=False, gen=o.gen + 1, **NO_MEMORY, effect=False)


@symbolic(K.TURN_FACE_UP)
@implements(Behaviour.FACE_UP_PERMANENTS_ONLY, Behaviour.FACE_UP_SAME_OBJECT, half="symbolic")
def encode_turn_face_up(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    on_field = s.zone[c] == step.Z[Zone.BATTLEFIELD]
    spell = And(s.zone[c] == step.Z[Zone.STACK], Not(step.on(Behaviour.FACE_UP_PERMANENTS_ONLY)))
    keeps_out = step.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
    stays = And(on_field, step.is_spell_type(c), keeps_out)
    face_up = identity(step, c, Not(step.on(Behaviour.FACE_UP_SAME_OBJECT))) | {"face_down": step.false}
    return Effect(And(s.face_down[c], Or(on_field, spell)), step.true, step.merge(c, stays, step.current(c), face_up))


# ---------------------------------------------------------------- what 400.7 forgets


def mark(step: ConcreteStep, allowed, description: str, **changes) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.BATTLEFIELD and allowed(o), f"{step.name(c)} is not an {description}")
    step.objects[c] = o.moved(**changes)


@concrete(K.TAP, Target.CARD)
def do_tap(step: ConcreteStep) -> None:
    mark(step, lambda o: not o.tapped, "untapped permanent", tapped=True)


@symbolic(K.TAP)
def encode_tap(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    return Effect(And(s.zone[c] == step.Z[Zone.BATTLEFIELD], Not(s.tapped[c])), step.true, {"tapped": step.true})


@concrete(K.ATTACH, Target.CARD)
def do_attach(step: ConcreteStep) -> None:
    mark(step, lambda o: not o.attached, "permanent with nothing attached", attached=True)


@symbolic(K.ATTACH)
def encode_attach(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    return Effect(And(s.zone[c] == step.Z[Zone.BATTLEFIELD], Not(s.attached[c])), step.true, {"attached": step.true})


@concrete(K.ADD_COUNTER, Target.CARD)
def do_add_counter(step: ConcreteStep) -> None:
    _, o = step.target()
    mark(step, lambda o: o.counters < MAX_COUNTERS, f"permanent with fewer than {MAX_COUNTERS} counters", counters=o.counters + 1)


@symbolic(K.ADD_COUNTER)
def encode_add_counter(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    guard = And(s.zone[c] == step.Z[Zone.BATTLEFIELD], s.counters[c] < MAX_COUNTERS)
    return Effect(guard, step.true, {"counters": s.counters[c] + 1})


@concrete(K.APPLY_EFFECT, Target.CARD)
def do_apply_effect(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone in (Zone.BATTLEFIELD, Zone.STACK) and not o.effect, f"{step.name(c)} is not a permanent or spell without an effect")
    step.objects[c] = o.moved(effect=True)


@symbolic(K.APPLY_EFFECT)
def encode_apply_effect(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    guard = And(step.codes.zone_is(s.zone[c], (Zone.BATTLEFIELD, Zone.STACK)), Not(s.effect[c]))
    return Effect(guard, step.true, {"effect": step.true})
