"""Who may do what in one tournament."""

from players.roles import is_organiser


def can_manage(user, tournament) -> bool:
    """The tournament's organiser, or a site organiser."""
    if not user or not user.is_authenticated:
        return False
    return user.id == tournament.organiser_id or is_organiser(user)


def can_judge(user, tournament) -> bool:
    """Organisers and the tournament's head and floor judges."""
    if can_manage(user, tournament):
        return True
    if not user or not user.is_authenticated:
        return False
    if user.id == tournament.head_judge_id:
        return True
    judge_ids = getattr(tournament, "_judge_ids", None)
    if judge_ids is None:
        judge_ids = set(tournament.floor_judges.values_list("id", flat=True))
        tournament._judge_ids = judge_ids
    return user.id in judge_ids
