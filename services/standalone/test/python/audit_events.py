"""Audit events through python-gitlab: gl.audit_events (administrators), group.audit_events and
project.audit_events (list with created_after/created_before, get, keyset iteration)."""
import datetime

import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}

owner = gl.users.create({"username": f"pyaudit{suffix}", "email": f"pyaudit{suffix}@example.com", "name": f"Py Audit {suffix}", "password": "secret-password-1"})
dev = gl.users.create({"username": f"pyauditdev{suffix}", "email": f"pyauditdev{suffix}@example.com", "name": f"Py Dev {suffix}", "password": "secret-password-1"})
as_owner = client(owner.personal_access_tokens.create({"name": "t", "scopes": ["api"]}).token)
as_dev = client(dev.personal_access_tokens.create({"name": "t", "scopes": ["api"]}).token)

group = as_owner.groups.create({"name": f"Py Audit {suffix}", "path": f"py-audit-{suffix}"})
group.members.create({"user_id": dev.id, "access_level": 30})
project = as_owner.projects.create({"name": "site", "namespace_id": group.id})
project.members.create({"user_id": dev.id, "access_level": 20})


def wait_for(fetch, count):
    deadline = datetime.datetime.now() + datetime.timedelta(seconds=20)
    while True:
        items = fetch()
        if len(items) >= count or datetime.datetime.now() > deadline:
            return items


g_events = wait_for(lambda: as_owner.groups.get(group.id).audit_events.list(get_all=True), 3)
out["group"] = [(e.event_name, e.entity_type, e.details.get("add"), e.details.get("as")) for e in g_events]
out["group_get"] = as_owner.groups.get(group.id).audit_events.get(g_events[0].id).id == g_events[0].id
out["group_dev"] = [e.id for e in as_dev.groups.get(group.id).audit_events.list()]
try:
    as_dev.groups.get(group.id).audit_events.get(g_events[0].id)
    out["group_dev_get"] = "no error"
except gitlab.exceptions.GitlabGetError as e:
    out["group_dev_get"] = e.response_code

p_events = wait_for(lambda: as_owner.projects.get(project.id).audit_events.list(get_all=True), 2)
out["project"] = [(e.event_name, e.details.get("entity_path")) for e in p_events]
out["project_get"] = as_owner.projects.get(project.id).audit_events.get(p_events[0].id).event_name

now = datetime.datetime.now(datetime.timezone.utc)
fmt = "%Y-%m-%dT%H:%M:%SZ"
recent = gl.audit_events.list(entity_type="Group", entity_id=group.id, created_after=(now - datetime.timedelta(days=1)).strftime(fmt), get_all=True)
out["instance"] = [e.id for e in recent] == [e.id for e in g_events]
out["instance_get"] = gl.audit_events.get(recent[0].id).entity_id == group.id
out["instance_future"] = gl.audit_events.list(created_after=(now + datetime.timedelta(hours=1)).strftime(fmt))
keyset = [e.id for e in gl.audit_events.list(iterator=True, pagination="keyset", order_by="id", per_page=1, entity_type="Group", entity_id=group.id)]
out["keyset"] = keyset == [e.id for e in g_events]
try:
    as_owner.audit_events.list()
    out["instance_owner"] = "no error"
except gitlab.exceptions.GitlabListError as e:
    out["instance_owner"] = e.response_code
emit(out)
