"""Who is signing in, and from where: the client's address behind trusted proxies, the login
throttle, idle sessions and single sign-on through OpenID Connect (docs/security.md#logins)."""
