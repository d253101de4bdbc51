"""The WSGI entry point (`turnpost.wsgi:app`), configured from the environment: REDIS_URL and
the settings in service/settings.py (PUBLIC_URL, SMTP_URL, MAIL_DOMAIN, BOT_DELAY_SECONDS...) and
api/front_door.py (timeouts, stream and rate limits)."""
import os

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from store.connection import connect
from workers.scheduler import RQScheduler


def build_app():
    door = FrontDoor.from_env(os.environ)
    # every connection gevent holds may have a Redis call in flight
    client = connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                     max_connections=door.worker_connections)
    settings = Settings.from_env(os.environ)
    return create_app(client, RQScheduler(client, settings=settings), settings=settings,
                      front_door=door)


app = build_app()
