"""The event form with "Swiss pods" ticked: an event in pods has no top cut, so the top
cut left at its default becomes none (with the page's script as the box is ticked, and
on the server without it); a top cut the organiser chose is still refused in words."""

import pytest

from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "name": "Pod Night",
    "date": "2026-12-05",
    "game": "36d6",
    "top_cut_size": "8",
    "late_entry": Tournament.LateEntry.LOSSES,
    "percentage_floor": Tournament.Floor.THIRD,
}


def _create(organiser, data) -> tuple[TournamentForm, Tournament | None]:
    """The form as the new-event page builds it (top cut 8 shown), then the service."""
    form = TournamentForm(data, initial={"top_cut_size": 8})
    if not form.is_valid():
        return form, None
    return form, services.create_tournament(organiser=organiser, **form.cleaned_data)


def test_pods_with_the_default_top_cut_make_an_event_without_one(organiser):
    form, event = _create(organiser, {**NEW_EVENT, "pods": "on"})
    assert form.errors == {}
    assert event.pods and event.top_cut_size == 0


def test_without_pods_the_default_top_cut_stays(organiser):
    _form, event = _create(organiser, NEW_EVENT)
    assert not event.pods and event.top_cut_size == 8


def test_a_top_cut_the_organiser_chose_with_pods_is_refused_in_words(organiser):
    form, event = _create(organiser, {**NEW_EVENT, "pods": "on", "top_cut_size": "16"})
    assert event is None
    assert "choose no top cut" in " ".join(form.errors["top_cut_size"])
    assert not Tournament.objects.filter(name="Pod Night").exists()


def test_ticking_pods_on_an_existing_event_drops_its_default_top_cut(organiser, client):
    event = services.create_tournament(
        organiser=organiser, name="Pod Night", date="2026-12-05", game="dice-forge"
    )
    assert event.top_cut_size == 8
    form = TournamentForm({**NEW_EVENT, "game": "dice-forge", "pods": "on"}, instance=event)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["top_cut_size"] == 0
    # Through the page, without any script: the event is saved in pods, no top cut.
    client.force_login(organiser)
    page = client.post(
        f"/tournaments/{event.pk}/edit/",
        {**NEW_EVENT, "game": "dice-forge", "pods": "on", "pod_mode": "four_three"},
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    event.refresh_from_db()
    assert event.pods and event.top_cut_size == 0


def _open_new_event(page, live_server) -> None:
    """The organiser logged in, on the new-event page."""
    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/new/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/tournaments/new/")


def _create_pod_night(page) -> Tournament:
    """ "Swiss pods" ticked and the event created from the page; the event stored."""
    page.check("#id_pods")
    page.select_option("#id_game", "36d6")
    page.fill("#id_name", "Pod Night")
    page.fill("#id_date", "2026-12-05")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url("**/console/")
    event = Tournament.objects.get(name="Pod Night")
    return event


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_in_the_browser_ticking_pods_shows_no_top_cut(live_server, page, organiser):
    _open_new_event(page, live_server)
    assert page.input_value("#id_top_cut_size") == "8"
    page.check("#id_pods")
    assert page.input_value("#id_top_cut_size") == "0"
    page.uncheck("#id_pods")  # changed their mind: the top cut shown before comes back
    assert page.input_value("#id_top_cut_size") == "8"
    event = _create_pod_night(page)
    assert event.pods and event.top_cut_size == 0 and event.game == "36d6"


# Pod standings count the rounds a late entry missed as not played, whatever the event's
# late-entry rule (a setting for pairs): an event in pods is saved with that rule, and
# another rule chosen for it is refused rather than stored to be ignored.
NOTHING = Tournament.LateEntry.NOTHING


def test_pods_save_the_late_entry_rule_pods_follow(organiser):
    # As the page posts it: the rule still at the default it showed, or left out.
    for data in ({**NEW_EVENT, "pods": "on"}, {**NEW_EVENT, "pods": "on", "late_entry": ""}):
        form, event = _create(organiser, data)
        assert form.errors == {}
        assert event.pods and event.late_entry == NOTHING
        event.delete()
    _form, event = _create(organiser, {**NEW_EVENT, "late_entry": ""})
    assert not event.pods and event.late_entry == Tournament.LateEntry.LOSSES


def test_a_late_entry_rule_chosen_for_pods_is_refused_in_words(organiser, client):
    event = services.create_tournament(
        organiser=organiser, name="Pod Night", date="2026-12-05", game="36d6", late_entry=NOTHING
    )
    client.force_login(organiser)
    page = client.post(
        f"/tournaments/{event.pk}/edit/",
        {**NEW_EVENT, "pods": "on", "pod_mode": "four_three", "top_cut_size": "0"},
    )
    assert page.status_code == 200
    assert "counts the rounds a late entry missed as not played" in page.content.decode()
    event.refresh_from_db()
    assert not event.pods and event.late_entry == NOTHING and event.top_cut_size == 8


def test_an_event_in_pods_that_kept_the_rule_of_pairs_is_saved_with_its_own(organiser):
    # An event put in pods before the form knew better: its stored rule, shown hidden on
    # the page, is posted back unchanged and replaced with the one pods follow.
    event = services.create_tournament(
        organiser=organiser,
        name="Pod Night",
        date="2026-12-05",
        game="36d6",
        pods=True,
        top_cut_size=0,
    )
    Tournament.objects.filter(pk=event.pk).update(late_entry=Tournament.LateEntry.LOSSES)
    event.refresh_from_db()
    form = TournamentForm(
        {**NEW_EVENT, "pods": "on", "pod_mode": "four_three", "top_cut_size": "0"}, instance=event
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["late_entry"] == NOTHING


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_without_script_ticking_pods_hides_the_late_entry_rule(live_server, browser, organiser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15000)
    _open_new_event(page, live_server)
    rule = page.locator(".field", has=page.locator("#id_late_entry"))
    assert rule.is_visible() and "Late entries" in rule.inner_text()
    page.check("#id_pods")
    assert not rule.is_visible() and not page.is_visible("#id_late_entry")
    assert not page.get_by_text("Missed rounds count as match losses").is_visible()
    page.uncheck("#id_pods")
    assert rule.is_visible()
    event = _create_pod_night(page)
    assert event.pods and event.late_entry == NOTHING
    context.close()
