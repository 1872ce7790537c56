"""The explicit-state peer: one check by breadth-first search over the interpreter (zoneproof.explicit),
with the arguments of `zoneproof check` that bench.py uses, printed as one JSON line.

    python benchmarks/explicit_peer.py mtg-current --without 400.3 -p owner-zones --cards 4 --depth 3
    python benchmarks/explicit_peer.py mtg-current -p ordered-zones --cards 2 --depth 6 --max-states 300000

`seconds` is the search's own time (its setup included, Python's start and imports not), as
`zoneproof check` reports the seconds of its queries. The budget is a number of states kept, so the
answer does not depend on the machine's load; when it runs out, the verdict is `budget-exhausted` and
`depth` is the last level explored completely.
"""

from __future__ import annotations

import argparse
import json
import sys

from zoneproof.errors import InputError
from zoneproof.explicit import MAX_STATES, check_explicitly
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("-w", "--without", action="append", default=[], metavar="RULE")
    parser.add_argument("-p", "--property", required=True)
    parser.add_argument("--players", type=int, default=Scope.players)
    parser.add_argument("--cards", type=int, default=Scope.cards)
    parser.add_argument("--sideboard", type=int, default=Scope.sideboard)
    parser.add_argument("--tokens", type=int, default=Scope.tokens)
    parser.add_argument("--depth", type=int, default=Scope.depth)
    parser.add_argument("--hand", type=int, default=Scope.hand)
    parser.add_argument("--max-states", type=int, default=MAX_STATES, help=f"the budget: states kept (default {MAX_STATES})")
    parser.add_argument("--max-cpu-seconds", type=float, help="a second budget: the search stops when it has used this much CPU time")
    options = parser.parse_args(argv)
    props = {p.id: p for p in stock_properties()}
    if options.property not in props:
        parser.error(f"no stock property '{options.property}'")
    try:
        ruleset = load_ruleset(options.ruleset).without(options.without)
    except InputError as error:
        parser.error(error.message)
    scope = Scope(players=options.players, cards=options.cards, sideboard=options.sideboard, tokens=options.tokens,
                  depth=options.depth, hand=options.hand)
    exploration = check_explicitly(ruleset, [props[options.property]], scope, max_states=options.max_states,
                                      max_cpu_seconds=options.max_cpu_seconds)
    [result] = exploration.results
    print(json.dumps({
        "ruleset": ruleset.name, "removed": list(ruleset.removed), "property": options.property,
        "verdict": result.verdict.value, "depth": result.depth, "every_depth": result.every_depth,
        "seconds": round(exploration.seconds, 3), "states": exploration.states,
        "states_per_level": list(exploration.states_per_level), "completed": exploration.completed,
        "budget_reached": exploration.budget_reached, "reason": result.reason or None,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
