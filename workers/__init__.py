"""RQ jobs and the RQ side of the scheduler port."""
