"""Instance settings through python-gitlab: gl.settings.get(), attribute changes and save()."""
import gitlab

from common import client, emit

gl = client()
out = {}
pick = lambda s: {"notes_create_limit": s.notes_create_limit, "default_branch_protection": s.default_branch_protection}

settings = gl.settings.get()
out["before"] = pick(settings)
settings.notes_create_limit = 42
settings.default_branch_protection = 1
settings.save()
out["saved"] = pick(settings)
out["reread"] = pick(gl.settings.get())
try:
    gl.settings.update(new_data={"default_branch_protection": 9})
    out["refused"] = "no error"
except gitlab.exceptions.GitlabUpdateError as e:
    out["refused"] = [e.response_code, e.error_message]
settings.notes_create_limit = 300
settings.default_branch_protection = 2
settings.save()
emit(out)
