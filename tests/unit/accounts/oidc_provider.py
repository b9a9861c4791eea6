"""A small, real OpenID Connect provider for the single sign-on tests, built on Authlib.

It serves what a provider serves over HTTP on a free loopback port: the discovery document, an
authorization endpoint (which approves its one configured person at once, as a provider does for
someone already signed in there), a token endpoint that checks the client's secret, the code,
the redirect URI and the PKCE verifier and issues an RS256-signed ID token, its JWKS, and userinfo.
Authlib's own grants do the protocol; this module only stores codes and tokens in memory. Knobs
let a test make it misbehave: tamper with the ID token after signing, or issue it for another
audience.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from socketserver import ThreadingMixIn
from typing import Any
from urllib.parse import parse_qsl
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from authlib.oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, OAuth2Request, grants
from authlib.oauth2.rfc6749.requests import BasicOAuth2Payload
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from authlib.oidc.core.models import AuthorizationCodeMixin as OpenIDCodeMixin  # RFC 6749 and nonce
from joserfc.jwk import RSAKey
from requests.structures import CaseInsensitiveDict

KEY_ID = "test-signing-key"


@dataclass
class Person:
    """The person signed in at the provider, and what it says about them."""

    sub: str
    preferred_username: str
    email: str
    groups: list[str]


@dataclass
class Client(ClientMixin):
    client_id: str
    client_secret: str
    redirect_uri: str

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_allowed_scope(self, scope: str) -> str:
        return " ".join(s for s in (scope or "").split() if s in {"openid", "email", "profile", "groups"})

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri == self.redirect_uri

    def check_client_secret(self, client_secret: str) -> bool:
        return secrets.compare_digest(client_secret, self.client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method in {"client_secret_post", "client_secret_basic"}

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == "authorization_code"


@dataclass
class AuthorizationCode(OpenIDCodeMixin):
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    person: Person
    nonce: str | None
    code_challenge: str | None
    code_challenge_method: str | None
    auth_time: int = field(default_factory=lambda: int(time.time()))

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope

    def get_nonce(self) -> str | None:
        return self.nonce

    def get_auth_time(self) -> int:
        return self.auth_time


class WsgiRequest(OAuth2Request):
    """Authlib's request, read from a WSGI environ (query string and form body together)."""

    def __init__(self, environ: dict[str, Any], base_url: str) -> None:
        headers = CaseInsensitiveDict(
            {key[5:].replace("_", "-"): value for key, value in environ.items() if key.startswith("HTTP_")}
        )
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        query = environ.get("QUERY_STRING", "")
        super().__init__(
            environ["REQUEST_METHOD"], f"{base_url}{environ['PATH_INFO']}?{query}", headers=headers
        )
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length).decode() if length else ""
        self._args = dict(parse_qsl(query))
        self._form = dict(parse_qsl(body))
        self.payload = BasicOAuth2Payload({**self._args, **self._form})

    @property
    def args(self) -> dict[str, str]:
        return self._args

    @property
    def form(self) -> dict[str, str]:
        return self._form


class Provider(AuthorizationServer):
    """The authorization server: one client, one person, codes and tokens in memory."""

    def __init__(self, base_url: str, client: Client, person: Person) -> None:
        super().__init__(scopes_supported=["openid", "email", "profile", "groups"])
        self.base_url = base_url
        self.client = client
        self.person = person
        self.key = RSAKey.generate_key(2048, parameters={"kid": KEY_ID, "alg": "RS256", "use": "sig"})
        self.codes: dict[str, AuthorizationCode] = {}
        self.tokens: dict[str, Person] = {}
        self.tamper_id_token = False
        self.audience: str | None = None  # None: the client's id
        self.register_token_generator(
            "default", BearerTokenGenerator(access_token_generator=lambda **_: secrets.token_urlsafe(32))
        )
        self.register_grant(CodeGrant, [CodeChallenge(required=True), IdToken(self)])

    def query_client(self, client_id: str) -> Client | None:
        return self.client if client_id == self.client.client_id else None

    def save_token(self, token: dict[str, Any], request: OAuth2Request) -> None:
        self.tokens[token["access_token"]] = request.user

    def create_oauth2_request(self, request: WsgiRequest) -> WsgiRequest:
        return request

    def handle_response(self, status: int, body: Any, headers: Iterable[tuple[str, str]]) -> Any:
        return status, body, list(headers)

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        return None

    @property
    def issuer(self) -> str:
        return self.base_url


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_post", "client_secret_basic"]

    def save_authorization_code(self, code: str, request: OAuth2Request) -> None:
        data = request.payload.data
        self.server.codes[code] = AuthorizationCode(
            code=code,
            client_id=request.client.client_id,
            redirect_uri=data["redirect_uri"],
            scope=request.client.get_allowed_scope(data.get("scope", "")),
            person=request.user,
            nonce=data.get("nonce"),
            code_challenge=data.get("code_challenge"),
            code_challenge_method=data.get("code_challenge_method"),
        )

    def query_authorization_code(self, code: str, client: Client) -> AuthorizationCode | None:
        found = self.server.codes.get(code)
        return found if found is not None and found.client_id == client.client_id else None

    def delete_authorization_code(self, authorization_code: AuthorizationCode) -> None:
        self.server.codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code: AuthorizationCode) -> Person:
        return authorization_code.person


