"""Making the Redis client from a URL."""
import redis


def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, health_check_interval=30)


StoreUnavailable = redis.RedisError
"""What a store call raises when Redis cannot be reached or fails (for the layers above, which
do not import redis)."""
