"""Shared by the python-gitlab scripts: the client from QUARRY_URL / QUARRY_TOKEN, JSON output."""
import json
import os
import sys

import gitlab


def client(token=None):
    gl = gitlab.Gitlab(os.environ["QUARRY_URL"], private_token=token or os.environ["QUARRY_TOKEN"], retry_transient_errors=False)
    return gl


def arg(name):
    """A value the test passes in QUARRY_<NAME>."""
    return os.environ["QUARRY_" + name.upper()]


def emit(result):
    """The script's answer for the test: one JSON document on stdout."""
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")
