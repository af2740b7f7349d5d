"""``manage.py compiletranslations``: the install step's catalogue compiler (no GNU
gettext needed; config/translations.py)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from config.translations import compile_catalogues


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (pure Python, no msgfmt)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Rebuild every .mo file.")

    def handle(self, *args, force, **options):
        written = compile_catalogues(settings.LOCALE_PATHS, force=force)
        for path in written:
            self.stdout.write(f"Compiled {path.relative_to(settings.BASE_DIR)}")
        if not written:
            self.stdout.write("Translations are up to date.")
