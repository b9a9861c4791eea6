"""Web security that spans the apps: response headers (CSP and friends)."""
