"""The stack: casting (601.2, 405.2, 903.8 from the command zone), copying a spell (707.10),
resolving (405.5, 400.7a, 608.2b, 708), countering, and a casting proposal that turns out illegal
(601.2e)."""

from __future__ import annotations

from dataclasses import replace

from ..model import MAX_CASTS, PLAYER_NAMES, SPELL_ONLY_TYPES, ActionKind, Behaviour, CardType, ObjectState, Zone
from ..terms import And, If, Implies, Not, Or
from .kernel import encode_move, encode_reference_lost, identity, move, new_object, reference_lost
from .registry import PlayerUse, Target, concrete, every_step, implements, symbolic
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


@every_step("commander-tax", "concrete")
@implements(Behaviour.COMMANDER_TAX, half="concrete")
def count_casts_from_command(step: ConcreteStep) -> None:
    """903.8's count, kept for commanders: a cast from the command zone adds one (up to MAX_CASTS).
    Where the tax rule is in force the count belongs to the card for the whole game; without it
    the count is the object's own memory, gone when the card becomes a new object (400.7)."""
    for i, slot in enumerate(step.world.slots):
        if not slot.is_commander:
            continue
        old, new = step.before.objects[i], step.objects[i]
        count = old.casts
        if new.gen != old.gen and count:
            rule = step.on(Behaviour.COMMANDER_TAX)
            if rule:
                step.cite(rule)
            else:
                count = 0
        if step.action.kind is K.CAST and step.action.card == i and old.zone is Zone.COMMAND:
            count = min(count + 1, MAX_CASTS)
        if count != new.casts:
            step.objects[i] = new.moved(casts=count)


@every_step("commander-tax", "symbolic")
@implements(Behaviour.COMMANDER_TAX, half="symbolic")
def encode_casts_from_command(step: SymbolicStep) -> list:
    s, s2 = step.s, step.s2
    facts = []
    for c, slot in enumerate(step.slots):
        if not slot.is_commander:
            continue
        count = If(Or(step.on(Behaviour.COMMANDER_TAX), s2.gen[c] == s.gen[c]), s.casts[c], step.int(0))
        from_command = And(step.kind_is(K.CAST), step.a.card == step.codes.slot[c], s.zone[c] == step.Z[Zone.COMMAND])
        facts.append(s2.casts[c] == If(And(from_command, count < MAX_CASTS), count + 1, count))
    return facts


def require_spell_card(step: ConcreteStep, c: int) -> None:
    step.require(not step.slot(c).is_token, "a token cannot be cast")
    step.require(step.card_type(c) is not CardType.LAND, f"{step.name(c)} is a land and cannot be cast")


# What a spell of the model may target (115.1): a spell or a permanent.
TARGETABLE = (Zone.STACK, Zone.BATTLEFIELD)


@concrete(K.CAST, Target.CARD, PlayerUse.ALWAYS, moves_card=True, takes_targets=True, stack_bound=True)
def do_cast(step: ConcreteStep) -> None:
    """Cast a card; an instant or sorcery may target another spell or a permanent, which its
    effect will act on when it resolves."""
    c, o = step.target()
    p = step.action.player
    require_castable(step, c, o, p)
    require_spell_card(step, c)
    aimed = [(t, step.objects[t]) for t in step.action.targets]
    for t, target in aimed:
        step.require(t != c, f"{step.name(c)} cannot target itself")
        step.require(step.card_type(c) in SPELL_ONLY_TYPES, f"{step.name(c)} is not an instant or sorcery: only those have a target in the model")
        step.require(target.zone in TARGETABLE, f"{step.name(t)} is neither a spell nor a permanent, so it cannot be targeted")
    move(step, c, Zone.STACK, p, controller=p)
    for t, target in aimed:
        if step.objects[c].zone is Zone.STACK:
            step.objects[c] = step.objects[c].moved(target=t)


@symbolic(K.CAST)
def encode_cast(step: SymbolicStep, c: int) -> Effect:
    s, codes, aim = step.s, step.codes, step.a.aim
    moved = encode_move(step, c, Zone.STACK, step.a.player, controller=step.a.player)
    others = [d for d in range(len(step.slots)) if d != c]
    may_target = codes.any_of(And(aim == codes.slot[d], codes.zone_is(s.zone[d], TARGETABLE)) for d in others)
    targets_ok = Or(aim == codes.no_slot, And(step.is_spell_type(c), may_target))
    on_stack = moved.values["zone"] == step.Z[Zone.STACK]
    return replace(moved, event=And(castable(step, c), targets_ok), values=moved.values | {"target": If(on_stack, aim, codes.no_slot)})


@concrete(K.COPY_SPELL, Target.CARD, PlayerUse.ALWAYS, takes_targets=True, needs_target=True, stack_bound=True)
@implements(Behaviour.COPY_SPELL, half="concrete")
def do_copy_spell(step: ConcreteStep) -> None:
    """Player p puts a copy of a spell onto the stack (707.10), in a token slot of p's that has never
    held an object and has the spell's type: p owns and controls the copy, which has the spell's
    target. A face-down spell is not copied in the model."""
    c, o = step.target()
    p = step.action.player
    slot = step.slot(c)
    rule = step.on(Behaviour.COPY_SPELL)
    step.require(rule is not None, "no rule in force lets a player copy a spell")
    step.cite(rule)
    step.require(slot.is_token and slot.owner == p, f"{slot.name} is not a token slot of {PLAYER_NAMES[p]}: a copy of a spell takes one")
    step.require(o.zone is Zone.NOWHERE and o.gen == 0, f"{slot.name} has already held an object")
    step.require(len(step.action.targets) == 1, "name the spell to copy in `targets`")
    (t,) = step.action.targets
    spell = step.objects[t]
    step.require(spell.zone is Zone.STACK and not spell.face_down, f"{step.name(t)} is not a face-up spell on the stack")
    step.require(step.card_type(c) is step.card_type(t), f"{slot.name} is a token slot of type {step.card_type(c).value}, and {step.name(t)} is a {step.card_type(t).value}: a copy has its spell's type")
    move(step, c, Zone.STACK, p, controller=p)
    step.objects[c] = step.objects[c].moved(gen=1, copy=True, target=spell.target, target_lost=spell.target_lost)


