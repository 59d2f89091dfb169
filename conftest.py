"""Imports dynsql's packages from this checkout before pytest puts tests/ first on sys.path: there
tests/planner (a package of planner tests) would shadow planner/, and the editable install's finder would
then load planner's modules from wherever dynsql was installed (another checkout), not from this one."""

import planner  # noqa: F401
import planner.functions  # noqa: F401
