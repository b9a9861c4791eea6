"""``manage.py create_api_key --tenant NAME [--name NAME] [--rate-limit 600/min] [--scopes S,...]``.

Prints the new key once, on the last line of the output: it cannot be shown again (only its
hash is stored). Send it as ``Authorization: Api-Key <key>``. ``--scopes`` says what the key may
do (``ApiScope``: ``documents:read``, ``types:admin``, ..., or ``all``); without it the key gets
what an integration needs (``DEFAULT_API_SCOPES``: upload, read results, cases, read types,
its own undelivered webhooks).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.api.throttling import RateLimitError, rate_parse
from apps.tenants.models import DEFAULT_API_SCOPES, ApiScope
from apps.tenants.selectors import tenant_get_by_name
from apps.tenants.services import UnknownScopeError, api_key_create, api_scopes_parse


class Command(BaseCommand):
    help = "Create an API key for a tenant and print it once (last line)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--name", default="default", help="what the key is for, shown in lists")
        parser.add_argument(
            "--rate-limit",
            default="",
            help="requests per period for this key, e.g. 600/min (default: the setting)",
        )
        parser.add_argument(
            "--scopes",
            default=None,
            help=f"comma-separated, from {', '.join(ApiScope.values)}, or all "
            f"(default: {','.join(DEFAULT_API_SCOPES)})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_by_name(name=options["tenant"])
        if tenant is None:
            raise CommandError(
                f"no tenant named {options['tenant']!r}; create it with `manage.py create_tenant`"
            )
        if options["rate_limit"]:
            try:
                rate_parse(options["rate_limit"])
            except RateLimitError as exc:
                raise CommandError(str(exc)) from exc
        scopes = None
        if options["scopes"] is not None:
            try:
                scopes = api_scopes_parse(options["scopes"])
            except UnknownScopeError as exc:
                raise CommandError(str(exc)) from exc
        new = api_key_create(
            tenant=tenant, name=options["name"], rate_limit=options["rate_limit"], scopes=scopes
        )
        self.stderr.write(
            f"created API key {new.api_key.name!r} (prefix {new.api_key.prefix}) for {tenant.name} "
            f"with scopes {', '.join(new.api_key.scopes) or '(none)'}; it is shown once, below: keep it now"
        )
        self.stdout.write(new.raw_key)
