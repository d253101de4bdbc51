"""The WSGI entry point (`turnpost.wsgi:app`), configured from the environment: REDIS_URL and
the settings in service/settings.py (PUBLIC_URL, SMTP_URL, MAIL_DOMAIN, BOT_DELAY_SECONDS...)."""
import os

from api.app import create_app
from service.settings import Settings
from store.connection import connect, data_url


def build_app():
    client = connect(data_url(os.environ))
    settings = Settings.from_env(os.environ)
    return create_app(client, settings=settings)


app = build_app()
