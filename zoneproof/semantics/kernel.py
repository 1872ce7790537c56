"""The move kernel: how an object changes zones, concrete and symbolic side by side.

Where a card goes (400.3 sends it to its owner's zone), where it enters an ordered zone (401.7,
404.1, 405.2), what it keeps (400.7 makes it a new object; 400.7a and Berserk's 205.4 carry some of
its memory), what a token does (111.8), and where a replacement puts it instead (an effect on a graveyard,
614.6; a commander's owner, 903.9b: replacement.py).
"""

from __future__ import annotations

import z3

from ..model import BOTTOM, ORDERED_ZONES, PERSONAL_ZONES, ActionKind, Behaviour, ObjectState, Zone, zone_key
from ..terms import And, If, Implies, Not, Or
from .registry import implements
from .replacement import command_instead, replaced_zone, replacements
from .step import Arrival, ConcreteStep, Effect, OrderMissing, SymbolicStep

# What 400.7 wipes, apart from the effects (which 400.7a may carry): a new object also targets nothing,
# no instruction lets anyone look at it (406.3), no linked ability finds it (406.6, 607) and nothing
# returns it when a permanent leaves (610.3).
NO_MEMORY = dict(counters=0, tapped=False, attached=False, target=None, looker=None, exiled_with=None, returns_to=Zone.NOWHERE)


# ---------------------------------------------------------------- a new object (400.7)


@implements(Behaviour.NEW_OBJECT, Behaviour.SPELL_EFFECTS_CARRY, Behaviour.GRAVEYARD_KEEPS_MARKERS, half="concrete")
def new_object(step: ConcreteStep, old: ObjectState, keep_effect: bool = False, to_zone: Zone | None = None) -> dict:
    """Field changes for an object that becomes a new object (400.7), or for one that does not.
    A card put into a graveyard keeps its counters where Berserk's 205.4 is in force."""
    rule = step.on(Behaviour.NEW_OBJECT)
    if not rule:
        return {}
    step.cite(rule)
    carried = keep_effect and old.effect and step.on(Behaviour.SPELL_EFFECTS_CARRY)
    if carried:
        step.cite(step.on(Behaviour.SPELL_EFFECTS_CARRY))
    changes = dict(gen=old.gen + 1, **NO_MEMORY, effect=bool(carried))
    keeps_markers = to_zone is Zone.GRAVEYARD and step.on(Behaviour.GRAVEYARD_KEEPS_MARKERS)
    if keeps_markers and old.counters:
        step.cite(keeps_markers)
        changes["counters"] = old.counters
    return changes


def identity(step: SymbolicStep, c: int, renew, carried_effect=None, keep_counters=None) -> dict:
    """Identity and memory of slot c: under `renew` a new object (gen + 1, no counters but under
    `keep_counters`, untapped, nothing attached, no target, no effect but `carried_effect`); otherwise
    as they were."""
    s = step.s
    wipe_counters = renew if keep_counters is None else And(renew, Not(keep_counters))
    return {
        "gen": If(renew, step.codes.grown(s.gen[c], step.int(1)), s.gen[c]),
        "counters": If(wipe_counters, step.int(0), s.counters[c]),
        "effect": If(renew, step.false if carried_effect is None else carried_effect, s.effect[c]),
    } | wiped_memory(step, c, renew)


def wiped_memory(step: SymbolicStep, c: int, wiped) -> dict:
    """Slot c's memory that 400.7 wipes besides its counters (NO_MEMORY: its status, attachment,
    target, looker and link): none under `wiped`, otherwise as it was."""
    s = step.s
    return {name: And(Not(wiped), s.field(name, c)) if none is False else If(wiped, step.codes.of_field(name, none), s.field(name, c))
            for name, none in NO_MEMORY.items() if name != "counters"}


def renew_in_place(step: ConcreteStep, index: int, behaviour: Behaviour, **changes) -> None:
    """An object that stays in its zone but may become a new object (400.8, 400.9, 400.10)."""
    old = step.objects[index]
    rule = step.on(behaviour)
    if rule:
        step.cite(rule)
        changes.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
    step.objects[index] = old.moved(**changes)


def renewed(step: SymbolicStep, c: int, behaviour: Behaviour, **changes) -> dict:
    """Stays in its zone; becomes a new object where the behaviour's rule is in force."""
    return identity(step, c, step.on(behaviour)) | changes


# ---------------------------------------------------------------- references to another object (400.7)


