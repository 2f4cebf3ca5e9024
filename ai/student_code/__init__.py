"""Code that is not ours: students' agents, heuristics and exercise solutions, run in a worker,
and the exercise grader."""
