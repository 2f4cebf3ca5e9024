"""The textbook algorithms in the form of the course slides, and the recorded trace a learner
reads."""
