"""Who may do what in one tournament: the one place that answers "may this user
organise (or judge) this event".

Roles are per event. A tournament has one owner (``Tournament.organiser``: the user who
created it), co-organisers and judges (its head judge and floor judges):

- the owner and the co-organisers manage the event (settings, registrations, pairings,
  rounds, top cut) and assign its judges; only the owner changes who the co-organisers
  are (a co-organiser may step down);
- the judges run it at the tables (clocks, results, penalties, drops, the queue);
  organisers may do all of that too;
- site staff (superusers) may do everything everywhere.

The site-wide group ``organiser`` (players/roles.py) is only the right to *create*
tournaments, and the group ``judge`` only makes someone eligible to be picked as an
event's judge (and a judge of practice and demo games): being an organiser or judge of
one event gives no power over another.
"""

from django.db.models import Q

from players.roles import is_organiser
from tournaments.models import Tournament


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def is_site_staff(user) -> bool:
    """Superusers: full access to every event."""
    return _signed_in(user) and user.is_superuser


def can_create_tournament(user) -> bool:
    """Who may create an event is a site decision: the group ``organiser`` (and staff)."""
    return _signed_in(user) and is_organiser(user)


def _member_ids(tournament, relation: str) -> set[int]:
    """User ids of a many-to-many role of the tournament, read once per object (from a
    prefetch when the caller made one). ``forget_roles`` drops the cache after a change."""
    cache = tournament.__dict__.setdefault("_role_ids", {})
    if relation not in cache:
        prefetched = getattr(tournament, "_prefetched_objects_cache", {}).get(relation)
        if prefetched is not None:
            cache[relation] = {user.pk for user in prefetched}
        else:
            cache[relation] = set(getattr(tournament, relation).values_list("id", flat=True))
    return cache[relation]


def forget_roles(tournament) -> None:
    """Call after changing the co-organisers or judges of this object."""
    tournament.__dict__.pop("_role_ids", None)


def is_owner(user, tournament) -> bool:
    """The event's owner (or site staff)."""
    if not _signed_in(user):
        return False
    return is_site_staff(user) or user.id == tournament.organiser_id


def is_co_organiser(user, tournament) -> bool:
    return _signed_in(user) and user.id in _member_ids(tournament, "co_organisers")


def can_manage(user, tournament) -> bool:
    """The owner, a co-organiser, or site staff."""
    return is_owner(user, tournament) or is_co_organiser(user, tournament)


def can_manage_co_organisers(user, tournament) -> bool:
    """Adding and removing co-organisers: the owner (or site staff)."""
    return is_owner(user, tournament)


def can_judge(user, tournament) -> bool:
    """The event's organisers and its head and floor judges."""
    if can_manage(user, tournament):
        return True
    if not _signed_in(user):
        return False
    if user.id == tournament.head_judge_id:
        return True
    return user.id in _member_ids(tournament, "floor_judges")


def role_in(user, tournament) -> str | None:
    """The strongest role the user has in the event, for lists and answers:
    "staff", "owner", "co_organiser", "judge" or None."""
    if not _signed_in(user):
        return None
    if user.id == tournament.organiser_id:
        return "owner"
    if is_co_organiser(user, tournament):
        return "co_organiser"
    if user.id == tournament.head_judge_id or user.id in _member_ids(tournament, "floor_judges"):
        return "judge"
    return "staff" if is_site_staff(user) else None


# --- querysets: the same rules for lists ----------------------------------------------


# ``Q()`` would vanish when combined with ``|``; this one matches every row.
EVERY_EVENT = Q(pk__isnull=False)
NO_EVENT = Q(pk__in=[])


def _through_ids(relation: str, user):
    through = getattr(Tournament, relation).through
    return through.objects.filter(user_id=user.pk).values("tournament_id")


def managed_q(user) -> Q:
    """Events the user organises (owner or co-organiser); every event for site staff."""
    if not _signed_in(user):
        return NO_EVENT
    if is_site_staff(user):
        return EVERY_EVENT
    return Q(organiser_id=user.pk) | Q(pk__in=_through_ids("co_organisers", user))


def judged_q(user) -> Q:
    """Events the user may judge: the ones they organise or are a judge of."""
    if not _signed_in(user):
        return NO_EVENT
    if is_site_staff(user):
        return EVERY_EVENT
    return managed_q(user) | Q(head_judge_id=user.pk) | Q(pk__in=_through_ids("floor_judges", user))


def mine_q(user) -> Q:
    """ "My events": the ones the user organises or judges (not every event for staff)."""
    if not _signed_in(user):
        return NO_EVENT
    return (
        Q(organiser_id=user.pk)
        | Q(pk__in=_through_ids("co_organisers", user))
        | Q(head_judge_id=user.pk)
        | Q(pk__in=_through_ids("floor_judges", user))
    )
