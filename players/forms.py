from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext_lazy as _

from games.engines.irondie.dice import ADDITIONAL_SET_MAX, PLAYING_SET_SIZE, Colour, DieType
from games.engines.irondie.words import CLASS_NAMES, COLOUR_NAMES, TYPE_NAMES
from players import services
from players.models import Player

TYPE_CHOICES = [
    (t.value, format_lazy("{} ({})", _(TYPE_NAMES[t.value]), _(CLASS_NAMES[t.die_class.value])))
    for t in DieType
]
COLOUR_CHOICES = [(c.value, capfirst(_(COLOUR_NAMES[c.value]))) for c in Colour]


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(label=_("Display name"), max_length=80)
    country = forms.CharField(label=_("Country (ISO code)"), max_length=2, required=False)
    club = forms.CharField(label=_("Club"), max_length=80, required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "country", "club"]


class OrganiserPlayerForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=80)
    player_number = forms.CharField(
        label=_("Player id"),
        max_length=20,
        required=False,
        help_text=_("Leave empty to generate one."),
    )
    country = forms.CharField(label=_("Country (ISO code)"), max_length=2, required=False)
    club = forms.CharField(label=_("Club"), max_length=80, required=False)


class DiceSetForm(forms.Form):
    """The dice-set editor: 9 playing slots and 3 optional additional slots.

    Field names are ``playing_<i>_type`` etc.; the rules are checked by the service
    (players.services.validate_dice_set) so the page and the API agree.
    """

    name = forms.CharField(label=_("Set name"), max_length=80)

    def __init__(self, *args, dice_set=None, **kwargs):
        initial = kwargs.setdefault("initial", {})
        if dice_set is not None:
            initial["name"] = dice_set.name
            for prefix, dice in (
                ("playing", dice_set.playing_dice),
                ("additional", dice_set.additional_dice),
            ):
                for i, die in enumerate(dice):
                    initial[f"{prefix}_{i}_type"] = die["type"]
                    initial[f"{prefix}_{i}_colour"] = die["colour"]
                    initial[f"{prefix}_{i}_rare"] = die["rare"]
        super().__init__(*args, **kwargs)
        for prefix, count, required in (
            ("playing", PLAYING_SET_SIZE, True),
            ("additional", ADDITIONAL_SET_MAX, False),
        ):
            blank = [] if required else [("", _("— empty —"))]
            for i in range(count):
                self.fields[f"{prefix}_{i}_type"] = forms.ChoiceField(
                    label=_("Type"), choices=blank + TYPE_CHOICES, required=required
                )
                self.fields[f"{prefix}_{i}_colour"] = forms.ChoiceField(
                    label=_("Colour"), choices=blank + COLOUR_CHOICES, required=required
                )
                self.fields[f"{prefix}_{i}_rare"] = forms.BooleanField(
                    label=_("Rare"), required=False
                )

    def slots(self, prefix: str):
        count = PLAYING_SET_SIZE if prefix == "playing" else ADDITIONAL_SET_MAX
        for i in range(count):
            yield {
                "index": i + 1,
                "type": self[f"{prefix}_{i}_type"],
                "colour": self[f"{prefix}_{i}_colour"],
                "rare": self[f"{prefix}_{i}_rare"],
                "value": {
                    "type": self[f"{prefix}_{i}_type"].value() or "",
                    "colour": self[f"{prefix}_{i}_colour"].value() or "",
                    "rare": bool(self[f"{prefix}_{i}_rare"].value()),
                },
            }

    def playing_slots(self):
        return list(self.slots("playing"))

    def additional_slots(self):
        return list(self.slots("additional"))

    def _dice(self, prefix: str, count: int) -> list[dict]:
        dice = []
        for i in range(count):
            die_type = self.cleaned_data.get(f"{prefix}_{i}_type")
            colour = self.cleaned_data.get(f"{prefix}_{i}_colour")
            if not die_type and not colour:
                continue
            if not die_type or not colour:
                self.add_error(
                    f"{prefix}_{i}_type", _("Choose both a type and a colour, or neither.")
                )
                continue
            dice.append(
                {
                    "type": die_type,
                    "colour": colour,
                    "rare": self.cleaned_data.get(f"{prefix}_{i}_rare"),
                }
            )
        return dice

    def clean(self):
        cleaned = super().clean()
        playing = self._dice("playing", PLAYING_SET_SIZE)
        additional = self._dice("additional", ADDITIONAL_SET_MAX)
        if self.errors:
            return cleaned
        try:
            services.validate_dice_set(playing, additional)
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                for message in messages:
                    self.add_error(None, message) if field != "name" else self.add_error(
                        "name", message
                    )
        cleaned["playing_dice"], cleaned["additional_dice"] = playing, additional
        return cleaned
