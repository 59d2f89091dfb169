"""Full-screen result views of a running query: the materialized table and the scrolling changelog."""
