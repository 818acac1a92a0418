"""A local web app: bid a board with and against bidlab's bots, see why they bid, and browse
match results. ``bidlab serve`` runs it; :func:`create_app` builds it for tests or uvicorn."""

from bidlab.web.app import create_app

__all__ = ["create_app"]
