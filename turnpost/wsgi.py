"""The WSGI entry point (`turnpost.wsgi:app`), configured from the environment: REDIS_URL,
BOT_DELAY_SECONDS."""
import os

from api.app import create_app
from store.connection import connect
from workers.scheduler import RQScheduler


def build_app():
    client = connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    scheduler = RQScheduler(client, float(os.environ.get("BOT_DELAY_SECONDS", "1")))
    return create_app(client, scheduler)


app = build_app()
