"""The web application's HTTP: pages and api (the blueprints), how requests are read (inputs) and bounded (guards),
the addresses built, caching, error pages and the hooks that wire them; passk/web/app.py's create_app registers them."""
