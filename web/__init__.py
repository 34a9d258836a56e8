"""The web application's parts beside its views in app.py: how requests are read (inputs) and bounded (guards)."""
