"""Making the Redis client from a URL."""
import redis


def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, health_check_interval=30)