class IdToken(OpenIDCode):
    def __init__(self, provider: Provider) -> None:
        super().__init__(require_nonce=True)
        self.provider = provider

    def exists_nonce(self, nonce: str, request: OAuth2Request) -> bool:
        return any(code.nonce == nonce for code in self.provider.codes.values())

    def resolve_client_private_key(self, client: Client) -> RSAKey:
        return self.provider.key

    def get_client_algorithm(self, client: Client) -> str:
        return "RS256"

    def get_encode_header(self, client: Client) -> dict[str, str]:
        return {"alg": "RS256", "kid": KEY_ID}

    def get_client_claims(self, client: Client) -> dict[str, Any]:
        return {"iss": self.provider.issuer, "aud": [self.provider.audience or client.client_id]}

    def generate_user_info(self, user: Person, scope: str) -> UserInfo:
        return UserInfo(sub=user.sub)  # the ID token names the subject; userinfo tells the rest


def _tampered(id_token: str) -> str:
    """The same token with its payload changed after signing (admin groups added)."""
    header, payload, signature = id_token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["groups"] = ["docintel-admins"]
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{forged}.{signature}"


class _Threading(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


class RunningProvider:
    """The provider served on 127.0.0.1:<free port> in a thread, until ``stop``."""

    def __init__(self, client_id: str, client_secret: str, redirect_uri: str, person: Person) -> None:
        self._server = make_server("127.0.0.1", 0, self._app, server_class=_Threading, handler_class=_Quiet)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self.provider = Provider(self.url, Client(client_id, client_secret, redirect_uri), person)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        request = WsgiRequest(environ, self.url)
        route = {
            "/.well-known/openid-configuration": self._discovery,
            "/authorize": self._authorize,
            "/token": self._token,
            "/jwks": self._jwks,
            "/userinfo": self._userinfo,
        }.get(environ["PATH_INFO"])
        status, body, headers = route(request) if route else (404, {"error": "not_found"}, [])
        if isinstance(body, dict):
            body = json.dumps(body)
            headers = [*headers, ("Content-Type", "application/json")]
        start_response(f"{status} {'OK' if status < 400 else 'Error'}", headers)
        return [body.encode()]

    def _discovery(self, request: WsgiRequest) -> tuple[int, dict[str, Any], list[tuple[str, str]]]:
        return (
            200,
            {
                "issuer": self.url,
                "authorization_endpoint": f"{self.url}/authorize",
                "token_endpoint": f"{self.url}/token",
                "userinfo_endpoint": f"{self.url}/userinfo",
                "jwks_uri": f"{self.url}/jwks",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
            },
            [],
        )

    def _authorize(self, request: WsgiRequest) -> Any:
        person = self.provider.person
        grant = self.provider.get_consent_grant(request, end_user=person)
        return self.provider.create_authorization_response(request, grant_user=person, grant=grant)

    def _token(self, request: WsgiRequest) -> Any:
        status, body, headers = self.provider.create_token_response(request)
        if status == 200 and self.provider.tamper_id_token:
            body = {**body, "id_token": _tampered(body["id_token"])}
        return status, body, headers

    def _jwks(self, request: WsgiRequest) -> tuple[int, dict[str, Any], list[tuple[str, str]]]:
        return 200, {"keys": [self.provider.key.as_dict(private=False)]}, []

    def _userinfo(self, request: WsgiRequest) -> tuple[int, dict[str, Any], list[tuple[str, str]]]:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        person = self.provider.tokens.get(token) if scheme.lower() == "bearer" else None
        if person is None:
            return 401, {"error": "invalid_token"}, []
        return (
            200,
            {
                "sub": person.sub,
                "preferred_username": person.preferred_username,
                "email": person.email,
                "groups": person.groups,
            },
            [],
        )
