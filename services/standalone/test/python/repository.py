"""Repository files, commits, branches, tags and protected branches of one project."""
import base64

import gitlab

from common import arg, client, emit

gl = client()
suffix = arg("suffix")
out = {}
project = gl.projects.create({"name": f"py-repo-{suffix}", "initialize_with_readme": True})

# Files: create, get (Base64 content), raw, update, delete.
created = project.files.create({"file_path": "docs/hello.txt", "branch": "main", "content": "hello\n", "commit_message": "Add hello"})
out["file_created"] = {"file_path": created.file_path, "branch": created.branch}
f = project.files.get(file_path="docs/hello.txt", ref="main")
out["file_get"] = {"content": base64.b64decode(f.content).decode(), "encoding": f.encoding, "size": f.size, "file_name": f.file_name}
out["file_raw"] = project.files.raw(file_path="docs/hello.txt", ref="main").decode()
f.content = "hello again\n"
f.save(branch="main", commit_message="Update hello")
out["file_updated"] = project.files.raw(file_path="docs/hello.txt", ref="main").decode()
project.files.delete(file_path="docs/hello.txt", branch="main", commit_message="Remove hello")
try:
    project.files.get(file_path="docs/hello.txt", ref="main")
    out["file_deleted"] = False
except gitlab.exceptions.GitlabGetError as e:
    out["file_deleted"] = e.response_code

# Commits: create with several actions, list, get, diff.
commit = project.commits.create({
    "branch": "main",
    "commit_message": "Several actions",
    "actions": [
        {"action": "create", "file_path": "a.txt", "content": "a\n"},
        {"action": "create", "file_path": "b.bin", "content": base64.b64encode(b"\x00\x01\x02").decode(), "encoding": "base64"},
        {"action": "update", "file_path": "README.md", "content": "# changed\n"},
    ],
})
out["commit"] = {"title": commit.title, "parent_count": len(commit.parent_ids)}
listed = project.commits.list(ref_name="main", all=True)
out["commit_titles"] = [c.title for c in listed]
# Page by page, following the Link / X-Next-Page headers.
out["paged_titles_match"] = [c.title for c in project.commits.list(ref_name="main", per_page=2, iterator=True)] == out["commit_titles"]
got = project.commits.get(commit.id)
out["commit_get"] = {"id_matches": got.id == commit.id, "message": got.message}
out["commit_diff"] = sorted((d["new_path"], d["new_file"]) for d in got.diff())
moved = project.commits.create({"branch": "main", "commit_message": "Move a", "actions": [{"action": "move", "file_path": "c.txt", "previous_path": "a.txt"}]})
out["moved_diff"] = [(d["old_path"], d["new_path"], d["renamed_file"]) for d in moved.diff()]

# Branches.
branch = project.branches.create({"branch": "feature", "ref": "main"})
out["branch"] = {"name": branch.name, "commit_matches": branch.commit["id"] == moved.id, "protected": branch.protected}
out["branches"] = sorted(b.name for b in project.branches.list())
out["branch_get"] = project.branches.get("feature").name
project.branches.delete("feature")
out["branches_after_delete"] = sorted(b.name for b in project.branches.list())

# Tags.
tag = project.tags.create({"tag_name": "v1.0", "ref": "main", "message": "first release"})
out["tag"] = {"name": tag.name, "message": tag.message, "target_matches": tag.commit["id"] == moved.id}
out["tags"] = [t.name for t in project.tags.list()]
out["tag_get"] = project.tags.get("v1.0").name
project.tags.delete("v1.0")
out["tags_after_delete"] = [t.name for t in project.tags.list()]

# Protected branches.
protected = project.protectedbranches.create({"name": "release/*", "push_access_level": gitlab.const.AccessLevel.MAINTAINER, "merge_access_level": gitlab.const.AccessLevel.DEVELOPER})
out["protected"] = {"name": protected.name, "push": [a["access_level"] for a in protected.push_access_levels], "merge": [a["access_level"] for a in protected.merge_access_levels]}
out["protected_list"] = sorted(p.name for p in project.protectedbranches.list())
out["protected_get"] = project.protectedbranches.get("release/*").name
project.protectedbranches.delete("release/*")
out["protected_after_delete"] = sorted(p.name for p in project.protectedbranches.list())
emit(out)
