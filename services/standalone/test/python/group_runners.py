"""A group's runners as python-gitlab lists them: group.runners.list(), with the type filter."""
from common import arg, client, emit

gl = client(arg("token"))
group = gl.groups.get(int(arg("group_id")))
emit(
    {
        "all": [[r.id, r.runner_type, r.description] for r in group.runners.list(get_all=True)],
        "group_type": [r.id for r in group.runners.list(get_all=True, type="group_type")],
    }
)
