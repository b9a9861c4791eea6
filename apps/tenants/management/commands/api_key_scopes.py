"""``manage.py api_key_scopes PREFIX [--add S,...] [--remove S,...] [--set S,...]``: show or change
what an existing key may do, without issuing a new key (the integrator's configuration keeps it).

Keys made before scopes existed were given ``DEFAULT_API_SCOPES`` (no ``types:admin``): an
integration that defines document types gets it back with ``--add types:admin``. Audited.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.tenants.models import ApiKey, ApiScope
from apps.tenants.services import UnknownScopeError, api_key_scopes_set, api_scopes_parse


class Command(BaseCommand):
    help = "Show or change an API key's scopes, by its visible prefix (the part after dik_)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("prefix")
        known = f"comma-separated, from {', '.join(ApiScope.values)}, or all"
        parser.add_argument("--set", default=None, help=f"exactly these scopes ({known})")
        parser.add_argument("--add", default="", help=f"scopes to add ({known})")
        parser.add_argument("--remove", default="", help=f"scopes to remove ({known})")

    def handle(self, *args: Any, **options: Any) -> None:
        prefix = options["prefix"].removeprefix("dik_").split("_")[0]
        api_key = ApiKey.objects.select_related("tenant").filter(prefix=prefix).first()
        if api_key is None:
            raise CommandError(f"no API key with prefix {prefix!r}")
        try:
            scopes = set(api_scopes_parse(options["set"]) if options["set"] is not None else api_key.scopes)
            scopes |= set(api_scopes_parse(options["add"]))
            scopes -= set(api_scopes_parse(options["remove"]))
        except UnknownScopeError as exc:
            raise CommandError(str(exc)) from exc
        if options["set"] is not None or options["add"] or options["remove"]:
            api_key = api_key_scopes_set(api_key=api_key, scopes=sorted(scopes))
        self.stdout.write(
            f"{api_key.name!r} (prefix {api_key.prefix}) of {api_key.tenant.name}: "
            f"{', '.join(api_key.scopes) or '(no scopes)'}"
        )
