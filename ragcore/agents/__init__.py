"""The three agents around the retrieval core, and what passes between them.

``perception`` reads a question into a ``Perception``; ``planning`` turns it into
retrieval tasks, runs them and fuses their hits into numbered ``Evidence``;
``generation`` writes a cited ``Draft`` from the evidence; ``validation`` judges the
draft and reports ``Issue``s as data. ``evidence`` holds the types they share.
"""
