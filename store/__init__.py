"""All Redis I/O: key names, the event log, snapshots, players, tokens, inboxes."""
