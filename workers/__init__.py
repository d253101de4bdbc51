"""`turnpost worker`: the outbox consumer, the clock and RQ for deliveries."""
