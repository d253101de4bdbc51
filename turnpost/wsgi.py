"""The WSGI entry point (`turnpost.wsgi:app`), configured from the environment: REDIS_URL and
the settings in service/settings.py (PUBLIC_URL, SMTP_URL, MAIL_DOMAIN, BOT_DELAY_SECONDS...) and
api/front_door.py (timeouts, stream and rate limits)."""

import os

from api.app import create_app, settle_the_heap
from api.front_door import FrontDoor
from service.settings import Settings
from store.connection import connect, data_url


def build_app():
    door = FrontDoor.from_env(os.environ)
    # every connection gevent holds may have a Redis call in flight
    client = connect(data_url(os.environ), max_connections=door.worker_connections)
    settings = Settings.from_env(os.environ)
    return create_app(client, settings=settings, front_door=door)


app = build_app()
settle_the_heap(app)