def reference_lost(step: ConcreteStep, ref: int | None, lost_before: bool) -> bool:
    """Whether a reference kept from the step before (a target, a link) no longer finds the object
    in slot `ref`: it had lost it already, or that object has become a new object at this step."""
    return ref is not None and (lost_before or step.objects[ref].gen != step.before.objects[ref].gen)


def encode_reference_lost(step: SymbolicStep, x: int, ref, lost_before) -> z3.BoolRef:
    """reference_lost for slot x's reference `ref`, a slot code of the next state."""
    s, s2, codes = step.s, step.s2, step.codes
    renewed = codes.any_of(And(ref == codes.slot[d], s2.gen[d] != s.gen[d]) for d in range(len(step.slots)) if d != x)
    return And(ref != codes.no_slot, Or(lost_before, renewed))


def keep_reference(step: ConcreteStep, ref: str, lost: str, made_by: tuple[ActionKind, ...]) -> None:
    """400.7 for a reference each object may hold (REFERENCES: `ref`, with its flag `lost`): once
    the object it names becomes a new object, it is lost. An action of a kind in `made_by` on an
    object makes that object's reference afresh."""
    action = step.action
    for x, new in enumerate(step.objects):
        made_now = action.kind in made_by and action.card == x
        now_lost = not made_now and reference_lost(step, getattr(new, ref), getattr(step.before.objects[x], lost))
        if now_lost != getattr(new, lost):
            step.objects[x] = new.moved(**{lost: now_lost})


def encode_keep_reference(step: SymbolicStep, ref: str, lost: str, made_by: tuple[ActionKind, ...]) -> list:
    """keep_reference's facts for the next state's flags `lost`."""
    s, s2 = step.s, step.s2
    facts = []
    for x in range(len(step.slots)):
        made_now = And(step.kind_in(made_by), step.a.card == step.codes.slot[x])
        facts.append(s2.field(lost, x) == And(Not(made_now), encode_reference_lost(step, x, s2.field(ref, x), s.field(lost, x))))
    return facts


# ---------------------------------------------------------------- where it may come from (400.11c)


@implements(Behaviour.OUTSIDE_UNTOUCHABLE, half="concrete")
def source_allowed(step: ConcreteStep, zone: Zone, sources: tuple[Zone, ...]) -> bool:
    if zone is Zone.OUTSIDE:
        return not step.on(Behaviour.OUTSIDE_UNTOUCHABLE)
    return zone in sources


@implements(Behaviour.OUTSIDE_UNTOUCHABLE, half="symbolic")
def source_ok(step: SymbolicStep, c: int, zones: tuple[Zone, ...]) -> z3.BoolRef:
    s = step.s
    outside_ok = And(s.zone[c] == step.Z[Zone.OUTSIDE], Not(step.on(Behaviour.OUTSIDE_UNTOUCHABLE)))
    return Or(step.codes.zone_is(s.zone[c], zones), outside_ok)


# ---------------------------------------------------------------- whose zone (400.3) and where in it


@implements(Behaviour.OWNER_REDIRECT, half="concrete")
def destination_player(step: ConcreteStep, index: int, zone: Zone, named: int) -> int:
    owner = step.slot(index).owner
    if zone not in PERSONAL_ZONES:
        return owner
    rule = step.on(Behaviour.OWNER_REDIRECT, zone)
    if rule and named != owner:
        step.cite(rule)
        return owner
    return named


@implements(Behaviour.OWNER_REDIRECT, half="symbolic")
def destination_whose(step: SymbolicStep, c: int, zone: Zone, named):
    owner = step.owner(c)
    if zone not in PERSONAL_ZONES or owner.eq(named):
        return owner
    return If(step.on(Behaviour.OWNER_REDIRECT, zone), owner, named)


@implements(Behaviour.NTH_FROM_TOP_SHORT, Behaviour.GRAVEYARD_TOP, Behaviour.STACK_PUSH_TOP, half="concrete")
def insertion_pos(step: ConcreteStep, zone: Zone, size_before: int) -> int:
    """Where a newcomer goes in an ordered zone, counted from the bottom."""
    n = step.action.n
    if zone is Zone.LIBRARY:
        if n == BOTTOM:
            return 0
        if n > size_before:
            rule = step.on(Behaviour.NTH_FROM_TOP_SHORT)
            step.require(rule is not None, f"the library has fewer than {n} cards and 401.7 is not in force")
            step.cite(rule)
            return 0
        return size_before + 1 - n
    rule = step.on(Behaviour.GRAVEYARD_TOP if zone is Zone.GRAVEYARD else Behaviour.STACK_PUSH_TOP)
    if rule:
        step.cite(rule)
        return size_before
    step.require(n <= size_before + 1, f"position {n} from the top is past the bottom of the {zone.value}")
    return 0 if n == BOTTOM else size_before + 1 - n


