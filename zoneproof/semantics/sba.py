"""State-based actions: tokens outside the battlefield cease to exist (111.7, 704.5d), so do copies
of spells outside the stack (704.5e), and commanders put into a graveyard or exile go to the
command zone (903.9a), which needs a memory of each commander: put into its zone since
state-based actions were last performed (`fresh`)."""

from __future__ import annotations

from ..model import ORDERED_ZONES, PERSONAL_ZONES, ActionKind, Behaviour, Zone
from ..terms import And, If, Implies, Not, Or
from .kernel import identity, move
from .registry import Listed, Target, concrete, every_step, implements, symbolic
from .step import ConcreteStep, SymbolicStep, Transition

K = ActionKind


@concrete(K.STATE_BASED_ACTIONS, Target.NONE, lists=Listed.COMMANDERS)
@implements(Behaviour.TOKEN_CEASES, Behaviour.COPY_CEASES, half="concrete")
def do_state_based_actions(step: ConcreteStep) -> None:
    commanders_to_command(step)
    ceasing = []
    for i, o in enumerate(step.objects):
        if not step.slot(i).is_token or o.zone is Zone.NOWHERE:
            continue
        if o.copy:
            rule = o.zone is not Zone.STACK and step.on(Behaviour.COPY_CEASES)
        else:
            rule = o.zone is not Zone.BATTLEFIELD and step.on(Behaviour.TOKEN_CEASES)
        if rule:
            step.cite(rule)
            ceasing.append(i)
    for i in ceasing:
        old = step.objects[i]
        step.objects[i] = old.moved(zone=Zone.NOWHERE, whose=step.slot(i).owner, controller=step.slot(i).owner, pos=0, face_down=False)
    if ceasing:
        compact_piles(step)


def compact_piles(step: ConcreteStep) -> None:
    """Close the gaps that leaving objects left in ordered zones, keeping the order of those that stay."""
    piles: dict[tuple, list[int]] = {}
    for i, o in enumerate(step.objects):
        if o.zone in ORDERED_ZONES:
            piles.setdefault((o.zone, o.whose if o.zone in PERSONAL_ZONES else None), []).append(i)
    for members in piles.values():
        for rank, i in enumerate(sorted(members, key=lambda i: step.objects[i].pos)):
            step.objects[i] = step.objects[i].moved(pos=rank)


@implements(Behaviour.COMMANDER_RETURN_SBA, half="concrete")
def commanders_to_command(step: ConcreteStep) -> None:
    """903.9a: each commander the action lists, in a graveyard or exile since state-based actions
    were last performed, goes to the command zone (its owner's choice, recorded in `cards`)."""
    for i in step.action.cards:
        slot, o = step.slot(i), step.objects[i]
        step.require(slot.is_commander, f"{slot.name} is not a commander")
        rule = step.on(Behaviour.COMMANDER_RETURN_SBA)
        step.require(rule is not None, f"no rule in force lets state-based actions put {slot.name} into the command zone")
        step.require(o.zone in (Zone.GRAVEYARD, Zone.EXILE) and o.fresh,
                     f"{slot.name} was not put into a graveyard or exile since state-based actions were last performed")
        step.cite(rule)
        move(step, i, Zone.COMMAND, slot.owner)


@symbolic(K.STATE_BASED_ACTIONS)
@implements(Behaviour.TOKEN_CEASES, Behaviour.COPY_CEASES, Behaviour.COMMANDER_RETURN_SBA, half="symbolic")
def encode_state_based_actions(step: SymbolicStep) -> Transition:
    s, a = step.s, step.a
    guard, leaving = [], {}
    for c, slot in enumerate(step.slots):
        if slot.is_token:
            copy_off_stack = And(s.copy[c], s.zone[c] != step.Z[Zone.STACK], s.zone[c] != step.Z[Zone.NOWHERE])
            leaving[c] = Or(And(step.on(Behaviour.TOKEN_CEASES), step.token_left_battlefield(s, c)),
                            And(step.on(Behaviour.COPY_CEASES), copy_off_stack))
        elif slot.is_commander:
            guard.append(Implies(a.pick[c], And(
                step.on(Behaviour.COMMANDER_RETURN_SBA),
                step.codes.zone_is(s.zone[c], (Zone.GRAVEYARD, Zone.EXILE)),
                s.fresh[c],
                Not(step.zone_closed(Zone.COMMAND)),
            )))
            leaving[c] = a.pick[c]
    objects = {}
    for c, slot in enumerate(step.slots):
        owner = step.owner(c)
        below = step.codes.count(And(gone, step.same_pile(s, c, d), s.pos[d] < s.pos[c]) for d, gone in leaving.items() if d != c)
        stays = {"pos": If(step.codes.zone_is(s.zone[c], ORDERED_ZONES), s.pos[c] - below, s.pos[c])}
        if c not in leaving:
            objects[c] = stays
            continue
        home = {"zone": step.Z[Zone.COMMAND if slot.is_commander else Zone.NOWHERE], "whose": owner, "controller": owner,
                "pos": step.int(0), "face_down": step.false}
        if slot.is_commander:
            home |= identity(step, c, step.on(Behaviour.NEW_OBJECT))
        objects[c] = step.merge(c, leaving[c], home, stays)
    return Transition(step.codes.all_of(guard), objects=objects)


@every_step("commander-memory", "concrete")
def track_fresh(step: ConcreteStep) -> None:
    """903.9a's memory, kept for commanders: put into a zone (or made a new object there) since
    state-based actions were last performed."""
    for i, slot in enumerate(step.world.slots):
        if not slot.is_commander:
            continue
        old, new = step.before.objects[i], step.objects[i]
        if step.action.kind is K.STATE_BASED_ACTIONS:
            fresh = False
        else:
            fresh = old.fresh or (new.zone, new.whose, new.gen) != (old.zone, old.whose, old.gen)
        step.objects[i] = new.moved(fresh=fresh)


@every_step("commander-memory", "symbolic")
def encode_fresh(step: SymbolicStep) -> list:
    s, s2 = step.s, step.s2
    sba = step.kind_is(K.STATE_BASED_ACTIONS)
    return [
        s2.fresh[c] == And(Not(sba), Or(s.fresh[c], s2.zone[c] != s.zone[c], s2.whose[c] != s.whose[c], s2.gen[c] != s.gen[c]))
        for c, slot in enumerate(step.slots) if slot.is_commander
    ]
