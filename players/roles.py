"""Who may do what across the service: organisers and judges are Django groups.

Per-tournament roles (the head judge of one event) live in tournaments/; these are
the site-wide roles.
"""

ORGANISER_GROUP = "organiser"
JUDGE_GROUP = "judge"


def _in_group(user, group: str) -> bool:
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    # Cached on the user object: templates and permissions ask several times a request.
    cache = getattr(user, "_role_cache", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._role_cache = cache
    return group in cache


def is_organiser(user) -> bool:
    return _in_group(user, ORGANISER_GROUP)


def is_judge(user) -> bool:
    return _in_group(user, JUDGE_GROUP) or is_organiser(user)
