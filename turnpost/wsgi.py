"""The WSGI entry point (`turnpost.wsgi:app`), configured from the environment: REDIS_URL."""
from api.app import create_app

app = create_app()
