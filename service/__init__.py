"""The use-cases, in rooms by feature (play, players, notify, by_mail), what a commit causes
(`consequences`) and the composition root that wires them on one Redis (`assembly`)."""
