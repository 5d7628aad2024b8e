"""`ruleset serve`: the table in the browser (Starlette on uvicorn, websockets); see docs/serve.md.

views.py what one seat is sent; tables.py the tables and their seats; store.py the tables on
disk; catalogue.py the rulesets on offer; replays.py the replay viewer; app.py the routes;
hub.py the open pages and the tables' drivers; workers.py the worker threads; limits.py the
server's caps; guard.py what a request may carry;
static/ the page (plain JS modules, no build step).
"""
