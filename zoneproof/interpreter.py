"""The plain-Python meaning of every action: `apply(world, state, action) -> Outcome`.

This is the readable half of the model: each action kind's function lives in its family module
under `semantics/`, beside its symbolic twin, and this module runs one step. The encoder states the
same semantics as Z3 constraints; each is the other's oracle (every counterexample is replayed
here before it is reported).
"""

from __future__ import annotations

from .model import PLAYER_NAMES, SPELL_ONLY_TYPES, START_ZONE, Action, ActionKind, Behaviour, GameState, PlayerState, Zone
from .semantics import HOOKS, spec
from .semantics.pregame import look_refusal, may_look
from .semantics.step import ConcreteStep, IllegalAction, Outcome, World, starting_hand
from .semantics.visibility import sees

K = ActionKind
# The rules that act at every step, before and after the action's own meaning.
BEFORE_ACTION = ("pregame", "shuffle-after-search")
AFTER_ACTION = ("reveal", "commander-memory", "commander-tax", "target-memory", "link-memory")

__all__ = [
    "IllegalAction", "Outcome", "World", "apply", "check_initial", "look_refusal", "may_look", "sees", "starting_hand", "uses_position",
]


def apply(world: World, state: GameState, action: Action) -> Outcome:
    if not world.ruleset.allows(action.kind):
        raise IllegalAction(f"rule set '{world.ruleset.name}' has no action '{action.kind.value}'")
    _check_fields(world, action)
    if action.n != 0 and not uses_position(world, action):
        raise IllegalAction(f"{action.kind.value} takes no position here (n must be 0)")
    step = ConcreteStep(world, state, action)
    for name in BEFORE_ACTION:
        HOOKS[name].concrete(step)
    spec(action.kind).concrete(step)
    step.require(not action.order or spec(action.kind).records_order, f"{action.kind.value} records no order")
    step.require(not action.to_command or step.replaced, f"{action.kind.value} moved no commander that could go to the command zone instead")
    for name in AFTER_ACTION:
        HOOKS[name].concrete(step)
    return Outcome(step.state(), tuple(step.rules))


def outcome_or_refusal(world: World, state: GameState, action: Action) -> GameState | str:
    """The state the action leads to, or why the interpreter refuses it."""
    try:
        return apply(world, state, action).state
    except IllegalAction as e:
        return str(e)


def uses_position(world: World, action: Action) -> bool:
    """Whether `n` is part of the action: always for the kinds that take it (a place in a library,
    the cards a scry looks at); for graveyard and stack arrivals only when 404.1 or 405.2 is not in
    force."""
    k = action.kind
    if spec(k).takes_n:
        return True
    if spec(k).stack_bound:
        return not world.on(Behaviour.STACK_PUSH_TOP)
    if spec(k).graveyard_bound:
        if k is K.RESOLVE and world.card_types[action.card] not in SPELL_ONLY_TYPES:
            return False
        return not world.on(Behaviour.GRAVEYARD_TOP)
    return False


def _check_fields(world: World, action: Action) -> None:
    k, signature = action.kind, spec(action.kind)
    if signature.takes_card != (action.card is not None):
        raise IllegalAction(f"{k.value} {'needs a' if signature.takes_card else 'takes no'} card")
    if action.card is not None and not 0 <= action.card < len(world.slots):
        raise IllegalAction(f"no object slot {action.card}")
    needs_player = signature.takes_player(action.zone)
    if needs_player != (action.player is not None):
        raise IllegalAction(f"{k.value} {'needs a' if needs_player else 'takes no'} player")
    if action.player is not None and not 0 <= action.player < world.players:
        raise IllegalAction(f"no player {action.player}")
    if signature.names_zone != (action.zone is not None):
        raise IllegalAction("only reorder names a zone")
    if action.n < 0:
        raise IllegalAction("n must be 0 or more")
    if action.cards and not signature.lists_cards:
        raise IllegalAction("only a zone-wide action, state-based actions and a mulligan list cards")
    if action.targets and not signature.takes_targets:
        raise IllegalAction(f"{k.value} takes no target: only a spell being cast has one, a copy names the spell it copies, and exile_with the permanent the card is exiled with")
    if len(action.targets) > 1:
        raise IllegalAction("a spell of the model has at most one target")
    if not all(0 <= t < len(world.slots) for t in action.targets):
        raise IllegalAction(f"no object slot {action.targets}")
    if action.to_command and not signature.moves_card:
        raise IllegalAction(f"{k.value} moves no card to another zone: there is no move to put into the command zone instead")


def check_initial(world: World, state: GameState) -> None:
    """A check starts at the start of a game: each deck in its owner's library, sideboards outside."""
    for slot, o in zip(world.slots, state.objects):
        expected = START_ZONE[slot.kind.value]
        if o.zone is not expected or o.whose != slot.owner or o.controller != slot.owner or o.gen != 0 or o.fresh or o.casts or o.looker is not None or o.copy:
            raise IllegalAction(f"{slot.name} does not start where a game starts ({expected.value} of {PLAYER_NAMES[slot.owner]})")
    for slot, o in zip(world.slots, state.objects):
        closed_by = world.ruleset.rules_for(Behaviour.ZONE_CLOSED, o.zone)
        if closed_by:
            raise IllegalAction(f"{slot.name} starts in the {o.zone.value}, which rule {closed_by[0]} closes")
    for p in range(world.players):
        positions = sorted(state.objects[i].pos for i in state.zone_members(Zone.LIBRARY, p))
        if positions != list(range(len(positions))):
            raise IllegalAction(f"{PLAYER_NAMES[p]}'s library positions are not 0..{len(positions) - 1}")
    for slot, t in zip(world.slots, world.card_types):
        problem = slot.type_problem(t)
        if problem:
            raise IllegalAction(problem)
    if world.ruleset.tracks_players and (state.players != tuple(PlayerState() for _ in range(world.players)) or state.started):
        raise IllegalAction("a game starts with no opening hand drawn, no mulligan taken and no library looked through")
