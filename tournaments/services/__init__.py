"""Every write to a tournament goes through this package: rules, row locks and the audit log.

Views, the API, tasks and the admin call these functions; nothing important hides in
save() or signals. Each function takes keyword-only arguments, runs in one transaction
and raises django.core.exceptions.ValidationError (or PermissionDenied) with a
message a person understands, leaving nothing half-written.

One module per concern: guards (who may act, row locks), events
(an event's settings and status), registration, rounds (pairing to closing),
results, penalties, match_games (games within a match and set swaps), topcut. This
module lists the public functions, so callers write ``services.report_result``.
"""

from tournaments.audit import audit
from tournaments.services.events import (
    EDITABLE_SETTINGS,
    add_co_organiser,
    change_status,
    create_tournament,
    remove_co_organiser,
    update_tournament,
)
from tournaments.services.match_games import record_swap, start_game
from tournaments.services.penalties import give_penalty
from tournaments.services.pod_reports import (
    accept_report,
    confirm_placings,
    dispute_placings,
    report_placings,
)
from tournaments.services.pods import record_placings
from tournaments.services.registration import (
    check_in,
    drop,
    register,
    register_walk_in,
    reinstate,
)
from tournaments.services.results import (
    confirm_result,
    record_system_result,
    reject_result,
    report_result,
)
from tournaments.services.rounds import (
    close_round,
    pair_next_round,
    publish_round,
    repair_round,
    run_pairing_job,
    start_round,
    swap_players_in_draft,
)
from tournaments.services.teams import accept_team, approve_team, register_team, withdraw_team
from tournaments.services.topcut import advance_top_cut, finish_tournament, start_top_cut
from tournaments.visibility import is_own_player

__all__ = [
    "audit",
    "is_own_player",
    "create_tournament",
    "update_tournament",
    "add_co_organiser",
    "remove_co_organiser",
    "change_status",
    "EDITABLE_SETTINGS",
    "register",
    "register_walk_in",
    "register_team",
    "accept_team",
    "approve_team",
    "withdraw_team",
    "check_in",
    "drop",
    "reinstate",
    "pair_next_round",
    "repair_round",
    "run_pairing_job",
    "swap_players_in_draft",
    "publish_round",
    "start_round",
    "close_round",
    "record_placings",
    "report_placings",
    "confirm_placings",
    "dispute_placings",
    "accept_report",
    "report_result",
    "record_system_result",
    "confirm_result",
    "reject_result",
    "give_penalty",
    "start_game",
    "record_swap",
    "start_top_cut",
    "advance_top_cut",
    "finish_tournament",
]