@symbolic(K.COPY_SPELL)
@implements(Behaviour.COPY_SPELL, half="symbolic")
def encode_copy_spell(step: SymbolicStep, c: int) -> Effect:
    if not step.slots[c].is_token:
        return Effect(step.false, step.true, {})
    s, codes, aim, p = step.s, step.codes, step.a.aim, step.a.player
    others = [d for d in range(len(step.slots)) if d != c]
    copies = codes.any_of(
        And(aim == codes.slot[d], s.zone[d] == step.Z[Zone.STACK], Not(s.face_down[d]), step.card_type(c) == step.card_type(d)) for d in others
    )
    target = codes.select(aim, [codes.slot[d] for d in others], [s.target[d] for d in others], codes.no_slot)
    guard = And(step.on(Behaviour.COPY_SPELL), p == step.owner(c), s.zone[c] == step.Z[Zone.NOWHERE], s.gen[c] == 0, copies)
    moved = encode_move(step, c, Zone.STACK, p, controller=p)
    return replace(moved, event=guard, values=moved.values | {"gen": step.int(1), "copy": step.true, "target": target})


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
    if o.target is not None:
        act_on_target(step, o)
    if step.card_type(c) in SPELL_ONLY_TYPES and not face_down_creature(step, o):
        move(step, c, Zone.GRAVEYARD, o.controller)
    else:
        face_down = o.face_down and step.on(Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN)
        if face_down:
            step.cite(face_down)
        move(step, c, Zone.BATTLEFIELD, o.controller, controller=o.controller, keep_effect=True, face_down=bool(face_down))


@implements(Behaviour.TARGETS_CHECKED, half="concrete")
def act_on_target(step: ConcreteStep, spell: ObjectState) -> None:
    """The resolving spell's effect acts on its target. Where 608.2b is in force, a target that is
    no longer a spell or permanent, or is a new object (400.7), is illegal and the spell does
    nothing (it still leaves the stack); without 608.2b the effect acts on the card the target
    was, wherever it is now."""
    t = spell.target
    target = step.objects[t]
    rule = step.on(Behaviour.TARGETS_CHECKED)
    if rule:
        step.cite(rule)
        if target.zone not in TARGETABLE or spell.target_lost:
            return
    step.objects[t] = target.moved(effect=True)


@implements(Behaviour.TARGETS_CHECKED, half="symbolic")
def encode_act_on_target(step: SymbolicStep, c: int) -> dict:
    """The bystanders' effect flags after spell c resolves (see act_on_target)."""
    s, codes = step.s, step.codes
    others = {}
    for d in range(len(step.slots)):
        if d == c:
            continue
        legal = And(codes.zone_is(s.zone[d], TARGETABLE), Not(s.target_lost[c]))
        acts = And(s.target[c] == codes.slot[d], Or(Not(step.on(Behaviour.TARGETS_CHECKED)), legal))
        others[d] = {"effect": Or(acts, s.effect[d])}
    return others


@every_step("target-memory", "concrete")
def track_lost_targets(step: ConcreteStep) -> None:
    """400.7 for a spell's target: an object targeted that becomes a new object while the spell
    waits is lost to it. A cast sets its spell's target afresh; a copy has its spell's, lost or not."""
    action = step.action
    for x, new in enumerate(step.objects):
        if action.kind is K.CAST and action.card == x:
            lost = False
        else:
            earlier = step.before.objects[action.targets[0] if action.kind is K.COPY_SPELL and action.card == x else x]
            lost = reference_lost(step, new.target, earlier.target_lost)
        if lost != new.target_lost:
            step.objects[x] = new.moved(target_lost=lost)


@every_step("target-memory", "symbolic")
def encode_lost_targets(step: SymbolicStep) -> list:
    s, s2, codes, a = step.s, step.s2, step.codes, step.a
    slots = range(len(step.slots))
    facts = []
    for x in slots:
        cast_now = And(step.kind_is(K.CAST), a.card == codes.slot[x])
        earlier = s.target_lost[x]
        if step.slots[x].is_token:
            spell_lost = codes.any_of(And(a.aim == codes.slot[d], s.target_lost[d]) for d in slots if d != x)
            earlier = If(And(step.kind_is(K.COPY_SPELL), a.card == codes.slot[x]), spell_lost, earlier)
        facts.append(s2.target_lost[x] == And(Not(cast_now), encode_reference_lost(step, x, s2.target[x], earlier)))
    return facts


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
        others=encode_act_on_target(step, c),
    )


@concrete(K.COUNTER, Target.CARD, moves_card=True, graveyard_bound=True)
def do_counter(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.STACK, f"{step.name(c)} is not on the stack")
    move(step, c, Zone.GRAVEYARD, o.controller)


@symbolic(K.COUNTER)
def encode_counter(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.GRAVEYARD, step.s.controller[c]), event=step.s.zone[c] == step.Z[Zone.STACK])


@concrete(K.CAST_FACE_DOWN, Target.CARD, PlayerUse.ALWAYS, stack_bound=True)
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
