"""The web application's HTTP: pages and api (the blueprints), how requests are read (inputs) and bounded (guards),
the addresses built, caching, error pages and the hooks that wire them; app.py's create_app registers them."""