@implements(Behaviour.NTH_FROM_TOP_SHORT, Behaviour.GRAVEYARD_TOP, Behaviour.STACK_PUSH_TOP, half="symbolic")
def arrival(step: SymbolicStep, zone: Zone, size_before) -> tuple[z3.BoolRef, Arrival]:
    """(what the rules require, where it goes) for a newcomer to an ordered zone (see
    insertion_pos): `n` is 0 for the bottom, else the place from the top."""
    n = step.a.n
    nth = If(n == 0, step.int(0), size_before + 1 - n)
    if zone is Zone.LIBRARY:
        short = n > size_before
        return Implies(short, step.on(Behaviour.NTH_FROM_TOP_SHORT)), Arrival(If(short, step.int(0), nth), step.false, Or(n == 0, short))
    fixed = step.on(Behaviour.GRAVEYARD_TOP if zone is Zone.GRAVEYARD else Behaviour.STACK_PUSH_TOP)
    return Implies(Not(fixed), n <= size_before + 1), Arrival(If(fixed, size_before, nth), fixed, And(Not(fixed), n == 0))


# ---------------------------------------------------------------- closed zones (an experiment)


@implements(Behaviour.ZONE_CLOSED, half="concrete")
def require_open(step: ConcreteStep, zone: Zone) -> None:
    """Nothing may enter `zone`: a rule closes it, or the rule set does not declare it."""
    step.require(step.world.ruleset.declares(zone), f"nothing may enter the {zone.value}: the rule set declares no such zone")
    closed_by = step.world.ruleset.rules_for(Behaviour.ZONE_CLOSED, zone)
    step.require(not closed_by, f"nothing may enter the {zone.value}: rule {closed_by[0] if closed_by else ''} closes it")


# ---------------------------------------------------------------- tokens (111.8)


@implements(Behaviour.TOKEN_STAYS, half="concrete")
def token_stuck(step: ConcreteStep, index: int) -> bool:
    """111.8: a token that has left the battlefield stays where it is (a copy of a spell is no token)."""
    o = step.objects[index]
    if step.slot(index).is_token and not o.copy and o.zone not in (Zone.BATTLEFIELD, Zone.NOWHERE):
        rule = step.on(Behaviour.TOKEN_STAYS)
        if rule:
            step.cite(rule)
            return True
    return False


# ---------------------------------------------------------------- copies of spells (707.10, 608.3f)


@implements(Behaviour.COPY_BECOMES_TOKEN, half="concrete")
def still_a_copy(step: ConcreteStep, old: ObjectState, zone: Zone) -> bool:
    """Whether a copy of a spell moving to `zone` is still one: a copy of a permanent spell becomes
    a token as it enters the battlefield (608.3f)."""
    if not old.copy:
        return False
    rule = zone is Zone.BATTLEFIELD and step.on(Behaviour.COPY_BECOMES_TOKEN)
    if rule:
        step.cite(rule)
        return False
    return True


@implements(Behaviour.COPY_BECOMES_TOKEN, half="symbolic")
def copy_after_move(step: SymbolicStep, c: int, zone: Zone) -> dict:
    """Slot c's `copy` after a move to `zone` (see still_a_copy)."""
    if zone is not Zone.BATTLEFIELD or not step.slots[c].is_token:
        return {}
    return {"copy": And(step.s.copy[c], Not(step.on(Behaviour.COPY_BECOMES_TOKEN)))}


# ---------------------------------------------------------------- the move


