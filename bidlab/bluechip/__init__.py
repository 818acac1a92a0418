"""The Blue Chip Bridge table protocol: a client that seats a bidlab agent at any table
manager, and a table manager that hosts four programs per table (two tables for a team match).

- :mod:`bidlab.bluechip.protocol`: the messages, parsed (tolerantly) and formatted (canonically);
- :mod:`bidlab.bluechip.connection`: lines over TCP with timeouts, and the loopback rule;
- :mod:`bidlab.bluechip.play`: trick rules and the client's card players;
- :mod:`bidlab.bluechip.client`: one seat;
- :mod:`bidlab.bluechip.manager`: the table manager, scoring and session records.
"""
