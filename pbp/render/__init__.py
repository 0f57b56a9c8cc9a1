"""Rendering: view models and the Jinja environment; the only package that imports Jinja2."""