def move(step: ConcreteStep, index: int, zone: Zone, named: int, controller: int | None = None, keep_effect: bool = False,
         face_down: bool = False) -> None:
    """Move one object to another zone: leave its old pile, enter the new one, become a new object."""
    old = step.objects[index]
    if token_stuck(step, index):
        return
    zone = replaced_zone(step, index, zone, destination_player(step, index, zone, named))
    if step.action.to_command and command_instead(step, index, zone, destination_player(step, index, zone, named)):
        zone, named = Zone.COMMAND, step.slot(index).owner
    require_open(step, zone)
    whose = destination_player(step, index, zone, named)
    step.require((zone, whose) != (old.zone, old.whose) or zone not in ORDERED_ZONES, "the object is already there")
    if old.zone in ORDERED_ZONES:
        for i in step.pile(old.zone, old.whose):
            if step.objects[i].pos > old.pos:
                step.objects[i] = step.objects[i].moved(pos=step.objects[i].pos - 1)
    pos = 0
    if zone in ORDERED_ZONES:
        pile = [i for i in step.pile(zone, whose) if i != index]
        pos = insertion_pos(step, zone, len(pile))
        for i in pile:
            if step.objects[i].pos >= pos:
                step.objects[i] = step.objects[i].moved(pos=step.objects[i].pos + 1)
    owner = step.slot(index).owner
    in_play = zone in (Zone.BATTLEFIELD, Zone.STACK)
    changes = dict(
        zone=zone,
        whose=whose,
        pos=pos,
        controller=controller if in_play and controller is not None else owner,
        face_down=face_down,
        copy=still_a_copy(step, old, zone),
    )
    changes.update(new_object(step, old, keep_effect, zone))
    step.objects[index] = old.moved(**changes)


@implements(Behaviour.NEW_OBJECT, Behaviour.SPELL_EFFECTS_CARRY, Behaviour.ZONE_CLOSED, Behaviour.TOKEN_STAYS, half="symbolic")
def encode_move(step: SymbolicStep, c: int, zone: Zone, named, controller=None, keep_effect: bool = False, face_down=None) -> Effect:
    """Moving slot c to `zone` of the named player (see move): an Effect with no event of its own
    (true), what the rules require of the move as its outcome, and the new fields."""
    s = step.s
    owner = step.owner(c)
    whose = destination_whose(step, c, zone, named)
    constraint, where = step.true, None
    if zone in ORDERED_ZONES:
        constraint, where = arrival(step, zone, step.size_of(zone, whose))
    constraint = And(constraint, Not(step.zone_closed(zone)))
    carried = And(step.on(Behaviour.SPELL_EFFECTS_CARRY), s.effect[c]) if keep_effect else None
    in_play = zone in (Zone.BATTLEFIELD, Zone.STACK)
    values = {
        "zone": step.Z[zone],
        "whose": whose,
        "pos": step.int(0) if where is None else where.pos,
        "controller": controller if in_play and controller is not None else owner,
        "face_down": step.false if face_down is None else face_down,
    }
    values |= identity(step, c, step.on(Behaviour.NEW_OBJECT), carried, keeps_markers(step, zone)) | copy_after_move(step, c, zone)
    for instead in replacements(step, c, zone, whose):
        constraint = If(instead.applies, instead.allowed, constraint)
        values = step.merge(c, instead.applies, put_instead(step, c, instead.zone), values)
    if step.slots[c].is_token:
        stuck = And(step.token_left_battlefield(s, c), step.on(Behaviour.TOKEN_STAYS))
        return Effect(step.true, Or(stuck, constraint), step.merge(c, stuck, step.current(c), values), arrival=where)
    return Effect(step.true, constraint, values, arrival=where)


@implements(Behaviour.GRAVEYARD_KEEPS_MARKERS, half="symbolic")
def keeps_markers(step: SymbolicStep, zone: Zone):
    """Whether an object put into `zone` keeps its counters (Berserk 205.4: markers in a graveyard)."""
    return step.on(Behaviour.GRAVEYARD_KEEPS_MARKERS) if zone is Zone.GRAVEYARD else None


# ---------------------------------------------------------------- a replacement's destination (614.6, 903.9b)


def put_instead(step: SymbolicStep, c: int, zone: Zone) -> dict:
    """Slot c as a replacement puts it into `zone` (exile, the command zone) in place of where it
    was headed: face up, its owner's, a new object under 400.7."""
    owner = step.owner(c)
    return {"zone": step.Z[zone], "whose": owner, "pos": step.int(0), "controller": owner, "face_down": step.false} | identity(
        step, c, step.on(Behaviour.NEW_OBJECT))


# ---------------------------------------------------------------- a pile put in a new order


def set_order(step: ConcreteStep, zone: Zone, player: int | None) -> None:
    """Apply the order recorded in the action to one ordered zone (a shuffle or rearrangement)."""
    key = zone_key(zone, player)
    order = step.action.order_for(key)
    members = step.pile(zone, player if player is not None else 0)
    if order is None:
        raise OrderMissing(key, members)
    step.require(sorted(order) == sorted(members), f"the recorded order of {key} is not a rearrangement of its cards")
    for depth_from_top, i in enumerate(order):
        step.objects[i] = step.objects[i].moved(pos=len(order) - 1 - depth_from_top)
