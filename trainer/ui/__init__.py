"""Streamlit glue every page shares: the hand-over to the router, the cached resources, the
learner header. The only package besides pages/ that imports Streamlit; everything below it is
plain Python that tests run without a browser."""
